/**
 * Checks an options object against a table of value checks: unknown keys and invalid values become
 * `INVALID_INPUT` issues with their `path`, so one `KnowledgeError` lists every problem. Shared by the
 * agent source, the HTTP handler and the HTTP client.
 *
 * @module
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { isPlainObject } from './values.js';

/** A value check: `undefined` when the value is fine, else what it must be ("a string"). */
export type OptionCheck = (value: unknown) => string | undefined;

/** A positive safe integer. */
export const positiveInteger: OptionCheck = (v) =>
  Number.isSafeInteger(v) && (v as number) > 0 ? undefined : 'a positive safe integer';
/** A time limit in milliseconds: an integer from 1 to 2³¹ − 1, the longest a timer can wait. */
export const timeoutMs: OptionCheck = (v) =>
  Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= 2_147_483_647
    ? undefined
    : 'an integer from 1 to 2147483647 (milliseconds)';
/** A safe integer ≥ 0. */
export const nonNegativeInteger: OptionCheck = (v) =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'a safe integer ≥ 0';
/** Any string. */
export const string: OptionCheck = (v) => (typeof v === 'string' ? undefined : 'a string');
/** A function. */
export const func: OptionCheck = (v) => (typeof v === 'function' ? undefined : 'a function');
/** An object with a method of this name. */
export const withMethod =
  (name: string): OptionCheck =>
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Record<string, unknown>)[name] === 'function'
      ? undefined
      : `an object with a \`${name}\` method`;

/**
 * Check `options` (`undefined` is `{}`) against `checks`, pushing one issue per problem onto `issues`.
 *
 * @param api - the function's name, which every message starts with.
 * @param options - what the caller passed.
 * @param checks - the known options and the check of each.
 * @param issues - where problems go.
 * @param replaced - options this function no longer takes, each with the sentence that says what
 *   replaces it; the unknown-option message of such a key carries that sentence.
 * @returns `options` as a record (`{}` when it was not a plain object).
 */
export function checkOptions(
  api: string,
  options: unknown,
  checks: Readonly<Record<string, OptionCheck>>,
  issues: KnowledgeIssue[],
  replaced: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isPlainObject(options)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options'],
      message: `${api}: \`options\` must be a plain object.`,
    });
    return {};
  }
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    if (check === undefined) {
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', key],
        message: `${api}: unknown option \`${key}\`.${Object.hasOwn(replaced, key) ? ` ${replaced[key]!}` : ''} Known options: ${Object.keys(
          checks,
        )
          .map((k) => `\`${k}\``)
          .join(', ')}.`,
      });
      continue;
    }
    const expected = check(value);
    if (expected !== undefined)
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', key],
        message: `${api}: \`options.${key}\` must be ${expected}.`,
      });
  }
  return options;
}
