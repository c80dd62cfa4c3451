/**
 * Strict validation of tool inputs: unknown keys, wrong types and numbers out of range are
 * `INVALID_ARGUMENT` naming the field and the allowed values. `null` and `undefined` mean absent.
 * Integers and booleans are also read from their canonical strings (`"5"`, `"true"`).
 */
import { countCodePoints } from '../../shared/codePoints.js';
import { isPlainObject } from '../../shared/values.js';
import { show } from '../../shared/show.js';
import { looseBoolean, looseInteger, type FieldRule } from '../tools/args.js';
import { versionLabelProblem } from '../versions/label.js';
import type { CallScope } from './callScope.js';

export type { FieldRule };

/**
 * Fields that name files and sections: a value holding NUL names nothing (no ID or path holds one),
 * so every source answers it `NOT_FOUND` before its store sees it (PostgreSQL cannot hold NUL in text).
 */
const NAMING_FIELDS: ReadonlySet<string> = new Set(['fileId', 'path', 'parentPath', 'sectionIds']);

/** The checked input: each present field, with its value; absent fields are missing. */
export type CheckedInput = { readonly [field: string]: unknown };

/**
 * Check `input` against `rules` (a tool definition's `rules`), throwing `INVALID_ARGUMENT` at the
 * first problem. A `trimmed` string is returned trimmed, its length checked after every other field.
 *
 * @param scope - the call (tool name, request ID).
 * @param input - what the caller passed; `undefined` is `{}` when no field is required.
 * @param rules - the fields the tool accepts.
 */
export function readInput(
  scope: CallScope,
  input: unknown,
  rules: { readonly [field: string]: FieldRule },
): CheckedInput {
  const tool = scope.tool;
  if (input === undefined || input === null) input = {};
  if (!isPlainObject(input)) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`${tool}\` takes a JSON object of arguments, not ${show(input)}.`,
    );
  }
  const out: Record<string, unknown> = {};
  const known = Object.keys(rules);
  // A cursor carries the parameters it was issued for (`cursor.ts`): with one, none is required.
  const resumes =
    Object.hasOwn(rules, 'cursor') && input['cursor'] !== undefined && input['cursor'] !== null;
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(rules, key)) {
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`${tool}\` has no argument \`${key}\`. Its arguments are ${known.map((k) => `\`${k}\``).join(', ')}.`,
      );
    }
  }
  for (const key of known) {
    const rule = rules[key]!;
    const value = input[key];
    if (value === undefined || value === null) {
      if (rule.type === 'string' && rule.required && !resumes) {
        throw scope.fail('INVALID_ARGUMENT', `\`${tool}\` needs \`${key}\`, a non-empty string.`);
      }
      continue;
    }
    out[key] = checkField(scope, key, rule, value);
    if (NAMING_FIELDS.has(key) && holdsNul(out[key]))
      throw scope.fail(
        'NOT_FOUND',
        `\`${tool}\`: nothing here has the ${key === 'sectionIds' ? 'section ID' : key === 'fileId' ? 'ID' : 'path'} ${show(value)}: IDs and paths never hold a NUL character (\\u0000). Call \`list_tree\` or \`search_files\` for the ones there are.`,
      );
  }
  for (const key of known) {
    const rule = rules[key]!;
    if (rule.type !== 'string' || rule.trimmed === undefined || out[key] === undefined) continue;
    const { min, max, hint } = rule.trimmed;
    const text = (out[key] as string).trim();
    const size = countCodePoints(text);
    if (size < min || size > max) {
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`${tool}\`: \`${key}\` must be ${min} to ${max} characters after trimming, not ${size}. ${hint}${size > 0 ? ', shortened' : ''}.`,
      );
    }
    out[key] = text;
  }
  return out;
}

function checkField(scope: CallScope, key: string, rule: FieldRule, value: unknown): unknown {
  const bad = (expected: string): never => {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`${scope.tool}\`: \`${key}\` must be ${expected}, not ${show(value)}.`,
    );
  };
  switch (rule.type) {
    case 'string':
      if (typeof value !== 'string') return bad('a string');
      if (rule.nonEmpty && value.length === 0) return bad('a non-empty string');
      return value;
    case 'integer': {
      const number = typeof value === 'string' ? looseInteger(value) : value;
      if (
        typeof number !== 'number' ||
        !Number.isInteger(number) ||
        number < rule.min ||
        number > rule.max
      ) {
        return bad(
          rule.max === Number.MAX_SAFE_INTEGER
            ? `an integer of at least ${rule.min}`
            : `an integer from ${rule.min} to ${rule.max}`,
        );
      }
      return number;
    }
    case 'boolean': {
      const flag = typeof value === 'string' ? looseBoolean(value) : value;
      return typeof flag === 'boolean' ? flag : bad('true or false');
    }
    case 'enum':
      return typeof value === 'string' && rule.values.includes(value)
        ? value
        : bad(`one of ${rule.values.map((v) => JSON.stringify(v)).join(', ')}`);
    case 'strings':
      if (!Array.isArray(value) || value.length === 0) return bad('a non-empty array of strings');
      for (let i = 0; i < value.length; i++) {
        if (typeof value[i] !== 'string' || (value[i] as string).length === 0) {
          throw scope.fail(
            'INVALID_ARGUMENT',
            `\`${scope.tool}\`: \`${key}[${i}]\` must be a non-empty string, not ${show(value[i])}.`,
          );
        }
      }
      return [...(value as string[])];
    case 'stringOrList':
      return checkList(scope, key, rule, value);
    case 'version': {
      const problem = versionLabelProblem(value);
      if (problem === undefined) return value;
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`${scope.tool}\`: \`${key}\` must be a version label (${problem}), not ${show(value)}. Pass a label that \`list_tree\` lists in \`versions\`, such as "3.x", or leave \`${key}\` out for the default version.`,
      );
    }
  }
}

/** Whether a string, or a string of a list, holds NUL. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.indexOf('\u0000') !== -1;
  return (
    Array.isArray(value) &&
    value.some((item) => typeof item === 'string' && item.indexOf('\u0000') !== -1)
  );
}

/**
 * `input` as a store may plan its reads from: without the naming fields that hold NUL (a store such as
 * PostgreSQL cannot even look such a value up). `readInput` then answers the call `NOT_FOUND`, as a
 * source that looks it up answers a name that is not there.
 *
 * @param input - the call's raw input.
 * @returns `input` itself, or a copy without those fields.
 */
export function withoutNulNames(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  let copy: Record<string, unknown> | undefined;
  for (const key of NAMING_FIELDS)
    if (holdsNul(input[key])) {
      copy ??= { ...input };
      delete copy[key];
    }
  return copy ?? input;
}

/** A `stringOrList` field as a list: one string, or 1 to `maxItems` of them, each checked. */
function checkList(
  scope: CallScope,
  key: string,
  rule: Extract<FieldRule, { type: 'stringOrList' }>,
  value: unknown,
): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || list.length > rule.maxItems)
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`${scope.tool}\`: \`${key}\` must be a non-empty string or a list of 1 to ${rule.maxItems} of them, not ${show(value)}.`,
    );
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const place = typeof value === 'string' ? key : `${key}[${i}]`;
    if (typeof item !== 'string' || item.length === 0 || item.length > rule.maxLength)
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`${scope.tool}\`: \`${place}\` must be a non-empty string of at most ${rule.maxLength} characters, not ${show(item)}.`,
      );
    if (rule.path === true && item.charCodeAt(0) === 47 /* / */)
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`${scope.tool}\`: \`${place}\` must be a path as the tools write it, such as \`pages/guide/\`, without a leading \`/\`, not ${show(item)}.`,
      );
  }
  return [...(list as string[])];
}
