/**
 * Exploration: the bounded, source-first flow of seed 002, enforced over any `KnowledgeSource`.
 *
 * @module
 */
export {
  EXPLORATION_READ_OUTPUT_SCHEMA,
  EXPLORATION_SEARCH_INPUT_SCHEMA,
  EXPLORATION_SEARCH_OUTPUT_SCHEMA,
  EXPLORATION_STATUS_INPUT_SCHEMA,
  EXPLORATION_STATUS_OUTPUT_SCHEMA,
  EXPLORATION_STATUS_SCHEMA,
} from './explorationSchemas.js';
export { EXPLORATION_TOOL_TEXTS } from './explorationTexts.js';
export type { ExplorationToolText } from './explorationTexts.js';
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
