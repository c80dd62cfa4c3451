/**
 * Versions on a plain source: every tool takes `version`, every output names the version that
 * answered (`version`, `publishedAt` beside each `activeContentRevision`), the root `list_tree` lists
 * the one version, and a call naming another label is `VERSION_NOT_FOUND` (over HTTP a 404, over MCP
 * an error result), never an answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildKnowledgeBundle, createStoredSource } from '../../src/agent/internals.js';
import type { StoreReader } from '../../src/agent/source/storeReader.js';
import { versionLabelProblem } from '../../src/agent/versions/label.js';
import {
  createCatalogSource,
  createStaticSource,
  isKnowledgeToolError,
  type KnowledgeSource,
} from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { BASE_PATH } from '../helpers/exampleHandler.js';
import { expectError, get } from '../helpers/handler-http.js';
import { catchKnowledgeError, expectKnowledgeError } from '../helpers/knowledgeError.js';

/** The one issue of the `KnowledgeError` that `fn` throws. */
function issueOf(fn: () => unknown): unknown {
  const { issues } = catchKnowledgeError(fn);
  expect(issues).toHaveLength(1);
  return issues[0];
}
import { connectInMemory, errorJsonOf } from '../helpers/tools-mcp.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PAGE = 'exploration';
const QUERY = 'How does an agent explore?';

/** One call of each tool, with valid arguments, on the example knowledge. */
const CALLS: readonly (readonly [keyof KnowledgeSource, Record<string, unknown>])[] = [
  ['searchFiles', { query: QUERY }],
  ['readFile', { fileId: PAGE }],
  ['listTree', {}],
  ['getFile', { fileId: PAGE }],
  ['readRelated', { fileId: PAGE }],
  ['expandGraph', { fileId: PAGE }],
];

/** Call `method` of `source` with `input`. */
const call = (source: KnowledgeSource, method: keyof KnowledgeSource, input: unknown) =>
  (source[method] as unknown as (input: unknown) => Promise<Record<string, unknown>>)(input);

/** The record of an output that carries `activeContentRevision` (`file` of `read_file`). */
const versioned = (method: keyof KnowledgeSource, output: Record<string, unknown>) =>
  (method === 'readFile' ? output['file'] : output) as Record<string, unknown>;

describe('a plain source names its version', () => {
  const before = Date.now();
  const source = createCatalogSource(exampleCatalog(), exampleSourceOptions());
  const after = Date.now();

  it('gives `version: "current"` and the creation time as `publishedAt` right after each activeContentRevision', async () => {
    for (const [method, input] of CALLS) {
      const output = await call(source, method, input);
      if (method === 'readRelated') {
        // read_related carries no revision, so no version either.
        expect(output).not.toHaveProperty('version');
        continue;
      }
      const record = versioned(method, output);
      const keys = Object.keys(record);
      const at = keys.indexOf('activeContentRevision');
      expect(keys.slice(at, at + 3), method).toEqual([
        'activeContentRevision',
        'version',
        'publishedAt',
      ]);
      expect(record['version']).toBe('current');
      expect(record['publishedAt']).toMatch(ISO_TIME);
      const time = Date.parse(record['publishedAt'] as string);
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(after);
    }
  });

  it('lists its one version, the default, on the root listing only', async () => {
    const root = await source.listTree();
    expect(root.versions).toEqual([
      {
        version: 'current',
        default: true,
        activeContentRevision: 42,
        publishedAt: root.publishedAt,
      },
    ]);
    expect(Object.keys(root)).toEqual([
      'activeContentRevision',
      'version',
      'publishedAt',
      'versions',
      'items',
      'nextCursor',
    ]);
    expect(await source.listTree({ parentPath: 'pages' })).not.toHaveProperty('versions');
    expect(await source.listTree({ parentPath: '' })).not.toHaveProperty('versions');
    const first = await source.listTree({ limit: 1 });
    expect(first.versions).toHaveLength(1);
    const next = await source.listTree({ cursor: first.nextCursor });
    expect(next).not.toHaveProperty('versions');
  });

  it('answers a call naming its own label, or `null`, as one naming none', async () => {
    for (const [method, input] of CALLS) {
      const plain = await call(source, method, input);
      expect(await call(source, method, { ...input, version: 'current' }), method).toEqual(plain);
      expect(await call(source, method, { ...input, version: null }), method).toEqual(plain);
    }
  });

  it('refuses another label with VERSION_NOT_FOUND, listing its one version, on every tool', async () => {
    for (const [method, input] of CALLS) {
      const error = await expectKnowledgeError(call(source, method, { ...input, version: '2.x' }), {
        code: 'VERSION_NOT_FOUND',
        httpStatus: 404,
        message:
          /has no version `2\.x`\. Its versions: `current` \(default\)\. Pass one of them as `version`, or leave `version` out/,
      });
      expect(error.details, method).toEqual({ version: '2.x', versions: ['current'] });
    }
  });

  it('refuses a malformed label with INVALID_ARGUMENT naming `version`', async () => {
    for (const bad of ['', '3 x', 'x'.repeat(65), 3, ['3.x']]) {
      await expectKnowledgeError(source.searchFiles({ query: QUERY, version: bad as string }), {
        code: 'INVALID_ARGUMENT',
        message: /`search_files`: `version` must be a version label \(.+\), not .+ Pass a label/,
      });
    }
  });
});

describe('createCatalogSource options `version` and `publishedAt`', () => {
  it('names the label and the time given (a Date or an ISO string) in every output', async () => {
    for (const publishedAt of [new Date('2026-10-01T12:00:00Z'), '2026-10-01T12:00:00Z']) {
      const source = createCatalogSource(
        exampleCatalog(),
        exampleSourceOptions({ version: '3.x', publishedAt }),
      );
      const read = await source.readFile({ fileId: PAGE, version: '3.x' });
      expect(read.file.version).toBe('3.x');
      expect(read.file.publishedAt).toBe('2026-10-01T12:00:00.000Z');
      await expectKnowledgeError(source.getFile({ fileId: PAGE, version: 'current' }), {
        code: 'VERSION_NOT_FOUND',
        message: /no version `current`\. Its versions: `3\.x` \(default\)/,
      });
    }
  });

  it('throws INVALID_INPUT at creation for a bad label or time, naming the option and the fix', () => {
    expect(issueOf(() => createCatalogSource(exampleCatalog(), { version: '3 x' }))).toEqual({
      code: 'INVALID_INPUT',
      path: ['options', 'version'],
      message: expect.stringMatching(
        /^createCatalogSource: `options\.version` must be a version label \(character 2 .+\), such as "3\.x".+leave it out for "current"\.$/,
      ),
    });
    expect(
      issueOf(() => createCatalogSource(exampleCatalog(), { publishedAt: 'yesterday' })),
    ).toEqual({
      code: 'INVALID_INPUT',
      path: ['options', 'publishedAt'],
      message: expect.stringMatching(
        /`options\.publishedAt` must be a valid Date or an ISO 8601 date string/,
      ),
    });
    expect(
      issueOf(() => createCatalogSource(exampleCatalog(), { publishedAt: new Date(Number.NaN) })),
    ).toMatchObject({ code: 'INVALID_INPUT', path: ['options', 'publishedAt'] });
  });
});

describe('stored sources', () => {
  const reader: StoreReader<string> = {
    open: () => Promise.reject(new Error('never opened')),
  };

  it('createStoredSource throws INVALID_INPUT for a `version` that is no label', () => {
    expect(issueOf(() => createStoredSource(reader, { notFound: 'none', version: '' }))).toEqual({
      code: 'INVALID_INPUT',
      path: ['options', 'version'],
      message: expect.stringMatching(
        /^createStoredSource: `options\.version` must be a version label/,
      ),
    });
  });

  it("a static bundle records the exported source's publishedAt, and its source answers with it", async () => {
    const exported = createCatalogSource(
      exampleCatalog(),
      exampleSourceOptions({ publishedAt: '2026-09-30T08:00:00.000Z' }),
    );
    const bundle = await buildKnowledgeBundle(exported, { id: 'example' });
    expect(bundle.manifest.publishedAt).toBe('2026-09-30T08:00:00.000Z');
    expect(Object.keys(bundle.manifest).slice(4, 6)).toEqual([
      'activeContentRevision',
      'publishedAt',
    ]);
    const read = (path: string) => Promise.resolve(bundle.files.get(path) ?? null);
    const source = createStaticSource({ read });
    for (const [method, input] of CALLS) {
      if (method === 'readRelated') continue;
      const record = versioned(method, await call(source, method, input));
      expect(record['version'], method).toBe('current');
      expect(record['publishedAt'], method).toBe('2026-09-30T08:00:00.000Z');
    }
    expect((await source.listTree()).versions).toEqual([
      {
        version: 'current',
        default: true,
        activeContentRevision: 42,
        publishedAt: '2026-09-30T08:00:00.000Z',
      },
    ]);
    // Its own label, and the refusal of another, through `createStoredSource`.
    const labelled = createStaticSource({ read, version: 'v2' });
    expect((await labelled.getFile({ fileId: PAGE, version: 'v2' })).version).toBe('v2');
    const error = await expectKnowledgeError(
      labelled.searchFiles({ query: QUERY, version: 'current' }),
      { code: 'VERSION_NOT_FOUND' },
    );
    expect(error.details).toEqual({ version: 'current', versions: ['v2'] });
  });

  it("keeps an earlier export's publishedAt for the same revision, and reads an older bundle without one", async () => {
    const exported = createCatalogSource(exampleCatalog(), exampleSourceOptions());
    const kept = await buildKnowledgeBundle(
      exported,
      { id: 'example' },
      { activeContentRevision: 42, publishedAt: '2020-01-01T00:00:00.000Z' },
    );
    expect(kept.manifest.publishedAt).toBe('2020-01-01T00:00:00.000Z');
    const fresh = await buildKnowledgeBundle(
      exported,
      { id: 'example' },
      { activeContentRevision: 41, publishedAt: '2020-01-01T00:00:00.000Z' },
    );
    expect(fresh.manifest.publishedAt).toBe((await exported.listTree()).publishedAt);
    // A bundle of an earlier release: no publishedAt in its manifest.
    const { publishedAt: _, ...older } = fresh.manifest;
    const files = new Map(fresh.files);
    files.set('manifest.json', `${JSON.stringify(older, null, 2)}\n`);
    const before = Date.now();
    const source = createStaticSource({
      read: (path) => Promise.resolve(files.get(path) ?? null),
    });
    const tree = await source.listTree();
    expect(Date.parse(tree.publishedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(tree.publishedAt).toMatch(ISO_TIME);
  });
});

describe('over the transports', () => {
  const source = createCatalogSource(exampleCatalog(), exampleSourceOptions({ version: '3.x' }));

  it('HTTP: `version` is a query parameter; another label is a 404 VERSION_NOT_FOUND', async () => {
    const handler = createKnowledgeHandler({
      basePath: BASE_PATH,
      access: () => ({ knowledgeBases: { example: { source } } }),
    });
    const kb = `${BASE_PATH}/knowledge-bases/example`;
    const ok = await get(handler, `${kb}/files/${PAGE}?version=3.x`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { version: string }).version).toBe('3.x');
    await expectError(await get(handler, `${kb}/tree?version=2.x`), {
      code: 'VERSION_NOT_FOUND',
      status: 404,
      message: /`list_tree`: this knowledge base has no version `2\.x`\. Its versions: `3\.x`/,
    });
    await expectError(await get(handler, `${kb}/search?query=x&version=bad%20label`), {
      code: 'INVALID_ARGUMENT',
      message: /`version` must be a version label/,
    });
  });

  it('MCP: the tools take `version`; another label is an error result with VERSION_NOT_FOUND', async () => {
    const { client, close } = await connectInMemory(
      createKnowledgeMcpServer(source, { name: 'kb', version: '1.0.0' }),
    );
    try {
      const { tools } = await client.listTools();
      for (const tool of tools)
        expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toContain('version');
      const read = await client.callTool({
        name: 'read_file',
        arguments: { fileId: PAGE, version: '3.x' },
      });
      expect(read.isError).toBeFalsy();
      const text = (read.content as { text: string }[])[0]!.text;
      expect(text.split('\n\n')[0]).toContain('version: 3.x');
      const refused = await client.callTool({
        name: 'search_files',
        arguments: { query: QUERY, version: '4.x' },
      });
      expect(refused.isError).toBe(true);
      expect(errorJsonOf(refused)).toMatchObject({
        error: {
          code: 'VERSION_NOT_FOUND',
          message: expect.stringMatching(/no version `4\.x`\. Its versions: `3\.x` \(default\)/),
        },
      });
    } finally {
      await close();
    }
  });
});

/** A valid version label: 1 to 64 characters of `A–Z a–z 0–9 . _ -`. */
const LABEL = fc
  .array(fc.constantFrom(...'ABCXYZabcxyz0189._-'.split('')), { minLength: 1, maxLength: 64 })
  .map((chars) => chars.join(''));

describe('property: a source created with version L', () => {
  const catalog = exampleCatalog();

  it('answers every tool with `version === L`, and refuses any other label listing [L]', async () => {
    await fc.assert(
      fc.asyncProperty(LABEL, LABEL, async (label, other) => {
        // Labels the rule refuses (`.` and `..`) are not labels.
        fc.pre(label !== other);
        fc.pre(versionLabelProblem(label) === undefined);
        fc.pre(versionLabelProblem(other) === undefined);
        const source = createCatalogSource(catalog, exampleSourceOptions({ version: label }));
        for (const [method, input] of CALLS) {
          for (const given of [undefined, label]) {
            const output = await call(
              source,
              method,
              given === undefined ? input : { ...input, version: given },
            );
            if (method !== 'readRelated') expect(versioned(method, output)['version']).toBe(label);
          }
          try {
            await call(source, method, { ...input, version: other });
            expect.unreachable(`${method} answered version ${other}`);
          } catch (error) {
            if (!isKnowledgeToolError(error)) throw error;
            expect(error.code).toBe('VERSION_NOT_FOUND');
            expect(error.details).toEqual({ version: other, versions: [label] });
          }
        }
      }),
      { seed: 20261207, numRuns: 20 },
    );
  });
});
