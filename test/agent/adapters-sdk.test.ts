import type {
  DocumentBlockParam,
  SearchResultBlockParam,
  Tool as AnthropicTool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { tool as langChainTool, type StructuredToolInterface } from '@langchain/core/tools';
import { generateText, jsonSchema, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import {
  toAISDKTools,
  toAnthropicDocument,
  toAnthropicSearchResult,
  toAnthropicToolResult,
  toAnthropicTools,
  toLangChainTools,
  toOpenAIChatTools,
  toOpenAIResponsesTools,
} from '../../src/agent/adapters/index.js';
import { callKnowledgeTool, knowledgeTools } from '../../src/agent/tools/index.js';
import type { ReadFileOutput } from '../../src/agent/index.js';
import { strictAjv, walkSchemas } from '../helpers/tools-ajv.js';
import { billingSource } from '../helpers/scenarioSources.js';

const tools = knowledgeTools(billingSource().source, { prefix: 'kb_' });

describe('OpenAI adapters', () => {
  it('Responses: strict function tools the SDK type accepts, every property required, optional ones nullable', () => {
    const shaped: FunctionTool[] = toOpenAIResponsesTools(tools);
    expect(shaped.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const [index, tool] of shaped.entries()) {
      expect(tool).toMatchObject({
        type: 'function',
        description: tools[index]!.description,
        strict: true,
      });
      for (const { path, node } of walkSchemas(tool.parameters as never)) {
        if (node['properties'] !== undefined) {
          expect(node['required'], path).toEqual(Object.keys(node['properties'] as object));
          expect(node['additionalProperties'], path).toBe(false);
        }
        expect(node['minLength'], path).toBeUndefined();
      }
      // The openai package's own strict normalizer accepts the schema and changes nothing.
      expect(toStrictJsonSchema(tool.parameters as never)).toEqual(tool.parameters);
      // The schema still compiles, and accepts null for every optional field.
      const base = tools[index]!.inputSchema;
      const requiredInBase = base['required'] as string[];
      const validate = strictAjv().compile(tool.parameters as object);
      const allNull = Object.fromEntries(
        Object.keys(base['properties'] as object).map((key) => [
          key,
          requiredInBase.includes(key) ? 'x' : null,
        ]),
      );
      expect(validate(allNull), tool.name).toBe(true);
    }
  });

  it('Responses: strict: false keeps the base schema, as a fresh copy', () => {
    const [search] = toOpenAIResponsesTools(tools, { strict: false });
    expect(search!.strict).toBe(false);
    expect(search!.parameters).toEqual(tools[0]!.inputSchema);
    expect(search!.parameters).not.toBe(tools[0]!.inputSchema);
    expect(Object.isFrozen(search!.parameters)).toBe(false);
  });

  it('Chat Completions: the same, wrapped in function', () => {
    const shaped: ChatCompletionTool[] = toOpenAIChatTools(tools);
    const responses = toOpenAIResponsesTools(tools);
    expect(shaped).toEqual(
      responses.map(({ name, description, parameters, strict }) => ({
        type: 'function',
        function: { name, description, parameters, strict },
      })),
    );
  });

  it('a Responses tool-call loop runs through callKnowledgeTool with the JSON-text arguments', async () => {
    const call = {
      type: 'function_call',
      name: 'kb_search_files',
      arguments:
        '{"query":"renewal","mode":null,"graphDepth":null,"graphFanout":null,"rerank":null,"cursor":null,"limit":null}',
    };
    const result = await callKnowledgeTool(tools, call.name, call.arguments);
    expect(result.isError).toBe(false);
  });
});

describe('Anthropic adapters', () => {
  it('tools and tool results fit the SDK types', async () => {
    const shaped: AnthropicTool[] = toAnthropicTools(tools);
    expect(shaped[0]).toEqual({
      name: 'kb_search_files',
      description: tools[0]!.description,
      input_schema: tools[0]!.inputSchema,
    });
    const ok = await tools[3]!.execute({ fileId: 'renewals' });
    const failed = await tools[3]!.execute({ fileId: 'nope' }, { requestId: 'req-5' });
    const blocks: ToolResultBlockParam[] = [
      toAnthropicToolResult('toolu_1', ok),
      toAnthropicToolResult('toolu_2', failed),
    ];
    expect(blocks[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: JSON.stringify(ok.structuredContent),
      is_error: false,
    });
    expect(blocks[1]).toMatchObject({ tool_use_id: 'toolu_2', is_error: true });
    expect(JSON.parse(blocks[1]!.content as string)).toEqual({
      error: { code: 'NOT_FOUND', message: expect.any(String), httpStatus: 404 },
      requestId: 'req-5',
    });
  });

  it('citations: a page read as document and search_result blocks, from a read_file output or a snapshot', async () => {
    const read = (await tools[1]!.execute({ path: 'pages/renewals.md' }))
      .structuredContent as unknown as ReadFileOutput;
    const document: DocumentBlockParam = toAnthropicDocument(read);
    expect(document).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: read.content },
      title: 'Renewals',
      context: `Knowledge Kit snapshot ${read.file.snapshotId} of pages/renewals.md (revision r1).`,
      citations: { enabled: true },
    });
    const searchResult: SearchResultBlockParam = toAnthropicSearchResult(read);
    expect(searchResult).toEqual({
      type: 'search_result',
      source: '/files/renewals/content',
      title: 'Renewals',
      content: [{ type: 'text', text: read.content }],
      citations: { enabled: true },
    });
    const snapshot = {
      id: 'snap-1',
      documentId: 'renewals',
      selection: { mode: 'document' as const },
      revision: 'r1',
      content: 'Text.',
    };
    expect(
      toAnthropicDocument(snapshot, { title: 'Renewals', path: 'pages/renewals.md' }).context,
    ).toBe('Knowledge Kit snapshot snap-1 of pages/renewals.md (revision r1).');
    expect(
      toAnthropicSearchResult(snapshot, { title: 'Renewals', path: 'pages/renewals.md' }).source,
    ).toBe('pages/renewals.md');
  });

  it('citations refuse navigation files, which are never evidence', () => {
    const nav = {
      file: { path: 'index.md', snapshotId: null },
      content: '# Index',
    } as unknown as ReadFileOutput;
    expect(() => toAnthropicDocument(nav)).toThrow(/`index.md` is a navigation file, not evidence/);
    expect(() => toAnthropicSearchResult(nav)).toThrow(TypeError);
  });
});

describe('LangChain adapter', () => {
  it("builds real LangChain tools with @langchain/core's tool and invokes them", async () => {
    // The last overload of `tool` gives a union; name the structured tool type to call `invoke`.
    const lcTools = toLangChainTools<StructuredToolInterface>(tools, langChainTool);
    expect(lcTools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    expect(lcTools[0]!.description).toBe(tools[0]!.description);
    const text = await lcTools[3]!.invoke({ fileId: 'renewals' });
    expect(JSON.parse(text as string)).toMatchObject({ fileId: 'renewals', title: 'Renewals' });
    const error = await lcTools[3]!.invoke({ fileId: 'missing' });
    expect(JSON.parse(error as string)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

describe('AI SDK adapter', () => {
  it('runs a real generateText with the mock model through one tool call', async () => {
    const { source, calls } = billingSource();
    const aiTools = toAISDKTools(knowledgeTools(source), { jsonSchema });
    const toolSet: ToolSet = aiTools;
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step++;
        const usage = {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        };
        if (step === 1) {
          return {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: 'search_files',
                input: JSON.stringify({ query: 'renewal' }),
              },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        return {
          content: [{ type: 'text', text: 'Renewal notices are sent 30 days ahead.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools: toolSet,
      prompt: 'When are renewal notices sent?',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Renewal notices are sent 30 days ahead.');
    const toolResults = result.steps.flatMap((s) => s.toolResults);
    expect(toolResults).toHaveLength(1);
    expect(toolResults[0]!.output).toMatchObject({
      searchStatus: 'ok',
      items: [{ fileId: 'renewals' }],
    });
    expect(calls.map((call) => call.method)).toEqual(['searchFiles']);
    expect(model.doGenerateCalls[0]!.tools?.map((tool) => tool.name)).toEqual(Object.keys(aiTools));
  });

  it('execute resolves to the error shape for a failed call', async () => {
    const aiTools = toAISDKTools(tools, { jsonSchema });
    const output = await aiTools['kb_get_file']!.execute({ fileId: 'missing' }, {});
    expect(output).toMatchObject({ error: { code: 'NOT_FOUND', httpStatus: 404 } });
  });
});
