/**
 * The tools, the strict OpenAI shape and the MCP server over the real catalog source on the bundled
 * example knowledge.
 */
import { KNOWLEDGE_TOOLS } from '../../src/agent/internals.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { KNOWLEDGE_TOOL_ERROR_CODES } from '../../src/agent/errors/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { toAnthropicDocument, toOpenAIResponsesTools } from '../../src/agent/adapters/index.js';
import { callKnowledgeTool, knowledgeTools } from '../../src/agent/tools/index.js';
import type {
  KnowledgeToolName,
  ReadFileOutput,
  SearchFilesOutput,
} from '../../src/agent/index.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';
import { connectInMemory, errorJsonOf } from '../helpers/tools-mcp.js';

const source = createCatalogSource(exampleCatalog(), exampleSourceOptions());
const tools = knowledgeTools(source);
const ajv = strictAjv();

const INPUTS: Record<KnowledgeToolName, Record<string, unknown>> = {
  search_files: { query: 'When does a cursor go stale?' },
  read_file: { path: 'pages/agents/agent-tools.md' },
  list_tree: { parentPath: 'pages' },
  get_file: { fileId: 'agent-tools' },
  read_related: { fileId: 'agent-tools' },
  expand_graph: { fileId: 'agent-tools', depth: 2 },
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('tools over createCatalogSource (example knowledge)', () => {
  it('each tool succeeds and its output validates against its outputSchema', async () => {
    for (const tool of tools) {
      const result = await tool.execute(INPUTS[tool.name as KnowledgeToolName], {
        requestId: 'req-1',
      });
      expect(
        result.isError,
        `${tool.name}: ${JSON.stringify(result.structuredContent).slice(0, 300)}`,
      ).toBe(false);
      expect(schemaErrors(ajv, tool.outputSchema, result.structuredContent), tool.name).toBe('');
    }
  });

  it('accepts the strict OpenAI argument shape: every optional field sent as null', async () => {
    const strict = toOpenAIResponsesTools(tools);
    for (const [index, tool] of tools.entries()) {
      const properties = Object.keys(strict[index]!.parameters['properties'] as object);
      const args = Object.fromEntries(
        properties.map((key) => [key, INPUTS[tool.name as KnowledgeToolName][key] ?? null]),
      );
      const result = await callKnowledgeTool(tools, tool.name, JSON.stringify(args));
      expect(
        result.isError,
        `${tool.name} ${JSON.stringify(args)}: ${JSON.stringify(result.structuredContent).slice(0, 300)}`,
      ).toBe(false);
    }
  });

  it("passes the source's errors through: INVALID_ARGUMENT naming the field, NOT_FOUND, requestId kept", async () => {
    const unknownKey = await callKnowledgeTool(
      tools,
      'list_tree',
      { parentPath: '', depth: 2 },
      { requestId: 'req-7' },
    );
    expect(unknownKey.isError && unknownKey.structuredContent.error.code).toBe('INVALID_ARGUMENT');
    expect(unknownKey.isError && unknownKey.structuredContent.error.message).toMatch(/depth/);
    expect(unknownKey.structuredContent['requestId']).toBe('req-7');
    const missing = await callKnowledgeTool(tools, 'get_file', { fileId: 'agent-tool' });
    expect(missing.isError && missing.structuredContent.error.code).toBe('NOT_FOUND');
    const both = await callKnowledgeTool(tools, 'read_file', {
      fileId: 'agent-tools',
      path: 'pages/agents/agent-tools.md',
    });
    expect(both.isError && both.structuredContent.error.code).toBe('INVALID_ARGUMENT');
  });

  it('a page read becomes a citable Anthropic document naming its snapshot', async () => {
    const search = (await callKnowledgeTool(tools, 'search_files', INPUTS.search_files))
      .structuredContent as unknown as SearchFilesOutput;
    const read = (await callKnowledgeTool(tools, 'read_file', { fileId: search.items[0]!.fileId }))
      .structuredContent as unknown as ReadFileOutput;
    const document = toAnthropicDocument(read);
    expect(document.source.data).toBe(read.content);
    expect(document.context).toContain(read.file.snapshotId!);
    const index = (await callKnowledgeTool(tools, 'read_file', { path: 'index.md' }))
      .structuredContent as unknown as ReadFileOutput;
    expect(() => toAnthropicDocument(index)).toThrow(TypeError);
  });

  it('serves the same over MCP: every call validates against the listed outputSchema', async () => {
    const connection = await connectInMemory(
      createKnowledgeMcpServer(source, { name: 'example', version: '1.0.0' }),
    );
    close = connection.close;
    const { tools: listed } = await connection.client.listTools();
    for (const tool of listed) {
      const result = await connection.client.callTool({
        name: tool.name,
        arguments: INPUTS[tool.name as KnowledgeToolName],
      });
      expect(result.isError, tool.name).toBe(false);
      expect(
        schemaErrors(ajv, tool.outputSchema as never, result.structuredContent),
        tool.name,
      ).toBe('');
    }
    const bad = await connection.client.callTool({
      name: 'search_files',
      arguments: { query: 'x', limit: 500 },
    });
    expect(bad.structuredContent).toBeUndefined();
    expect(errorJsonOf(bad)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', httpStatus: 400 },
    });
  });

  it('execute never throws and every result is an output valid against the schema or a known error (property)', async () => {
    // Every argument name any tool takes, from the registry.
    const keys = [...new Set(KNOWLEDGE_TOOLS.flatMap((tool) => Object.keys(tool.rules)))];
    const value = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(
        'agent-tools',
        'pages/agents/agent-tools.md',
        'index.md',
        'pages',
        '',
        'self',
        'graph',
        1,
        3,
        50,
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: tools.length - 1 }),
        fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }),
        async (index, input) => {
          const tool = tools[index]!;
          const result = await tool.execute(input);
          if (result.isError) {
            expect(KNOWLEDGE_TOOL_ERROR_CODES).toContain(result.structuredContent.error.code);
            expect(result.structuredContent.error.code).not.toBe('INTERNAL');
          } else {
            expect(schemaErrors(ajv, tool.outputSchema, result.structuredContent)).toBe('');
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
