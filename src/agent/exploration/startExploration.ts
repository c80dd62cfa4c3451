/**
 * `startExploration`: a session over a `KnowledgeSource` that enforces seed 002's bounded,
 * source-first flow: search with the complete question first, read pages, follow up only after new
 * reading, stop within the budgets, answer from the pages read.
 */
import type { KnowledgeCallContext } from '../types.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { ReadFileOutput } from '../tools/readFile/types.js';
import type { SearchFilesOutput } from '../tools/searchFiles/types.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import { KNOWLEDGE_TOOLS } from '../tools/registry.js';
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import { ExplorationLedger } from './ExplorationLedger.js';
import { isPlainObject, show } from './values.js';
import { readReadCall, readSearchCall } from './readCallArguments.js';
import { readExplorationOptions } from './readExplorationOptions.js';
import type { ExplorationOptions, ExplorationReadOutput, ExplorationSession } from './types.js';

/**
 * The discovery tools: every tool of the registry but `search_files` and `read_file`, which the
 * session's own `search` and `read` stand for. Free after the first search.
 */
export const DISCOVERY_TOOLS: readonly ToolDefinition[] = Object.freeze(
  KNOWLEDGE_TOOLS.filter((tool) => tool.name !== 'search_files' && tool.name !== 'read_file'),
);

/**
 * The input of one call of an exploration bound to `version` (`undefined`: none, the default
 * version): the call's own `version` must be the exploration's (or absent), and the source is always
 * called with the exploration's.
 *
 * @param call - the session method, for the message (`search`, `read`, `listTree`, …).
 * @param input - the call's input or options, as given (checked by the caller or the source).
 * @param version - the exploration's version.
 * @param context - the call's context (its request ID).
 * @returns `input` without `version`, and the `version` field to add to the source's input.
 * @throws {KnowledgeToolError} `INVALID_ARGUMENT` for a call naming another version.
 */
function bindVersion(
  call: string,
  input: unknown,
  version: string | undefined,
  context: KnowledgeCallContext | undefined,
): { readonly rest: unknown; readonly bound: { readonly version?: string } } {
  const bound = version === undefined ? {} : { version };
  if (!isPlainObject(input) || !Object.hasOwn(input, 'version')) return { rest: input, bound };
  const { version: asked, ...rest } = input;
  if (asked !== undefined && asked !== null && asked !== version)
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`${call}\`: this exploration is bound to ${version === undefined ? 'the default version (it was started without `version`)' : `version \`${version}\``}, so a call cannot name version ${show(asked)}. Leave \`version\` out, or start another exploration with \`startExploration(source, { question, version })\` for that version.`,
      {
        requestId:
          typeof context?.requestId === 'string' && context.requestId !== ''
            ? context.requestId
            : undefined,
        details: { version: show(asked), boundVersion: version ?? null },
      },
    );
  return { rest, bound };
}

const repeat = (output: ReadFileOutput, repeated: boolean): ExplorationReadOutput => ({
  ...structuredClone(output),
  repeated,
});

/**
 * Start a bounded exploration of `source` for one question.
 *
 * @param source - any `KnowledgeSource` (a catalog source, a remote client).
 * @param options - `question` (1..2,000 code points after trimming), `maxFollowUps` (default 2) and
 *   `maxReads` (default 12), non-negative safe integers, and `version`: the version every call of
 *   the exploration names (absent: none, so the source's default version answers). A call that
 *   names another version is refused `INVALID_ARGUMENT` (the version may exist: it is this
 *   exploration that cannot use it).
 * @returns a session: `search`, `read`, `evidence()`, `status`, and the discovery calls `listTree`,
 *   `getFile`, `readRelated` and `expandGraph` (free, after the first search).
 * @throws {KnowledgeError} `INVALID_INPUT` for a missing source method, a blank or long question,
 *   a budget that is not a non-negative safe integer, a `version` that is not a version label, or an
 *   unknown option (as every option check).
 *
 * @example
 * ```ts
 * const session = startExploration(source, { question: 'How do refunds work?' });
 * const found = await session.search();
 * for (const item of found.items.slice(0, 3)) await session.read({ fileId: item.fileId });
 * const pages = session.evidence(); // answer from these, citing their snapshotId
 * ```
 */
export function startExploration(
  source: KnowledgeSource,
  options: ExplorationOptions,
): ExplorationSession {
  const checked = readExplorationOptions(source, options);
  const ledger = new ExplorationLedger(checked);
  const inFlight = new Map<string, Promise<unknown>>();

  async function search(
    query?: unknown,
    searchOptions?: unknown,
    context?: KnowledgeCallContext,
  ): Promise<SearchFilesOutput> {
    const { rest, bound } = bindVersion('search', searchOptions, checked.version, context);
    const call = readSearchCall(checked.question, query, rest, context);
    const ticket = ledger.beginSearch(call, context);
    let output: SearchFilesOutput;
    try {
      output = await source.searchFiles({ ...call.input, ...bound }, context);
    } catch (error) {
      ledger.endSearch(ticket, undefined);
      throw error;
    }
    ledger.endSearch(ticket, output);
    return output;
  }

  async function read(
    target: unknown,
    readOptions?: unknown,
    context?: KnowledgeCallContext,
  ): Promise<ExplorationReadOutput> {
    const { rest, bound } = bindVersion('read', readOptions, checked.version, context);
    const { rest: named } = bindVersion('read', target, checked.version, context);
    const call = readReadCall(named, rest, context);
    ledger.requireFirstSearch(context);
    for (;;) {
      const earlier = ledger.lookup(call);
      if (earlier !== undefined) return repeat(earlier, true);
      const key = ledger.requestKey(call);
      const twin = key === null ? undefined : inFlight.get(key);
      if (twin === undefined) break;
      // The same read is in flight: wait for it, then look again (it failed, or does not fit maxChars).
      await twin.catch(() => undefined);
    }
    ledger.beginRead(context);
    const key = ledger.requestKey(call);
    const pending = (async () => source.readFile({ ...call.input, ...bound }, context))();
    if (key !== null) inFlight.set(key, pending);
    let output: ReadFileOutput;
    try {
      output = await pending;
    } catch (error) {
      ledger.endRead(call, undefined);
      throw error;
    } finally {
      if (key !== null && inFlight.get(key) === pending) inFlight.delete(key);
    }
    const kept = ledger.endRead(call, output)!;
    return repeat(kept.output, kept.repeated);
  }

  /** A discovery method of the source, refused before the first search. */
  const gated = (method: string) => {
    const call = (source as unknown as Record<string, unknown>)[method] as (
      input: unknown,
      context?: KnowledgeCallContext,
    ) => Promise<unknown>;
    return async (input: unknown, context?: KnowledgeCallContext): Promise<unknown> => {
      ledger.requireFirstSearch(context);
      const { rest, bound } = bindVersion(method, input, checked.version, context);
      // Not an object: passed as it is, for the source's own INVALID_ARGUMENT.
      const given = rest === undefined || rest === null ? {} : rest;
      return call.call(source, isPlainObject(given) ? { ...given, ...bound } : given, context);
    };
  };

  const session = {
    question: checked.question,
    get status() {
      return ledger.status();
    },
    search,
    read,
    evidence: () => ledger.evidence(),
  };
  const methods = session as Record<string, unknown>;
  for (const { method } of DISCOVERY_TOOLS) methods[method] = gated(method);
  return Object.freeze(session) as unknown as ExplorationSession;
}
