/**
 * NUL in an ID or a path names nothing: the PostgreSQL store answers it `404 NOT_FOUND`, exactly as
 * the folder (catalog) source does, instead of a database encoding error answered 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import { exampleCatalog, exampleFiles } from '../helpers/exampleKnowledge.js';
import { HOOK_TIMEOUT, openTestDatabase, type TestDatabase } from '../helpers/postgres-database.js';

let test: TestDatabase;
let stores: Record<string, KnowledgeSource>;

beforeAll(async () => {
  test = await openTestDatabase('nul_ids');
  await migrateKnowledgeStore(test.db, { schema: test.schema });
  await publishKnowledge(test.db, {
    knowledgeBase: 'example',
    catalog: exampleCatalog(),
    files: exampleFiles(),
    revision: 42,
    schema: test.schema,
  });
  stores = {
    catalog: createCatalogSource(exampleCatalog(), {
      id: 'example',
      revision: 42,
      files: exampleFiles(),
    }),
    postgres: createPostgresSource(test.db, { knowledgeBase: 'example', schema: test.schema }),
  };
}, HOOK_TIMEOUT);
afterAll(async () => test?.close(), HOOK_TIMEOUT);

const ROUTES = [
  '/files/a%00b',
  '/files/a%00b/content',
  '/files/a%00b/related',
  '/files/content?path=pages%2Fa%00b.md',
  '/graph/expand?fileId=a%00b',
  '/tree?parentPath=pages%00',
];

describe('NUL in IDs and paths', () => {
  it.each(ROUTES)(
    '%s is 404 NOT_FOUND on the PostgreSQL store as on the catalog source',
    async (route) => {
      const answers: Record<string, { status: number; code: string }> = {};
      for (const [name, source] of Object.entries(stores)) {
        const handler = createKnowledgeHandler({
          access: () => ({ knowledgeBases: { example: source } }),
        });
        const response = await handler(
          new Request(`http://kb.test/knowledge-bases/example${route}`),
        );
        const body = (await response.json()) as { error: { code: string } };
        answers[name] = { status: response.status, code: body.error.code };
      }
      expect(answers['postgres']).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(answers['catalog']).toEqual(answers['postgres']);
    },
  );

  it('a sectionIds entry with NUL is NOT_FOUND too', async () => {
    await expect(
      stores['postgres']!.readFile({ fileId: 'exploration', sectionIds: ['a\u0000b'] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
