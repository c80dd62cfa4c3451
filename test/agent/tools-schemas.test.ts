import { describe, expect, it } from 'vitest';
import { toStrictSchema } from '../../src/agent/adapters/index.js';
import { KNOWLEDGE_TOOL_NAMES, KNOWLEDGE_TOOL_SCHEMAS } from '../../src/agent/tools/index.js';
import { strictAjv, walkSchemas } from '../helpers/tools-ajv.js';

/** Required input fields per tool, as `src/agent/types.ts` declares them (everything else optional). */
const REQUIRED_INPUT = {
  search_files: ['query'],
  read_file: [],
  list_tree: [],
  get_file: ['fileId'],
  read_related: ['fileId'],
  expand_graph: ['fileId'],
} as const;

/** Input fields per tool, as `src/agent/types.ts` declares them. */
const INPUT_FIELDS = {
  search_files: [
    'query',
    'mode',
    'graphDepth',
    'graphFanout',
    'rerank',
    'cursor',
    'limit',
    'pathPrefix',
    'tags',
    'locale',
    'version',
  ],
  read_file: [
    'fileId',
    'path',
    'sectionIds',
    'heading',
    'mode',
    'maxChars',
    'cursor',
    'whole',
    'version',
  ],
  list_tree: ['parentPath', 'cursor', 'limit', 'version'],
  get_file: ['fileId', 'version'],
  read_related: ['fileId', 'cursor', 'limit', 'version'],
  expand_graph: ['fileId', 'depth', 'fanout', 'cursor', 'version'],
} as const;

describe('tool JSON Schemas', () => {
  for (const name of KNOWLEDGE_TOOL_NAMES) {
    const { input, output } = KNOWLEDGE_TOOL_SCHEMAS[name];

    it(`${name}: both schemas compile under ajv 2020 strict mode`, () => {
      const ajv = strictAjv();
      expect(() => ajv.compile(input as object)).not.toThrow();
      expect(() => ajv.compile(output as object)).not.toThrow();
    });

    it(`${name}: every object is closed and every property described`, () => {
      for (const schema of [input, output]) {
        for (const { path, node } of walkSchemas(schema)) {
          if (node['type'] === 'object' && !path.endsWith('/frontmatter'))
            expect(node['additionalProperties'], path).toBe(false);
          if (node['properties'] !== undefined) {
            for (const [key, child] of Object.entries(node['properties'] as object)) {
              expect(
                typeof (child as { description?: unknown }).description,
                `${path}/properties/${key}`,
              ).toBe('string');
            }
          }
        }
      }
    });

    it(`${name}: input has the typed fields; required lists only required ones; optional integers and booleans are plain, every other optional field and the strict variant accept null`, () => {
      expect(input['type']).toBe('object');
      const properties = input['properties'] as Record<string, { type: unknown; enum?: unknown[] }>;
      expect(Object.keys(properties).sort()).toEqual([...INPUT_FIELDS[name]].sort());
      expect(input['required']).toEqual(REQUIRED_INPUT[name]);
      const ajv = strictAjv();
      const validate = ajv.compile(input as object);
      const strict = ajv.compile(toStrictSchema(input));
      for (const key of Object.keys(properties)) {
        const required = (REQUIRED_INPUT[name] as readonly string[]).includes(key);
        const plain = properties[key]!.type === 'integer' || properties[key]!.type === 'boolean';
        const withNull = {
          ...Object.fromEntries(REQUIRED_INPUT[name].map((field) => [field, 'x'])),
          [key]: null,
        };
        // Clients that coerce by schema type (the MCP Inspector) need one plain type for scalars.
        if (plain) expect(required, key).toBe(false);
        expect(validate(withNull), `${key} = null`).toBe(!required && !plain);
        const allNull = Object.fromEntries(
          Object.keys(properties).map((field) => [
            field,
            (REQUIRED_INPUT[name] as readonly string[]).includes(field) ? 'x' : null,
          ]),
        );
        expect(strict(allNull), `strict: ${key} = null`).toBe(true);
      }
      expect(
        validate({
          ...Object.fromEntries(REQUIRED_INPUT[name].map((field) => [field, 'x'])),
          unknownKey: 1,
        }),
      ).toBe(false);
    });

    it(`${name}: schemas are deeply frozen`, () => {
      for (const schema of [input, output])
        for (const { node } of walkSchemas(schema)) expect(Object.isFrozen(node)).toBe(true);
    });
  }

  it('encodes ranges and enums', () => {
    const ajv = strictAjv();
    const listTree = ajv.compile(KNOWLEDGE_TOOL_SCHEMAS.list_tree.input as object);
    expect([0, 1, 200, 201, 1.5].map((limit) => listTree({ limit }))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    const search = ajv.compile(KNOWLEDGE_TOOL_SCHEMAS.search_files.input as object);
    expect(
      search({
        query: 'q',
        mode: 'graph',
        graphDepth: 3,
        graphFanout: 50,
        rerank: true,
        limit: 50,
      }),
    ).toBe(true);
    expect(search({ query: 'q', mode: 'fuzzy' })).toBe(false);
    expect(search({ query: '' })).toBe(false);
    expect(search({ query: 'q', graphDepth: 4 })).toBe(false);
    const read = ajv.compile(KNOWLEDGE_TOOL_SCHEMAS.read_file.input as object);
    expect(read({ path: 'pages/a.md', sectionIds: ['a'], mode: 'self', maxChars: 10 })).toBe(true);
    expect(read({ path: 'pages/a.md', mode: 'all' })).toBe(false);
  });

  it('read_file says in its description that exactly one of fileId and path is required', () => {
    expect(KNOWLEDGE_TOOL_SCHEMAS.read_file.input['description']).toMatch(
      /exactly one of fileId and path/,
    );
  });

  it('output schemas accept the seed examples shapes (nullable fields, optional readActions keys)', () => {
    const ajv = strictAjv();
    const search = ajv.compile(KNOWLEDGE_TOOL_SCHEMAS.search_files.output as object);
    const seedOutput = {
      activeContentRevision: 42,
      version: 'current',
      publishedAt: '2026-01-01T00:00:00.000Z',
      items: [
        {
          fileId: 'f',
          sourceFileId: 'f',
          path: 'pages/example.md',
          title: 'Example',
          description: 'Short summary.',
          score: 12,
          matchedFields: ['content'],
          evidenceTypes: ['content'],
          sourceExcerpt: 'Bounded.',
          contentAvailable: true,
          readActions: { fileContentById: '/files/f/content' },
          sectionIds: [],
          // Added for docs sites: the heading that holds the match, or null.
          heading: null,
        },
      ],
      searchStatus: 'ok',
      searchMode: 'hybrid',
      semanticStatus: { state: 'ready', safeCode: null },
      rerankerStatus: { state: 'skipped', safeCode: 'RERANKER_DISABLED' },
      message: null,
      nextActions: [],
      nextCursor: null,
    };
    expect(search(seedOutput), ajv.errorsText(search.errors)).toBe(true);
    expect(search({ ...seedOutput, semanticStatus: { state: 'ready', safeCode: 'NOPE' } })).toBe(
      false,
    );
    expect(search({ ...seedOutput, extra: 1 })).toBe(false);
  });
});
