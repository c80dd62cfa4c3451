import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKnowledgeError } from '../../src/index.js';
import { explorationTools, startExploration } from '../../src/agent/exploration/index.js';
import { KNOWLEDGE_TOOL_SCHEMAS } from '../../src/agent/tools/index.js';
import type { KnowledgeToolDefinition, KnowledgeToolResult } from '../../src/agent/index.js';
import {
  EXPLORATION_PAGES,
  explorationSource,
  scenarioSource,
} from '../helpers/scenarioSources.js';
import { schemaErrors, strictAjv, walkSchemas } from '../helpers/tools-ajv.js';

const QUESTION = 'How are refunds paid?';
const NAMES = [
  'search_files',
  'read_file',
  'list_tree',
  'get_file',
  'read_related',
  'expand_graph',
  'exploration_status',
];

function tools(options: { maxReads?: number; maxFollowUps?: number } = {}) {
  const { source, control } = explorationSource();
  const session = startExploration(source, { question: QUESTION, ...options });
  const list = explorationTools(session);
  const byName = Object.fromEntries(list.map((tool) => [tool.name, tool])) as Record<
    string,
    KnowledgeToolDefinition
  >;
  return {
    session,
    control,
    list,
    call: (name: string, input?: unknown) => byName[name]!.execute(input),
  };
}

const ok = (result: KnowledgeToolResult) => {
  if (result.isError)
    throw new Error(`expected success, got ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as Record<string, unknown>;
};

describe('explorationTools: definitions', () => {
  it('seven frozen definitions in order, with a prefix, read-only annotations and schemas that compile strictly', () => {
    const { session, list } = tools();
    expect(list.map((tool) => tool.name)).toEqual(NAMES);
    expect(explorationTools(session, { prefix: 'kb_' }).map((tool) => tool.name)).toEqual(
      NAMES.map((name) => `kb_${name}`),
    );
    expect(Object.isFrozen(list)).toBe(true);
    const ajv = strictAjv();
    for (const tool of list) {
      expect(Object.isFrozen(tool)).toBe(true);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.description.length).toBeGreaterThan(50);
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(() => ajv.compile(schema as object)).not.toThrow();
        for (const { path, node } of walkSchemas(schema)) {
          expect(Object.isFrozen(node), path).toBe(true);
          if (node['type'] === 'object' && !path.endsWith('/frontmatter'))
            expect(node['additionalProperties'], `${tool.name} ${path}`).toBe(false);
          for (const [key, child] of Object.entries((node['properties'] ?? {}) as object))
            expect(typeof child.description, `${tool.name} ${path}/${key}`).toBe('string');
        }
      }
    }
  });

  it('reuses the base schemas: read_file input as is, passthroughs as is, search input with an optional nullable query', () => {
    const { list } = tools();
    expect(list[1]!.inputSchema).toBe(KNOWLEDGE_TOOL_SCHEMAS.read_file.input);
    expect(list[2]!.inputSchema).toBe(KNOWLEDGE_TOOL_SCHEMAS.list_tree.input);
    expect(list[5]!.outputSchema).toBe(KNOWLEDGE_TOOL_SCHEMAS.expand_graph.output);
    const validate = strictAjv().compile(list[0]!.inputSchema as object);
    expect(
      [{}, { query: null }, { query: 'x', limit: 5, cursor: null }, { query: 1 }, { nope: 1 }].map(
        (input) => validate(input),
      ),
    ).toEqual([true, true, true, false, false]);
  });

  it('refuses bad options and non-sessions with KnowledgeError INVALID_INPUT', () => {
    const { session } = tools();
    for (const call of [
      () => explorationTools(session, { prefix: 'a b' }),
      () => explorationTools(session, { other: 1 } as never),
      () => explorationTools({} as never),
    ]) {
      let caught: unknown;
      try {
        call();
      } catch (error) {
        caught = error;
      }
      expect(isKnowledgeError(caught) && caught.code).toBe('INVALID_INPUT');
    }
  });
});

describe('explorationTools: the flow through tools', () => {
  it('a full exploration: results carry the status, reads say repeated, status lists the evidence', async () => {
    const { call, list } = tools({ maxFollowUps: 1 });
    const ajv = strictAjv();
    const valid = (index: number, result: KnowledgeToolResult) =>
      expect(schemaErrors(ajv, list[index]!.outputSchema, ok(result))).toBe('');

    const refused = await call('search_files', { query: 'refunds' });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'EXPLORATION_LIMIT', httpStatus: 409 } },
    });
    expect(
      (await call('read_file', { fileId: 'refunds', path: null })).structuredContent,
    ).toMatchObject({ error: { code: 'EXPLORATION_LIMIT' } });

    const first = await call('search_files', { query: null });
    valid(0, first);
    expect(ok(first)['exploration']).toEqual({
      searchesUsed: 1,
      followUpsLeft: 1,
      readsUsed: 0,
      readsLeft: 12,
      stopReason: null,
    });

    const read = await call('read_file', {
      fileId: 'refunds',
      path: null,
      sectionIds: null,
      mode: null,
      maxChars: null,
    });
    valid(1, read);
    expect(ok(read)).toMatchObject({
      repeated: false,
      exploration: { readsUsed: 1, readsLeft: 11 },
    });
    const again = await call('read_file', { fileId: null, path: 'pages/refunds.md' });
    valid(1, again);
    expect(ok(again)).toMatchObject({ repeated: true, exploration: { readsUsed: 1 } });
    valid(1, await call('read_file', { path: 'index.md' }));

    for (const [index, name, input] of [
      [2, 'list_tree', {}],
      [3, 'get_file', { fileId: 'refunds' }],
      [4, 'read_related', { fileId: 'refunds' }],
      [5, 'expand_graph', { fileId: 'refunds' }],
    ] as const) {
      valid(index, await call(name, input));
    }

    valid(0, await call('search_files', { query: 'refund window', limit: 2 }));
    const limit = await call('search_files', { query: 'card' });
    expect(limit.structuredContent).toMatchObject({
      error: {
        code: 'EXPLORATION_LIMIT',
        message: expect.stringMatching(/Answer from the sources read/),
      },
    });

    const status = await call('exploration_status');
    valid(6, status);
    const refunds = await scenarioSource(EXPLORATION_PAGES).readFile({ fileId: 'refunds' });
    expect(ok(status)).toEqual({
      question: QUESTION,
      status: {
        searchesUsed: 2,
        followUpsLeft: 0,
        readsUsed: 2,
        readsLeft: 10,
        stopReason: 'budget_exhausted',
      },
      evidence: [
        {
          fileId: 'refunds',
          path: 'pages/refunds.md',
          title: 'Refunds',
          revision: 'r1',
          snapshotId: refunds.file.snapshotId,
          selection: { mode: 'document' },
          chars: [...refunds.content].length,
        },
      ],
    });
    expect((await call('exploration_status', { x: 1 })).structuredContent).toMatchObject({
      error: { code: 'INVALID_ARGUMENT' },
    });
  });

  it('passes the caller request ID into refusals', async () => {
    const { list } = tools();
    const result = await list[1]!.execute({ fileId: 'refunds' }, { requestId: 'req-mine' });
    expect(result.structuredContent).toMatchObject({
      error: { code: 'EXPLORATION_LIMIT' },
      requestId: 'req-mine',
    });
  });
});

describe('explorationTools: execute never throws', () => {
  const keys = [
    'query',
    'fileId',
    'path',
    'sectionIds',
    'mode',
    'maxChars',
    'cursor',
    'limit',
    'parentPath',
    'depth',
    'fanout',
  ];
  const value = fc.oneof(
    fc.constant(null),
    fc.constant(undefined),
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom(QUESTION, 'refunds', 'pages/refunds.md', 'index.md', 'self'),
    fc.array(fc.constantFrom('window', 'card', 1)),
    fc.anything(),
  );
  const input = fc.oneof(
    fc.anything(),
    fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }),
  );

  it('for any sequence of calls with any inputs; every success validates against its output schema', async () => {
    const ajv = strictAjv();
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: NAMES.length - 1 }), input, fc.anything()), {
          maxLength: 12,
        }),
        async (calls) => {
          const { list } = tools({ maxReads: 3, maxFollowUps: 1 });
          for (const [index, args, options] of calls) {
            const tool = list[index]!;
            const result = await tool.execute(args, options as never);
            expect(typeof result.isError).toBe('boolean');
            expect(() => JSON.stringify(result)).not.toThrow();
            if (result.isError) {
              expect(Object.keys(result.structuredContent).sort()).toEqual(['error', 'requestId']);
            } else {
              if (!validators.has(tool.name))
                validators.set(tool.name, ajv.compile(tool.outputSchema as object));
              const validate = validators.get(tool.name)!;
              expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(
                true,
              );
            }
          }
        },
      ),
      { seed: 20261130, numRuns: 100 },
    );
  });
});
