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
import { ExplorationLedger } from './ExplorationLedger.js';
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

const repeat = (output: ReadFileOutput, repeated: boolean): ExplorationReadOutput => ({
  ...structuredClone(output),
  repeated,
});

/**
 * Start a bounded exploration of `source` for one question.
 *
 * @param source - any `KnowledgeSource` (a catalog source, a remote client).
 * @param options - `question` (1..2,000 code points after trimming), `maxFollowUps` (default 2) and
 *   `maxReads` (default 12), non-negative safe integers.
 * @returns a session: `search`, `read`, `evidence()`, `status`, and the discovery calls `listTree`,
 *   `getFile`, `readRelated` and `expandGraph` (free, after the first search).
 * @throws {KnowledgeError} `INVALID_INPUT` for a missing source method, a blank or long question,
 *   a budget that is not a non-negative safe integer, or an unknown option (as every option check).
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
    const call = readSearchCall(checked.question, query, searchOptions, context);
    const ticket = ledger.beginSearch(call, context);
    let output: SearchFilesOutput;
    try {
      output = await source.searchFiles(call.input, context);
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
    const call = readReadCall(target, readOptions, context);
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
    const pending = (async () => source.readFile(call.input, context))();
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
      return call.call(source, input, context);
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
