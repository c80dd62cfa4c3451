/**
 * Exploration: the bounded, source-first flow of seed 002, enforced over any `KnowledgeSource`.
 *
 * @module
 */
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
