/**
 * Cursors are tamper-evident (HMAC-SHA256 under the source's `cursorKey`, else the process's key) and
 * carry the parameters they were issued for: a cursor alone continues; parameters beside it must equal
 * the cursor's.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { forgeCursor as forge } from '../helpers/cursors.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { timeless } from '../helpers/versions.js';

const catalog = exampleCatalog();
const KEY = 'replica key: shared by the fleet';

describe('tamper-evident cursors', () => {
  it('a cursor decoded, its offset changed and encoded again is INVALID_CURSOR', async () => {
    const source = createCatalogSource(catalog, exampleSourceOptions());
    const first = await source.listTree({ parentPath: '', limit: 1 });
    const cursor = first.nextCursor!;
    // The genuine cursor works; the same bytes with another offset (or parameters) do not.
    await expect(source.listTree({ cursor })).resolves.toMatchObject({
      items: [expect.anything()],
    });
    const offset = forge(cursor, (p) => (p[5] = 2));
    await expectKnowledgeError(source.listTree({ cursor: offset }), {
      code: 'INVALID_CURSOR',
      message: /not one this knowledge base issued/,
    });
    const limit = forge(cursor, (p) => ((p[4] as Record<string, unknown>)['limit'] = 50));
    await expectKnowledgeError(source.listTree({ cursor: limit }), { code: 'INVALID_CURSOR' });
    // A tag flipped, or cut short.
    const flipped = `${cursor[0] === 'A' ? 'B' : 'A'}${cursor.slice(1)}`;
    await expectKnowledgeError(source.listTree({ cursor: flipped }), {
      code: 'INVALID_CURSOR',
    });
    await expectKnowledgeError(source.listTree({ cursor: cursor.slice(0, 20) }), {
      code: 'INVALID_CURSOR',
    });
  });

  it('replicas sharing `cursorKey` accept each other’s cursors; other keys refuse them', async () => {
    const a = createCatalogSource(catalog, exampleSourceOptions({ cursorKey: KEY }));
    const b = createCatalogSource(
      catalog,
      exampleSourceOptions({ cursorKey: new TextEncoder().encode(KEY) }),
    );
    const other = createCatalogSource(
      catalog,
      exampleSourceOptions({ cursorKey: 'another key, also 32 bytes long' }),
    );
    const processKey = createCatalogSource(catalog, exampleSourceOptions());
    const first = await a.searchFiles({ query: 'cursor revision search', limit: 1 });
    const cursor = first.nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    const onA = await a.searchFiles({ query: 'cursor revision search', limit: 1, cursor });
    // Two sources: each its own publishedAt.
    expect(timeless(await b.searchFiles({ cursor }))).toEqual(timeless(onA));
    for (const refusing of [other, processKey]) {
      await expectKnowledgeError(refusing.searchFiles({ cursor }), {
        code: 'INVALID_CURSOR',
        message: /not one this knowledge base issued/,
      });
    }
    // Sources without a key share the process's: a source rebuilt after a change calls its
    // predecessor's cursors stale, not forged.
    const before = await processKey.listTree({ limit: 1 });
    const rebuilt = createCatalogSource(catalog, exampleSourceOptions({ revision: 43 }));
    await expectKnowledgeError(rebuilt.listTree({ cursor: before.nextCursor }), {
      code: 'STALE_CURSOR',
    });
  });

  it('refuses a `cursorKey` shorter than 16 bytes or of another type', () => {
    for (const cursorKey of ['short', new Uint8Array(15), 42]) {
      expect(() =>
        createCatalogSource(catalog, exampleSourceOptions({ cursorKey: cursorKey as string })),
      ).toThrow(/cursorKey.*at least 16 bytes/s);
    }
  });
});

describe('a cursor alone continues with its parameters', () => {
  const source = createCatalogSource(catalog, exampleSourceOptions());

  it('list_tree, read_related, expand_graph and search_files continue from `{ cursor }` alone', async () => {
    const tree = await source.listTree({ parentPath: 'pages', limit: 1 });
    expect(await source.listTree({ cursor: tree.nextCursor })).toEqual(
      await source.listTree({ parentPath: 'pages', limit: 1, cursor: tree.nextCursor }),
    );
    const related = await source.readRelated({ fileId: 'agent-tools', limit: 1 });
    expect(related.nextCursor).toEqual(expect.any(String));
    expect(await source.readRelated({ cursor: related.nextCursor })).toEqual(
      await source.readRelated({ fileId: 'agent-tools', limit: 1, cursor: related.nextCursor }),
    );
    const query = '  cursor revision search ';
    const found = await source.searchFiles({ query, mode: 'file', limit: 1 });
    expect(found.nextCursor).toEqual(expect.any(String));
    const alone = await source.searchFiles({ cursor: found.nextCursor });
    expect(alone.searchMode).toBe('file');
    // The query is compared as the rules read it: trimmed.
    expect(alone).toEqual(
      await source.searchFiles({ query: query.trim(), cursor: found.nextCursor }),
    );
  });

  it('a parameter beside the cursor that differs from the cursor’s is INVALID_CURSOR naming it', async () => {
    const tree = await source.listTree({ parentPath: 'pages', limit: 1 });
    await expectKnowledgeError(source.listTree({ limit: 2, cursor: tree.nextCursor }), {
      code: 'INVALID_CURSOR',
      message: /`limit` 1, not 2/,
    });
    // A default given explicitly is still the cursor's value.
    const root = await source.listTree({ limit: 1 });
    await expect(source.listTree({ parentPath: '', cursor: root.nextCursor })).resolves.toEqual(
      await source.listTree({ cursor: root.nextCursor }),
    );
    await expectKnowledgeError(source.listTree({ parentPath: 'pages', cursor: root.nextCursor }), {
      code: 'INVALID_CURSOR',
      message: /`parentPath` "", not "pages"/,
    });
    const found = await source.searchFiles({ query: 'cursor revision search', limit: 1 });
    await expectKnowledgeError(
      source.searchFiles({ query: 'another question', cursor: found.nextCursor }),
      { code: 'INVALID_CURSOR', message: /`query`/ },
    );
  });

  it('without a cursor, required parameters stay required', async () => {
    await expectKnowledgeError(source.searchFiles({}), {
      code: 'INVALID_ARGUMENT',
      message: /needs `query`/,
    });
    await expectKnowledgeError(source.readRelated({ limit: 1 }), {
      code: 'INVALID_ARGUMENT',
      message: /needs `fileId`/,
    });
  });
});
