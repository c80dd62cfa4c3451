import { describe, expect, it } from 'vitest';
import { isKnowledgeError } from '../../src/index.js';
import { KnowledgeToolError } from '../../src/agent/errors/index.js';
import {
  callKnowledgeTool,
  KNOWLEDGE_TOOL_SCHEMAS,
  knowledgeTools,
} from '../../src/agent/tools/index.js';
import type { KnowledgeSource, KnowledgeToolName } from '../../src/agent/index.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';
import { createBrokenSource } from '../helpers/fakeSource.js';
import { billingSource } from '../helpers/scenarioSources.js';

const ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

describe('knowledgeTools', () => {
  it('defines the six tools in the seed order, frozen, with schemas, titles, annotations and the policy', () => {
    const tools = knowledgeTools(billingSource().source);
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_files',
      'read_file',
      'list_tree',
      'get_file',
      'read_related',
      'expand_graph',
    ]);
    expect(Object.isFrozen(tools)).toBe(true);
    for (const tool of tools) {
      expect(Object.isFrozen(tool)).toBe(true);
      expect(Object.isFrozen(tool.annotations)).toBe(true);
      expect(tool.annotations).toEqual(ANNOTATIONS);
      expect(tool.title.length).toBeGreaterThan(0);
      expect(tool.inputSchema).toBe(KNOWLEDGE_TOOL_SCHEMAS[tool.name as KnowledgeToolName].input);
      expect(tool.outputSchema).toBe(KNOWLEDGE_TOOL_SCHEMAS[tool.name as KnowledgeToolName].output);
    }
    const search = tools[0]!.description;
    expect(search).toMatch(/complete standalone question/);
    expect(search).toMatch(/candidates, not evidence/);
    expect(search).toMatch(/pages\/\*\*/);
    expect(search).toMatch(/fileId and path/);
    expect(search).toMatch(/index\.md or call list_tree/);
    expect(search).toMatch(/nextCursor alone or with the same/);
    expect(search).toMatch(/STALE_CURSOR restart without the cursor/);
    expect(tools[1]!.description).toMatch(/by fileId or path/);
    expect(tools[1]!.description).toMatch(/STALE_CURSOR start again without it/);
    expect(tools[1]!.description).toMatch(/\{ cursor: nextCursor \} alone for the next part/);
    expect(tools[1]!.description).toMatch(/by sectionIds/);
  });

  it('prepends the prefix and keeps only the included tools, in the seed order', () => {
    const tools = knowledgeTools(billingSource().source, {
      prefix: 'kb_',
      include: ['read_file', 'search_files'],
    });
    expect(tools.map((tool) => tool.name)).toEqual(['kb_search_files', 'kb_read_file']);
    expect(knowledgeTools(billingSource().source, { include: [] })).toEqual([]);
  });

  it('refuses bad options with KnowledgeError INVALID_INPUT naming the option', () => {
    const { source } = billingSource();
    const cases: [unknown, unknown, readonly (string | number)[]][] = [
      [source, { prefix: 'kb ' }, ['options', 'prefix']],
      [source, { prefix: 'x'.repeat(53) }, ['options', 'prefix']],
      [source, { prefix: 3 }, ['options', 'prefix']],
      [source, { include: 'search_files' }, ['options', 'include']],
      [source, { include: ['search'] }, ['options', 'include', 0]],
      [source, { include: ['read_file', 'read_file'] }, ['options', 'include', 1]],
      [source, { perfix: 'kb_' }, ['options', 'perfix']],
      [source, 'kb_', ['options']],
      [null, undefined, ['source']],
      [
        { searchFiles: async () => ({}) },
        { include: ['search_files', 'read_file'] },
        ['source', 'readFile'],
      ],
    ];
    for (const [badSource, options, path] of cases) {
      let caught: unknown;
      try {
        knowledgeTools(badSource as KnowledgeSource, options as never);
      } catch (error) {
        caught = error;
      }
      expect(isKnowledgeError(caught), JSON.stringify(options)).toBe(true);
      if (isKnowledgeError(caught))
        expect(caught.issues[0]).toMatchObject({ code: 'INVALID_INPUT', path });
    }
    // Only the included tools need their method.
    expect(
      knowledgeTools({ searchFiles: async () => ({}) } as unknown as KnowledgeSource, {
        include: ['search_files'],
      }),
    ).toHaveLength(1);
  });
});

describe('execute', () => {
  it('calls the camelCased source method with the input, signal and requestId, and wraps the output', async () => {
    const { source, calls } = billingSource();
    const tools = knowledgeTools(source);
    const signal = new AbortController().signal;
    const ajv = strictAjv();
    const inputs: Record<KnowledgeToolName, object> = {
      search_files: { query: 'renewal' },
      read_file: { path: 'pages/renewals.md', fileId: null },
      list_tree: {},
      get_file: { fileId: 'renewals' },
      read_related: { fileId: 'renewals', cursor: null, limit: null },
      expand_graph: { fileId: 'billing' },
    };
    for (const tool of tools) {
      const input = inputs[tool.name as KnowledgeToolName];
      const result = await tool.execute(input, { signal, requestId: 'req-1' });
      expect(result.isError, tool.name).toBe(false);
      expect(schemaErrors(ajv, tool.outputSchema, result.structuredContent), tool.name).toBe('');
      const call = calls.at(-1)!;
      expect(call.input).toBe(input);
      expect(call.context).toEqual({ signal, requestId: 'req-1' });
    }
    expect(calls.map((call) => call.method)).toEqual([
      'searchFiles',
      'readFile',
      'listTree',
      'getFile',
      'readRelated',
      'expandGraph',
    ]);
  });

  it('passes absent arguments as {} and an absent context as {}', async () => {
    const { source, calls } = billingSource();
    const listTree = knowledgeTools(source, { include: ['list_tree'] })[0]!;
    expect((await listTree.execute(undefined)).isError).toBe(false);
    expect(calls[0]).toEqual({ method: 'listTree', input: {}, context: {} });
  });

  it("returns the source's KnowledgeToolError as the seed's error shape, requestId kept", async () => {
    const getFile = knowledgeTools(billingSource().source, { include: ['get_file'] })[0]!;
    const result = await getFile.execute({ fileId: 'missing' }, { requestId: 'req-42' });
    expect(result).toEqual({
      isError: true,
      structuredContent: {
        error: {
          code: 'NOT_FOUND',
          message:
            '`get_file`: no file has the ID `missing`. Use an ID returned by `search_files`, `list_tree` or `read_related`.',
          httpStatus: 404,
        },
        requestId: 'req-42',
      },
    });
    const invalid = await getFile.execute({ fileId: 'renewals', extra: 1 });
    expect(invalid.isError && invalid.structuredContent.error.code).toBe('INVALID_ARGUMENT');
  });

  it('keeps retryAfterSeconds of RATE_LIMITED', async () => {
    const source = {
      ...billingSource().source,
      listTree: async () => {
        throw new KnowledgeToolError('RATE_LIMITED', 'Slow down.', {
          retryAfterSeconds: 3,
          requestId: 'r',
        });
      },
    };
    const result = await knowledgeTools(source, { include: ['list_tree'] })[0]!.execute({});
    expect(result.structuredContent).toEqual({
      error: { code: 'RATE_LIMITED', message: 'Slow down.', httpStatus: 429, retryAfterSeconds: 3 },
      requestId: 'r',
    });
  });

  it('turns anything else thrown into INTERNAL whose message leaks no stack, path or foreign text', async () => {
    for (const tool of knowledgeTools(createBrokenSource())) {
      const result = await tool.execute({ fileId: 'x', query: 'q' }, { requestId: 'req-9' });
      expect(result.isError).toBe(true);
      if (!result.isError) continue;
      expect(result.structuredContent.error.code).toBe('INTERNAL');
      expect(result.structuredContent.error.httpStatus).toBe(500);
      expect(result.structuredContent.requestId).toBe('req-9');
      expect(JSON.stringify(result.structuredContent)).not.toMatch(/srv|ENOENT|anonymous|\.js/);
    }
    const result = await knowledgeTools(createBrokenSource(), {
      include: ['list_tree'],
    })[0]!.execute({});
    expect(result.isError && result.structuredContent.requestId).toMatch(/^req-[0-9a-f-]{36}$/);
  });

  it('turns a source resolving to a non-object into INTERNAL', async () => {
    const source = { ...billingSource().source, listTree: async () => 'oops' as never };
    const result = await knowledgeTools(source, { include: ['list_tree'] })[0]!.execute({});
    expect(result.isError && result.structuredContent.error.code).toBe('INTERNAL');
  });

  it('refuses arguments that are not a JSON object with INVALID_ARGUMENT, without calling the source', async () => {
    const { source, calls } = billingSource();
    const search = knowledgeTools(source, { include: ['search_files'] })[0]!;
    for (const input of [
      null,
      'renewal',
      '{"query":"renewal"}',
      3,
      [],
      [{ query: 'x' }],
      new Date(),
      () => 1,
    ]) {
      const result = await search.execute(input, { requestId: 'req-2' });
      expect(result.isError).toBe(true);
      if (result.isError) {
        expect(result.structuredContent.error.code).toBe('INVALID_ARGUMENT');
        expect(result.structuredContent.error.message).toMatch(
          /^`search_files` takes a JSON object of arguments, got /,
        );
        expect(result.structuredContent.requestId).toBe('req-2');
      }
    }
    expect(calls).toEqual([]);
  });
});

describe('callKnowledgeTool', () => {
  it('dispatches by full name with object or JSON-text arguments', async () => {
    const tools = knowledgeTools(billingSource().source, { prefix: 'kb_' });
    const byObject = await callKnowledgeTool(tools, 'kb_get_file', { fileId: 'renewals' });
    const byText = await callKnowledgeTool(tools, 'kb_get_file', '{"fileId":"renewals"}');
    expect(byObject.isError).toBe(false);
    expect(byText).toEqual(byObject);
    expect((await callKnowledgeTool(tools, 'kb_list_tree', '')).isError).toBe(false);
    expect((await callKnowledgeTool(tools, 'kb_list_tree', '  ')).isError).toBe(false);
  });

  it('refuses an unknown name with INVALID_ARGUMENT listing the known tools', async () => {
    const tools = knowledgeTools(billingSource().source, {
      prefix: 'kb_',
      include: ['search_files', 'read_file'],
    });
    const result = await callKnowledgeTool(tools, 'search_files', {}, { requestId: 'req-3' });
    expect(result).toEqual({
      isError: true,
      structuredContent: {
        error: {
          code: 'INVALID_ARGUMENT',
          message:
            'There is no tool `search_files`. Call one of: `kb_search_files`, `kb_read_file`.',
          httpStatus: 400,
        },
        requestId: 'req-3',
      },
    });
  });

  it('refuses malformed JSON and non-object JSON with INVALID_ARGUMENT', async () => {
    const tools = knowledgeTools(billingSource().source);
    const malformed = await callKnowledgeTool(tools, 'get_file', '{"fileId":');
    expect(malformed.isError && malformed.structuredContent.error.message).toBe(
      'The arguments of `get_file` are not valid JSON. Send a JSON object such as {"query": "…"}.',
    );
    const array = await callKnowledgeTool(tools, 'get_file', '[1]');
    expect(array.isError && array.structuredContent.error.code).toBe('INVALID_ARGUMENT');
  });

  it('never throws, even for a non-array tools argument', async () => {
    const result = await callKnowledgeTool(null as never, 'x', {});
    expect(result.isError && result.structuredContent.error.code).toBe('INTERNAL');
  });
});
