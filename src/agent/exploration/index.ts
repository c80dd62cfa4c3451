/**
 * `knowledge-kit/agent/exploration`: the bounded, source-first flow of seed 002, enforced over any
 * `KnowledgeSource`, as a session (`startExploration`) or as tool definitions (`explorationTools`).
 *
 * @example
 * ```ts
 * import { startExploration } from 'knowledge-kit/agent/exploration';
 * const session = startExploration(source, { question: 'How do refunds work?' });
 * const found = await session.search();
 * ```
 *
 * @module
 */
export { explorationTools } from './explorationTools.js';
export type { ExplorationToolsOptions } from './explorationTools.js';
export { startExploration } from './startExploration.js';
export type {
  ExplorationEvidence,
  ExplorationOptions,
  ExplorationReadOptions,
  ExplorationReadOutput,
  ExplorationReadTarget,
  ExplorationSearchOptions,
  ExplorationSession,
  ExplorationStatus,
  ExplorationStopReason,
} from './types.js';
