/**
 * Checks of `startExploration`'s arguments: the source has the six methods, the question is 1..2,000
 * code points after trimming, the budgets are non-negative safe integers, `version` (when given) is a
 * version label, and no key is unknown. A
 * bad option is a programming error, thrown at once as the core's `KnowledgeError` `INVALID_INPUT`
 * (as `knowledgeTools` and `createCatalogSource` do).
 */
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import { missingSourceMethod } from '../tools/sourceMethods.js';
import { MAX_QUERY_CODE_POINTS } from '../tools/searchFiles/definition.js';
import { versionLabelProblem } from '../versions/label.js';
import { codePointLength, isPlainObject, show } from './values.js';

/** The checked options, with defaults applied. */
export interface CheckedExplorationOptions {
  /** Trimmed. */
  readonly question: string;
  readonly maxFollowUps: number;
  readonly maxReads: number;
  /** The version every call of the exploration names; `undefined`: none (the default version). */
  readonly version: string | undefined;
}

/** Longest question, in code points after trimming (the same limit as a search query). */
export const MAX_QUESTION_CODE_POINTS = MAX_QUERY_CODE_POINTS;

const KEYS = ['question', 'maxFollowUps', 'maxReads', 'version'] as const;

const invalid = (path: readonly string[], message: string): KnowledgeError =>
  new KnowledgeError([{ code: 'INVALID_INPUT', message, path }]);

function budget(
  options: Record<string, unknown>,
  key: 'maxFollowUps' | 'maxReads',
  fallback: number,
): number {
  const value = options[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(
      ['options', key],
      `\`startExploration\`: \`${key}\` must be a non-negative safe integer (default ${fallback}), not ${show(value)}.`,
    );
  }
  return value;
}

/**
 * Check the arguments of `startExploration`.
 *
 * @param source - must have the six `KnowledgeSource` methods.
 * @param options - `{ question, maxFollowUps?, maxReads?, version? }`.
 * @returns the options with the question trimmed and defaults applied (2 follow-ups, 12 reads).
 * @throws {KnowledgeError} `INVALID_INPUT` naming the field and the allowed values.
 */
export function readExplorationOptions(
  source: unknown,
  options: unknown,
): CheckedExplorationOptions {
  if (typeof source !== 'object' || source === null) {
    throw invalid(['source'], `\`startExploration\` needs a KnowledgeSource, not ${show(source)}.`);
  }
  const missing = missingSourceMethod(source);
  if (missing !== undefined)
    throw invalid(
      ['source', missing],
      `\`startExploration\` needs a KnowledgeSource: \`source.${missing}\` is not a function.`,
    );
  if (!isPlainObject(options)) {
    throw invalid(
      ['options'],
      `\`startExploration\` takes options { question, maxFollowUps?, maxReads?, version? }, not ${show(options)}.`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw invalid(
        ['options', key],
        `\`startExploration\` has no option \`${key}\`. Its options are \`question\`, \`maxFollowUps\`, \`maxReads\`, \`version\`.`,
      );
    }
  }
  const raw = options['question'];
  if (typeof raw !== 'string')
    throw invalid(
      ['options', 'question'],
      `\`startExploration\`: \`question\` must be a string, not ${show(raw)}.`,
    );
  const question = raw.trim();
  if (question === '')
    throw invalid(
      ['options', 'question'],
      '`startExploration`: `question` must be the complete question, not empty or blank.',
    );
  if (
    question.length > MAX_QUESTION_CODE_POINTS &&
    codePointLength(question) > MAX_QUESTION_CODE_POINTS
  ) {
    throw invalid(
      ['options', 'question'],
      `\`startExploration\`: \`question\` must be at most ${MAX_QUESTION_CODE_POINTS} code points after trimming.`,
    );
  }
  const version = options['version'];
  const problem =
    version === undefined || version === null ? undefined : versionLabelProblem(version);
  if (problem !== undefined)
    throw invalid(
      ['options', 'version'],
      `\`startExploration\`: \`version\` must be a version label (${problem}), not ${show(version)}. Pass a label the root \`list_tree\` lists in \`versions\`, or leave it out for the default version.`,
    );
  return {
    question,
    maxFollowUps: budget(options, 'maxFollowUps', 2),
    maxReads: budget(options, 'maxReads', 12),
    version: typeof version === 'string' ? version : undefined,
  };
}
