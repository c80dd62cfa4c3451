/** The agent's public types: the tool names and methods follow the registry, results are typed JSON. */
import { describe, expectTypeOf, it } from 'vitest';
import {
  callKnowledgeTool,
  createCatalogSource,
  KNOWLEDGE_TOOL_NAMES,
  KNOWLEDGE_TOOL_SCHEMAS,
  knowledgeTools,
  KnowledgeToolError,
  type JsonObject,
  type KnowledgeSource,
  type KnowledgeToolDefinition,
  type KnowledgeToolErrorBody,
  type KnowledgeToolErrorCode,
  type KnowledgeToolName,
  type KnowledgeToolResult,
  type KnowledgeToolSchemas,
  type ListTreeInput,
  type ReadFileOutput,
  type SearchFilesInput,
  type SearchFilesOutput,
} from '../../src/agent/index.js';
import {
  toOpenAIResponsesTools,
  type OpenAIResponsesFunctionTool,
} from '../../src/agent/adapters/index.js';
import {
  startExploration,
  type ExplorationSession,
  type ExplorationReadOutput,
} from '../../src/agent/exploration/index.js';
import type { KNOWLEDGE_TOOLS, KnowledgeSourceMethod } from '../../src/agent/tools/registry.js';

describe('agent public types', () => {
  it('KnowledgeToolName is the six names of the registry', () => {
    expectTypeOf<KnowledgeToolName>().toEqualTypeOf<
      'search_files' | 'read_file' | 'list_tree' | 'get_file' | 'read_related' | 'expand_graph'
    >();
    expectTypeOf<KnowledgeToolName>().toEqualTypeOf<(typeof KNOWLEDGE_TOOLS)[number]['name']>();
    expectTypeOf(KNOWLEDGE_TOOL_NAMES).toEqualTypeOf<readonly KnowledgeToolName[]>();
    expectTypeOf(KNOWLEDGE_TOOL_SCHEMAS).toEqualTypeOf<
      Readonly<Record<KnowledgeToolName, KnowledgeToolSchemas>>
    >();
  });

  it('KnowledgeSource has exactly one method per registry tool, plus the optional warm', () => {
    expectTypeOf<Exclude<keyof KnowledgeSource, 'warm'>>().toEqualTypeOf<KnowledgeSourceMethod>();
    expectTypeOf<KnowledgeSource['searchFiles']>().parameter(0).toEqualTypeOf<SearchFilesInput>();
    expectTypeOf<
      KnowledgeSource['searchFiles']
    >().returns.resolves.toEqualTypeOf<SearchFilesOutput>();
    expectTypeOf<KnowledgeSource['listTree']>()
      .parameter(0)
      .toEqualTypeOf<ListTreeInput | undefined>();
    expectTypeOf<KnowledgeSource['readFile']>().returns.resolves.toEqualTypeOf<ReadFileOutput>();
    expectTypeOf(createCatalogSource).returns.toEqualTypeOf<KnowledgeSource>();
  });

  it('wire types are readonly', () => {
    expectTypeOf<SearchFilesInput>().toEqualTypeOf<{
      readonly query?: string | null | undefined;
      readonly mode?: 'hybrid' | 'file' | 'graph' | null | undefined;
      readonly graphDepth?: number | null | undefined;
      readonly graphFanout?: number | null | undefined;
      readonly rerank?: boolean | null | undefined;
      readonly cursor?: string | null | undefined;
      readonly limit?: number | null | undefined;
      readonly pathPrefix?: string | readonly string[] | null | undefined;
      readonly tags?: string | readonly string[] | null | undefined;
      readonly locale?: string | null | undefined;
      readonly version?: string | null | undefined;
    }>();
    expectTypeOf<ReadFileOutput['file']['snapshotId']>().toEqualTypeOf<string | null>();
  });

  it('a tool result is JSON, and its error is the one error-body type', () => {
    expectTypeOf(knowledgeTools).returns.toEqualTypeOf<readonly KnowledgeToolDefinition[]>();
    expectTypeOf(callKnowledgeTool).returns.resolves.toEqualTypeOf<KnowledgeToolResult>();
    expectTypeOf<
      Extract<KnowledgeToolResult, { isError: true }>['structuredContent']
    >().toEqualTypeOf<KnowledgeToolErrorBody>();
    expectTypeOf<KnowledgeToolErrorBody>().toExtend<JsonObject>();
    expectTypeOf<KnowledgeToolErrorBody['error']['code']>().toEqualTypeOf<KnowledgeToolErrorCode>();
    expectTypeOf<KnowledgeToolError['toJSON']>().returns.toEqualTypeOf<KnowledgeToolErrorBody>();
  });

  it('the subpaths are typed: adapters and exploration', () => {
    expectTypeOf(toOpenAIResponsesTools).returns.toEqualTypeOf<OpenAIResponsesFunctionTool[]>();
    expectTypeOf(startExploration).returns.toEqualTypeOf<ExplorationSession>();
    expectTypeOf<
      ExplorationSession['read']
    >().returns.resolves.toEqualTypeOf<ExplorationReadOutput>();
    expectTypeOf<ExplorationSession['listTree']>().toEqualTypeOf<KnowledgeSource['listTree']>();
    // The discovery methods: every source method but the two the session's search and read stand for.
    expectTypeOf<Extract<keyof ExplorationSession, KnowledgeSourceMethod>>().toEqualTypeOf<
      Exclude<KnowledgeSourceMethod, 'searchFiles' | 'readFile'>
    >();
  });
});
