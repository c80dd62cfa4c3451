/**
 * The `KnowledgeSource` conformance suite on `createPostgresSource`, on PGlite (and on a real server
 * with `KK_POSTGRES_URL`): the example knowledge published to the store answers what
 * `createCatalogSource` answers over the same catalog and files at the published revision.
 */
import { afterAll, beforeAll } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { CatalogSourceOptions, KnowledgeSource } from '../../src/agent/index.js';
import {
  createPostgresSource,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import { exampleCatalog, exampleFiles } from '../helpers/exampleKnowledge.js';
import { runKnowledgeSourceConformance } from '../contracts/knowledgeSource.contract.js';
import {
  DATABASE_KIND,
  HOOK_TIMEOUT,
  openTestDatabase,
  type TestDatabase,
} from '../helpers/postgres-database.js';

let test: TestDatabase;
const REVISION = 42;
const reference = (extra: CatalogSourceOptions = {}): KnowledgeSource =>
  createCatalogSource(exampleCatalog(), {
    id: 'example',
    revision: REVISION,
    files: exampleFiles(),
    ...extra,
  });

beforeAll(async () => {
  test = await openTestDatabase('conformance');
  await migrateKnowledgeStore(test.db, { schema: test.schema });
  await publishKnowledge(test.db, {
    knowledgeBase: 'example',
    catalog: exampleCatalog(),
    files: exampleFiles(),
    revision: REVISION,
    schema: test.schema,
  });
}, HOOK_TIMEOUT);
afterAll(async () => test?.close(), HOOK_TIMEOUT);

runKnowledgeSourceConformance({
  name: `createPostgresSource (${DATABASE_KIND})`,
  newSource: () => createPostgresSource(test.db, { knowledgeBase: 'example', schema: test.schema }),
  reference: () => reference(),
  otherRevision: () => reference({ revision: 41 }),
});
