/**
 * Versions in the store: labelled versions of one knowledge base side by side, each with its own
 * active revision; the default one; removing one; a source of a version the knowledge base lacks
 * (`VERSION_NOT_FOUND`); a store of the previous schema migrated to one version `current`. On PGlite,
 * and on a real server with `KK_POSTGRES_URL` (the same code and SQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import {
  createPostgresSource,
  listKnowledgeBases,
  listKnowledgeVersions,
  migrateKnowledgeStore,
  publishKnowledge,
  setDefaultKnowledgeVersion,
  unpublishKnowledgeVersion,
} from '../../src/postgres/index.js';
import { readRevision } from '../../src/postgres/readRevision.js';
import { isKnowledgeToolError } from '../../src/agent/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  countingDatabase,
  HOOK_TIMEOUT,
  openTestDatabase,
  type TestDatabase,
} from '../helpers/postgres-database.js';

let test: TestDatabase;
let schema: string;
beforeAll(async () => {
  test = await openTestDatabase('versions');
  schema = test.schema;
  await migrateKnowledgeStore(test.db, { schema });
}, HOOK_TIMEOUT);
afterAll(async () => test?.close(), HOOK_TIMEOUT);

/** A one-page catalog (`page`, under `page.md`) whose text is `text`. */
const tiny = (text: string) =>
  defineKnowledgeCatalog([parseKnowledgeDocument({ id: 'page', revision: text, text })]);

/** What a source reads from its one page. */
const pageText = async (source: ReturnType<typeof createPostgresSource>) =>
  (await source.readFile({ fileId: 'page' })).content;

/** Publish each `[label, text]` as a version of `kb`, in order (the first is the default). */
async function publishVersions(kb: string, versions: readonly (readonly [string, string])[]) {
  for (const [version, text] of versions)
    await publishKnowledge(test.db, { knowledgeBase: kb, catalog: tiny(text), version, schema });
}

/** `promise` rejects with `INVALID_INPUT` at `path`, its message matching `message`. */
async function expectIssue(
  promise: Promise<unknown>,
  path: readonly string[],
  message: RegExp,
): Promise<void> {
  const error = await expectKnowledgeError(promise, { code: 'INVALID_INPUT', path: [...path] });
  expect(error.message).toMatch(message);
}

/** The rejection of `promise`, which must be a `KnowledgeToolError`. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isKnowledgeToolError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('publishKnowledge with versions', () => {
  it('two versions published side by side answer from their own pages; the first is the default', async () => {
    const kb = 'side';
    const three = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Three\n\nThe 3.x refund window is 30 days.'),
      version: '3.x',
      schema,
    });
    expect(three).toMatchObject({
      version: '3.x',
      defaultVersion: '3.x',
      created: true,
      previousContentRevision: null,
    });
    const two = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Two\n\nThe 2.x refund window is 14 days.'),
      version: '2.x',
      schema,
    });
    expect(two).toMatchObject({ version: '2.x', defaultVersion: '3.x', created: true });

    const v3 = createPostgresSource(test.db, { knowledgeBase: kb, version: '3.x', schema });
    const v2 = createPostgresSource(test.db, { knowledgeBase: kb, version: '2.x', schema });
    const byDefault = createPostgresSource(test.db, { knowledgeBase: kb, schema });
    expect(await pageText(v3)).toContain('30 days');
    expect(await pageText(v2)).toContain('14 days');
    expect(await pageText(byDefault)).toContain('30 days');
    // Every kind of read: a search, a listing, a page, a walk.
    const found = await v2.searchFiles({ query: 'refund window' });
    expect(found.activeContentRevision).toBe(two.activeContentRevision);
    expect(found.items.map((item) => item.path)).toEqual(['pages/page.md']);
    expect((await v2.listTree({})).activeContentRevision).toBe(two.activeContentRevision);
    expect((await v3.getFile({ fileId: 'page' })).activeContentRevision).toBe(
      three.activeContentRevision,
    );
    expect((await v2.expandGraph({ fileId: 'page' })).activeContentRevision).toBe(
      two.activeContentRevision,
    );

    expect(await listKnowledgeVersions(test.db, { knowledgeBase: kb, schema })).toEqual([
      {
        version: '2.x',
        default: false,
        activeContentRevision: two.activeContentRevision,
        publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
      {
        version: '3.x',
        default: true,
        activeContentRevision: three.activeContentRevision,
        publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    ]);
    // The knowledge base's own row names the default version's revision.
    const [listed] = (await listKnowledgeBases(test.db, { schema })).filter((b) => b.id === kb);
    expect(listed?.activeContentRevision).toBe(three.activeContentRevision);
  });

  it("publishing into one version leaves the other's active revision; again it says what changed", async () => {
    const kb = 'apart';
    const a1 = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# A one'),
      version: 'a',
      keep: 5,
      schema,
    });
    const b1 = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# B one'),
      version: 'b',
      keep: 5,
      schema,
    });
    const a2 = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# A two'),
      version: 'a',
      keep: 5,
      schema,
    });
    expect(a2.previousContentRevision).toBe(a1.activeContentRevision);
    const b = createPostgresSource(test.db, { knowledgeBase: kb, version: 'b', schema });
    expect(await pageText(b)).toBe('# B one');
    // The same content again: nothing changed.
    const same = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# A two'),
      version: 'a',
      keep: 5,
      schema,
    });
    expect(same).toMatchObject({
      created: false,
      activeContentRevision: a2.activeContentRevision,
      previousContentRevision: a2.activeContentRevision,
    });
    // Older content (still kept) into a version: that revision is active again, and the result says so.
    const back = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# A one'),
      version: 'a',
      keep: 5,
      schema,
    });
    expect(back).toMatchObject({
      created: false,
      activeContentRevision: a1.activeContentRevision,
      previousContentRevision: a2.activeContentRevision,
    });
    // B's content into A: the two versions share one revision.
    const shared = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# B one'),
      version: 'a',
      keep: 5,
      schema,
    });
    expect(shared.activeContentRevision).toBe(b1.activeContentRevision);
    expect(await pageText(b)).toBe('# B one');
  });

  it('without `version`, publishes into the default version (`current` for a new knowledge base)', async () => {
    const kb = 'plain';
    const first = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Plain'),
      schema,
    });
    expect(first).toMatchObject({ version: 'current', defaultVersion: 'current' });
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Next'),
      version: 'next',
      defaultVersion: 'next',
      schema,
    });
    const again = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Next, edited'),
      schema,
    });
    expect(again).toMatchObject({ version: 'next', defaultVersion: 'next' });
    const versions = await listKnowledgeVersions(test.db, { knowledgeBase: kb, schema });
    expect(versions.map((v) => [v.version, v.default])).toEqual([
      ['current', false],
      ['next', true],
    ]);
  });

  it('keeps every version active revision when pruning beyond `keep`', async () => {
    const kb = 'pruned';
    const old = await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Old'),
      version: 'old',
      schema,
    });
    for (const text of ['# New 1', '# New 2', '# New 3'])
      await publishKnowledge(test.db, {
        knowledgeBase: kb,
        catalog: tiny(text),
        version: 'new',
        keep: 1,
        schema,
      });
    const source = createPostgresSource(test.db, { knowledgeBase: kb, version: 'old', schema });
    expect(await pageText(source)).toBe('# Old');
    expect((await source.listTree({})).activeContentRevision).toBe(old.activeContentRevision);
  });

  it('refuses a bad `version` or `defaultVersion` at its path, and a default it cannot make', async () => {
    await expectKnowledgeError(
      publishKnowledge(test.db, {
        knowledgeBase: 'bad',
        catalog: tiny('# x'),
        version: '3 x',
        schema,
      }),
      { code: 'INVALID_INPUT', path: ['options', 'version'] },
    );
    await expectIssue(
      publishKnowledge(test.db, {
        knowledgeBase: 'bad',
        catalog: tiny('# x'),
        version: '1.x',
        defaultVersion: '9.x',
        schema,
      }),
      ['options', 'defaultVersion'],
      /no version "9\.x"/,
    );
    // Nothing was published.
    expect(await listKnowledgeVersions(test.db, { knowledgeBase: 'bad', schema })).toEqual([]);
  });
});

describe('the default version', () => {
  it('setDefaultKnowledgeVersion changes what a source without `version` reads on its next call', async () => {
    const kb = 'defaults';
    await publishVersions(kb, [
      ['a', '# A'],
      ['b', '# B'],
    ]);
    const source = createPostgresSource(test.db, { knowledgeBase: kb, schema });
    expect(await pageText(source)).toBe('# A');
    const after = await setDefaultKnowledgeVersion(test.db, {
      knowledgeBase: kb,
      version: 'b',
      schema,
    });
    expect(after.map((v) => [v.version, v.default])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(await pageText(source)).toBe('# B');
    await expectIssue(
      setDefaultKnowledgeVersion(test.db, { knowledgeBase: kb, version: 'c', schema }),
      ['options', 'version'],
      /Its versions: `a`, `b` \(default\)/,
    );
    await expectKnowledgeError(
      setDefaultKnowledgeVersion(test.db, { knowledgeBase: 'nowhere', version: 'a', schema }),
      { code: 'INVALID_INPUT', path: ['options', 'knowledgeBase'] },
    );
  });
});

describe('createPostgresSource without `version`', () => {
  it("names the default version's label in every output, in the call's one statement, and follows a change of default", async () => {
    const kb = 'labelled';
    await publishVersions(kb, [
      ['2.x', '# Two\n\nThe 2.x refund window is 14 days.'],
      ['3.x', '# Three\n\nThe 3.x refund window is 30 days.'],
    ]);
    await setDefaultKnowledgeVersion(test.db, { knowledgeBase: kb, version: '3.x', schema });
    const counted = countingDatabase(test.db);
    const source = createPostgresSource(counted.db, { knowledgeBase: kb, schema });
    const root = await source.listTree({});
    const file = await source.getFile({ fileId: 'page' });
    const read = await source.readFile({ fileId: 'page' });
    await source.readRelated({ fileId: 'page' }); // its output names no revision, so no version
    const graph = await source.expandGraph({ fileId: 'page' });
    const found = await source.searchFiles({ query: 'refund window' });
    expect([root, file, read.file, graph, found].map((output) => output.version)).toEqual(
      Array(5).fill('3.x'),
    );
    expect(root.versions?.map((v) => [v.version, v.default])).toEqual([['3.x', true]]);
    // Reading the label costs no statement of its own: one per call but for a search's index reads.
    expect(counted.seen.slice(0, 5)).toHaveLength(5);
    expect(counted.seen.slice(0, 5).every((text) => text.includes('version_label'))).toBe(true);
    await setDefaultKnowledgeVersion(test.db, { knowledgeBase: kb, version: '2.x', schema });
    const after = await source.readFile({ fileId: 'page' });
    expect([after.file.version, after.content]).toEqual([
      '2.x',
      '# Two\n\nThe 2.x refund window is 14 days.',
    ]);
  });

  it('answers a call naming a version from that version, and refuses a missing one listing them all', async () => {
    const kb = 'routed';
    await publishVersions(kb, [
      ['1.x', '# One'],
      ['2.x', '# Two'],
    ]);
    const source = createPostgresSource(test.db, { knowledgeBase: kb, schema });
    const named = await source.readFile({ fileId: 'page', version: '2.x' });
    expect([named.file.version, named.content]).toEqual(['2.x', '# Two']);
    const plain = await source.readFile({ fileId: 'page' });
    expect([plain.file.version, plain.content]).toEqual(['1.x', '# One']);
    const missing = await refusal(source.getFile({ fileId: 'page', version: '9.x' }));
    expect(missing.code).toBe('VERSION_NOT_FOUND');
    expect(missing.message).toMatch(/get_file/);
    expect(missing.message).toMatch(/`1\.x` \(default\), `2\.x`/);
    // A `version` that is not a label is the tool's INVALID_ARGUMENT, not a source of its own.
    const bad = await refusal(source.getFile({ fileId: 'page', version: '../x' }));
    expect(bad.code).toBe('INVALID_ARGUMENT');
  });
});

describe('unpublishKnowledgeVersion', () => {
  it('removes one version: its readers get VERSION_NOT_FOUND, the others are untouched', async () => {
    const kb = 'gone';
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# One'),
      version: '1.x',
      schema,
    });
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# Two'),
      version: '2.x',
      schema,
    });
    const one = createPostgresSource(test.db, { knowledgeBase: kb, version: '1.x', schema });
    const two = createPostgresSource(test.db, { knowledgeBase: kb, version: '2.x', schema });
    expect(await pageText(one)).toBe('# One');
    const done = await unpublishKnowledgeVersion(test.db, {
      knowledgeBase: kb,
      version: '2.x',
      schema,
    });
    expect(done).toMatchObject({ knowledgeBase: kb, version: '2.x', defaultVersion: '1.x' });
    expect((await refusal(pageText(two))).code).toBe('VERSION_NOT_FOUND');
    expect(await pageText(one)).toBe('# One');
  });

  it('never removes the last version', async () => {
    const kb = 'last';
    await publishKnowledge(test.db, { knowledgeBase: kb, catalog: tiny('# Only'), schema });
    await expectIssue(
      unpublishKnowledgeVersion(test.db, { knowledgeBase: kb, version: 'current', schema }),
      ['options', 'version'],
      /only version .*Publish another version first/,
    );
    expect(await pageText(createPostgresSource(test.db, { knowledgeBase: kb, schema }))).toBe(
      '# Only',
    );
  });

  it('removes the default only when another default is named', async () => {
    const kb = 'default-gone';
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# A'),
      version: 'a',
      schema,
    });
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# B'),
      version: 'b',
      schema,
    });
    await expectIssue(
      unpublishKnowledgeVersion(test.db, { knowledgeBase: kb, version: 'a', schema }),
      ['options', 'defaultVersion'],
      /default version .*`defaultVersion` \(one of `b`\)/,
    );
    await expectKnowledgeError(
      unpublishKnowledgeVersion(test.db, {
        knowledgeBase: kb,
        version: 'a',
        defaultVersion: 'a',
        schema,
      }),
      { code: 'INVALID_INPUT', path: ['options', 'defaultVersion'] },
    );
    await expectIssue(
      unpublishKnowledgeVersion(test.db, { knowledgeBase: kb, version: 'z', schema }),
      ['options', 'version'],
      /has no version "z"/,
    );
    const done = await unpublishKnowledgeVersion(test.db, {
      knowledgeBase: kb,
      version: 'a',
      defaultVersion: 'b',
      schema,
    });
    expect(done.defaultVersion).toBe('b');
    expect(await pageText(createPostgresSource(test.db, { knowledgeBase: kb, schema }))).toBe(
      '# B',
    );
    const [listed] = (await listKnowledgeBases(test.db, { schema })).filter((b) => b.id === kb);
    expect(listed?.activeContentRevision).toBe(
      (await listKnowledgeVersions(test.db, { knowledgeBase: kb, schema }))[0]!
        .activeContentRevision,
    );
  });
});

describe('createPostgresSource with `version`', () => {
  it('answers every call VERSION_NOT_FOUND, naming the call and listing the versions', async () => {
    const kb = 'missing';
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# 3'),
      version: '3.x',
      schema,
    });
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# 2'),
      version: '2.x',
      schema,
    });
    const source = createPostgresSource(test.db, { knowledgeBase: kb, version: '4.x', schema });
    // Each call made when it is awaited: a rejection left waiting would be unhandled.
    const calls: readonly [string, () => Promise<unknown>][] = [
      ['list_tree', () => source.listTree({})],
      ['list_tree', () => source.listTree({ parentPath: '' })],
      ['get_file', () => source.getFile({ fileId: 'page' })],
      ['read_file', () => source.readFile({ fileId: 'page' })],
      ['read_file', () => source.readFile({ path: 'index.md' })],
      ['search_files', () => source.searchFiles({ query: 'page' })],
      ['expand_graph', () => source.expandGraph({ fileId: 'page' })],
    ];
    for (const [tool, call] of calls) {
      const error = await refusal(call());
      expect(error.code).toBe('VERSION_NOT_FOUND');
      expect(error.httpStatus).toBe(404);
      expect(error.message).toBe(
        `\`${tool}\`: this knowledge base has no version \`4.x\`. Its versions: \`2.x\`, \`3.x\` (default). Pass one of them as \`version\`, or leave \`version\` out for the default.`,
      );
      expect(error.details).toEqual({ version: '4.x', versions: ['2.x', '3.x'] });
    }
  });

  it('is NOT_FOUND (not VERSION_NOT_FOUND) when the knowledge base itself is not in the store', async () => {
    const source = createPostgresSource(test.db, {
      knowledgeBase: 'never-published',
      version: '1.x',
      schema,
    });
    expect((await refusal(source.listTree({}))).code).toBe('NOT_FOUND');
  });

  it('refuses a bad `version` label at creation, naming the option', () => {
    expect(() =>
      createPostgresSource(test.db, { knowledgeBase: 'x', version: 'a/b', schema }),
    ).toThrow(/`options.version` must be a version label/);
  });

  it("reads return the revision's publishedAt (the store's published_at)", async () => {
    const kb = 'stamped';
    await publishKnowledge(test.db, {
      knowledgeBase: kb,
      catalog: tiny('# S'),
      version: 's',
      schema,
    });
    const { rows } = await test.db.query(
      `SELECT r.published_at FROM "${schema}".revisions r JOIN "${schema}".knowledge_versions v
          ON v.knowledge_base = r.knowledge_base AND v.active_serial = r.serial
        WHERE v.knowledge_base = $1 AND v.label = 's'`,
      [kb],
    );
    const expected = new Date(rows[0]!['published_at'] as string | Date).toISOString();
    const read = await readRevision(
      test.db,
      `"${schema}"`,
      kb,
      {
        fileId: null,
        path: null,
        document: false,
        relationsOf: null,
        allRelations: false,
        everything: false,
      },
      's',
    );
    expect(read?.publishedAt).toBe(expected);
    expect(
      (await listKnowledgeVersions(test.db, { knowledgeBase: kb, schema }))[0]?.publishedAt,
    ).toBe(expected);
  });
});

describe('a store of the previous schema (version 3)', () => {
  it('migrates: each knowledge base gets one version `current`, the default, with its active revision', async () => {
    const old = `${schema}_v3`;
    try {
      await migrateKnowledgeStore(test.db, { schema: old });
      const first = await publishKnowledge(test.db, {
        knowledgeBase: 'kb1',
        catalog: tiny('# One'),
        schema: old,
      });
      const second = await publishKnowledge(test.db, {
        knowledgeBase: 'kb2',
        catalog: tiny('# Two'),
        schema: old,
      });
      // What version 3 held: the same knowledge bases and revisions, no versions.
      await test.db.query(`DROP TABLE "${old}".knowledge_versions`);
      await test.db.query(`DELETE FROM "${old}".schema_version WHERE version >= 4`);
      expect(await migrateKnowledgeStore(test.db, { schema: old })).toEqual({ from: 3, to: 4 });
      expect(await migrateKnowledgeStore(test.db, { schema: old })).toEqual({ from: 4, to: 4 });
      for (const [kb, published] of [
        ['kb1', first],
        ['kb2', second],
      ] as const) {
        const versions = await listKnowledgeVersions(test.db, { knowledgeBase: kb, schema: old });
        expect(versions.map((v) => [v.version, v.default, v.activeContentRevision])).toEqual([
          ['current', true, published.activeContentRevision],
        ]);
        const source = createPostgresSource(test.db, {
          knowledgeBase: kb,
          version: 'current',
          schema: old,
        });
        expect((await source.listTree({})).activeContentRevision).toBe(
          published.activeContentRevision,
        );
      }
      // Publishing after the migration goes into `current`.
      const next = await publishKnowledge(test.db, {
        knowledgeBase: 'kb1',
        catalog: tiny('# One, edited'),
        schema: old,
      });
      expect(next).toMatchObject({
        version: 'current',
        previousContentRevision: first.activeContentRevision,
      });
    } finally {
      await test.db.query(`DROP SCHEMA IF EXISTS "${old}" CASCADE`);
    }
  });
});

describe('publishes into random versions (property)', () => {
  it("each version's active revision is the last content published into it; the first version stays the default", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.nat({ max: 3 })), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const kb = `prop-${++run}`;
          const last = new Map<string, string>();
          for (const [version, n] of steps) {
            const text = `# Text ${n}`;
            await publishKnowledge(test.db, {
              knowledgeBase: kb,
              catalog: tiny(text),
              version,
              keep: 1,
              schema,
            });
            last.set(version, text);
          }
          const versions = await listKnowledgeVersions(test.db, { knowledgeBase: kb, schema });
          expect(versions.map((v) => v.version)).toEqual([...last.keys()].sort());
          expect(versions.filter((v) => v.default).map((v) => v.version)).toEqual([steps[0]![0]]);
          for (const [version, text] of last) {
            const source = createPostgresSource(test.db, { knowledgeBase: kb, version, schema });
            expect(await pageText(source)).toBe(text);
          }
        },
      ),
      { seed: 20261207, numRuns: 12 },
    );
  }, 120_000);
});
