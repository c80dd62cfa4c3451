/**
 * `explorationTools`: the session's rules as tool definitions, for agents that drive the flow.
 */
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import { KNOWLEDGE_TOOL_ANNOTATIONS, knowledgeTools } from '../tools/knowledgeTools.js';
import { readFileTool } from '../tools/readFile/definition.js';
import type { KnowledgeToolName } from '../tools/registry.js';
import { isPlainObject, toolExecute } from '../tools/toolResult.js';
import type { JsonObject, JsonSchema, KnowledgeCallContext } from '../types.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { KnowledgeToolDefinition } from '../tools/knowledgeToolDefinition.js';
import {
  EXPLORATION_READ_OUTPUT_SCHEMA,
  EXPLORATION_SEARCH_INPUT_SCHEMA,
  EXPLORATION_SEARCH_OUTPUT_SCHEMA,
  EXPLORATION_STATUS_INPUT_SCHEMA,
  EXPLORATION_STATUS_OUTPUT_SCHEMA,
} from './explorationSchemas.js';
import { EXPLORATION_TOOL_TEXTS, type ExplorationToolText } from './explorationTexts.js';
import { DISCOVERY_TOOLS } from './startExploration.js';
import type { ExplorationReadTarget, ExplorationSession } from './types.js';
import { codePointLength } from './values.js';

/** Options of `explorationTools`. */
export interface ExplorationToolsOptions {
  /** Prepended as is to every tool name, as in `knowledgeTools` (`kb_` gives `kb_search_files`). */
  readonly prefix?: string | undefined;
}

type Run = (args: Record<string, unknown>, context: KnowledgeCallContext) => Promise<JsonObject>;

function define(
  name: string,
  text: ExplorationToolText,
  inputSchema: JsonSchema,
  outputSchema: JsonSchema,
  run: Run,
): KnowledgeToolDefinition {
  const execute = toolExecute(name, run);
  return Object.freeze({
    name,
    title: text.title,
    description: text.description,
    inputSchema,
    outputSchema,
    annotations: KNOWLEDGE_TOOL_ANNOTATIONS,
    execute,
  });
}

function fail(path: readonly string[], message: string): never {
  throw new KnowledgeError([{ code: 'INVALID_INPUT', message, path }]);
}

/**
 * The tools of one exploration session: `search_files` (query optional: `null` is the question) and
 * `read_file`, whose results carry `exploration` (the status after the call) and, for reads,
 * `repeated`; `list_tree`, `get_file`, `read_related` and `expand_graph` (the base tools over the
 * session: free, after the first search); and `exploration_status` (status and the pages read, without
 * their content). `execute` never throws; a refused call is an `EXPLORATION_LIMIT` error result.
 *
 * @param session - from `startExploration`.
 * @param options - `prefix` prepended to every name.
 * @returns seven frozen definitions, in that order.
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad prefix, an unknown option, or something other than a session.
 * @example
 * ```ts
 * const tools = explorationTools(startExploration(source, { question }));
 * const first = await tools[0].execute({ query: null });
 * ```
 */
export function explorationTools(
  session: ExplorationSession,
  options?: ExplorationToolsOptions,
): readonly KnowledgeToolDefinition[] {
  if (options !== undefined && !isPlainObject(options))
    fail(
      ['options'],
      'explorationTools options must be an object such as { prefix: "kb_" }, or omitted.',
    );
  for (const key of Object.keys(options ?? {})) {
    if (key !== 'prefix')
      fail(
        ['options', key],
        `explorationTools does not take the option \`${key}\`: use \`prefix\`.`,
      );
  }
  const s = session as unknown as Record<string, unknown> | null;
  if (
    typeof s !== 'object' ||
    s === null ||
    typeof s['search'] !== 'function' ||
    typeof s['read'] !== 'function' ||
    typeof s['evidence'] !== 'function'
  ) {
    fail(
      ['session'],
      'explorationTools needs an exploration session: pass startExploration(source, { question }).',
    );
  }
  // knowledgeTools checks the prefix (letters, digits, _ and -, at most 52) before any name is built.
  const prefix = ((options as ExplorationToolsOptions | undefined)?.prefix ?? '') as string;
  // The discovery tools of the registry, over the session's gated methods.
  const discovery: Record<string, unknown> = {};
  for (const { method } of DISCOVERY_TOOLS) {
    const call = (session as unknown as Record<string, unknown>)[method] as (
      input: unknown,
      context?: KnowledgeCallContext,
    ) => Promise<unknown>;
    discovery[method] = (input: unknown, context?: KnowledgeCallContext) =>
      call.call(session, input, context);
  }
  const passthrough = knowledgeTools(discovery as unknown as KnowledgeSource, {
    prefix,
    include: DISCOVERY_TOOLS.map((tool) => tool.name as KnowledgeToolName),
  });

  const search: Run = async ({ query, ...rest }, context) => {
    const output = await session.search(query as string | null | undefined, rest, context);
    return { ...output, exploration: { ...session.status } } as unknown as JsonObject;
  };
  const read: Run = async ({ fileId, path, ...rest }, context) => {
    const target = {
      ...(fileId === undefined ? {} : { fileId }),
      ...(path === undefined ? {} : { path }),
    } as ExplorationReadTarget;
    const output = await session.read(target, rest, context);
    return { ...output, exploration: { ...session.status } } as unknown as JsonObject;
  };
  const status: Run = async (args, context) => {
    const extra = Object.keys(args)[0];
    if (extra !== undefined) {
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`${prefix}exploration_status\` takes no arguments; remove \`${extra}\`.`,
        { requestId: context.requestId },
      );
    }
    const evidence = session
      .evidence()
      .map(({ content, ...entry }) => ({ ...entry, chars: codePointLength(content) }));
    return {
      question: session.question,
      status: { ...session.status },
      evidence,
    } as unknown as JsonObject;
  };

  return Object.freeze([
    define(
      `${prefix}search_files`,
      EXPLORATION_TOOL_TEXTS.search_files,
      EXPLORATION_SEARCH_INPUT_SCHEMA,
      EXPLORATION_SEARCH_OUTPUT_SCHEMA,
      search,
    ),
    define(
      `${prefix}read_file`,
      EXPLORATION_TOOL_TEXTS.read_file,
      readFileTool.inputSchema,
      EXPLORATION_READ_OUTPUT_SCHEMA,
      read,
    ),
    ...passthrough,
    define(
      `${prefix}exploration_status`,
      EXPLORATION_TOOL_TEXTS.exploration_status,
      EXPLORATION_STATUS_INPUT_SCHEMA,
      EXPLORATION_STATUS_OUTPUT_SCHEMA,
      status,
    ),
  ]);
}
