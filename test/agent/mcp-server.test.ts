import { afterEach, describe, expect, it } from 'vitest';
import { isKnowledgeError } from '../../src/index.js';
import { knowledgeTools } from '../../src/agent/tools/index.js';
import type { KnowledgeToolName } from '../../src/agent/index.js';
import {
  createKnowledgeMcpServer,
  KNOWLEDGE_MCP_INSTRUCTIONS,
  leanOutputSchema,
} from '../../src/mcp/index.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';
import { billingSource } from '../helpers/scenarioSources.js';
import { connectInMemory, errorJsonOf } from '../helpers/tools-mcp.js';

const INPUTS: Record<KnowledgeToolName, Record<string, unknown>> = {
  search_files: { query: 'renewal' },
  read_file: { path: 'pages/renewals.md' },
  list_tree: {},
  get_file: { fileId: 'renewals' },
  read_related: { fileId: 'renewals' },
  expand_graph: { fileId: 'billing', depth: 1 },
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function connect(options: { prefix?: string; text?: 'json' } = {}) {
  const fake = billingSource();
  const server = createKnowledgeMcpServer(fake.source, {
    name: 'kb',
    version: '1.0.0',
    ...options,
  });
  const connection = await connectInMemory(server);
  close = connection.close;
  const { text: _text, ...toolOptions } = options;
  return { ...connection, ...fake, tools: knowledgeTools(fake.source, toolOptions) };
}

describe('createKnowledgeMcpServer over the SDK client', () => {
  it('lists the tools with our input schemas as they are, lean output schemas, titles and annotations, and the instructions', async () => {
    const { client, tools } = await connect({ prefix: 'kb_' });
    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const [index, tool] of listed.entries()) {
      const ours = tools[index]!;
      expect(tool.title).toBe(ours.title);
      expect(tool.description).toBe(ours.description);
      expect(tool.inputSchema).toEqual(ours.inputSchema);
      expect(tool.outputSchema).toEqual(leanOutputSchema(ours.outputSchema));
      expect(tool.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    expect(client.getInstructions()).toBe(KNOWLEDGE_MCP_INSTRUCTIONS);
  });

  it("calls each tool (text: 'json'): structuredContent valid against the listed outputSchema, one JSON text block, isError false", async () => {
    const { client, calls } = await connect({ text: 'json' });
    const { tools: listed } = await client.listTools();
    const ajv = strictAjv();
    for (const tool of listed) {
      const result = await client.callTool({
        name: tool.name,
        arguments: INPUTS[tool.name as KnowledgeToolName],
      });
      expect(result.isError, tool.name).toBe(false);
      expect(
        schemaErrors(ajv, tool.outputSchema as never, result.structuredContent),
        tool.name,
      ).toBe('');
      expect(result.content).toEqual([
        { type: 'text', text: JSON.stringify(result.structuredContent) },
      ]);
    }
    expect(calls.map((call) => call.method)).toEqual([
      'searchFiles',
      'readFile',
      'listTree',
      'getFile',
      'readRelated',
      'expandGraph',
    ]);
    expect(calls.every((call) => call.context?.signal instanceof AbortSignal)).toBe(true);
  });

  it('returns a source error as our error shape in the text content, isError, no structuredContent', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'get_file', arguments: { fileId: 'missing' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(errorJsonOf(result)).toEqual({
      error: {
        code: 'NOT_FOUND',
        message:
          '`get_file`: no file has the ID `missing`. Use an ID returned by `search_files`, `list_tree` or `read_related`.',
        httpStatus: 404,
      },
      requestId: expect.stringMatching(/^req-/),
    });
    expect(result.content).toHaveLength(1);
  });

  it('answers bad input with INVALID_ARGUMENT in our shape, not the SDK validation text', async () => {
    const { client } = await connect();
    const cases: [string, Record<string, unknown> | undefined][] = [
      ['get_file', {}],
      ['get_file', { fileId: 3 }],
      ['list_tree', { limit: 'ten', extra: true }],
      ['search_files', undefined],
      ['read_file', { fileId: 'renewals', path: 'pages/renewals.md' }],
    ];
    for (const [name, args] of cases) {
      const result = await client.callTool({
        name,
        ...(args === undefined ? {} : { arguments: args }),
      });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(errorJsonOf(result)).toMatchObject({
        error: { code: 'INVALID_ARGUMENT', httpStatus: 400 },
      });
    }
  });

  it('refuses bad options', () => {
    const { source } = billingSource();
    expect(() => createKnowledgeMcpServer(source, { name: '', version: '1' })).toThrow(TypeError);
    expect(() => createKnowledgeMcpServer(source, undefined as never)).toThrow(TypeError);
    let caught: unknown;
    try {
      createKnowledgeMcpServer(source, { name: 'kb', version: '1', prefix: 'bad prefix' });
    } catch (error) {
      caught = error;
    }
    expect(isKnowledgeError(caught)).toBe(true);
  });
});
