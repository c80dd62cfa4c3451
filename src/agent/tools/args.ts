/**
 * Argument rules of the tools, valibot-style: one declaration per argument, from which the tool's
 * JSON Schema property, the source's input check (`readInput`) and the HTTP parameter kind are all
 * derived. `null` and absent mean the same for every optional argument. Integer and boolean arguments
 * are loose: their canonical string forms (`"5"`, `"true"`, `"false"`) are read as the value in every
 * transport (`looseInteger`, `looseBoolean`), since models and clients such as the MCP Inspector send
 * them as strings.
 *
 * @module
 */
import type { JsonObject, JsonSchema } from '../types.js';
import {
  nullable,
  nullableEnum,
  objectSchema,
  optionalRange,
  typed,
  versionInput,
} from './schemas/common.js';

/** How the source checks one input field (`readInput`). */
export type FieldRule =
  | {
      readonly type: 'string';
      readonly required?: boolean;
      readonly nonEmpty?: boolean;
      /** Trim the value, then count its code points: `min..max`, else `INVALID_ARGUMENT` ending in `hint`. */
      readonly trimmed?: { readonly min: number; readonly max: number; readonly hint: string };
    }
  | { readonly type: 'integer'; readonly min: number; readonly max: number }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'strings' }
  /** A version label (`versionLabelProblem`): 1 to 64 characters of `A–Z a–z 0–9 . _ -`. */
  | { readonly type: 'version' }
  | {
      /** One non-empty string or a non-empty list of them, read as a list (`stringOrListArg`). */
      readonly type: 'stringOrList';
      readonly maxItems: number;
      /** Longest item, in UTF-16 code units. */
      readonly maxLength: number;
      /** Items are page paths as the tools write them: a leading `/` is refused. */
      readonly path?: true;
    };

/**
 * How the HTTP handler reads a query parameter: a `list` is comma-separated; a `repeated` one is
 * given once per item (`?tags=a&tags=b`).
 */
export type ParamKind = 'string' | 'integer' | 'boolean' | 'list' | 'repeated';

/** One argument: its JSON Schema property, the source's rule, and its HTTP parameter kind. */
export interface ArgSpec {
  readonly schema: JsonSchema;
  readonly rule: FieldRule;
  readonly param: ParamKind;
  /** Whether the call must give it (it is in the schema's `required`). */
  readonly required: boolean;
}

/** A tool's arguments, by name, in the order its schema lists them. */
export type ArgSpecs = Readonly<Record<string, ArgSpec>>;

/**
 * A string argument. Required: `{ type: 'string' }`; optional: `{ type: ['string', 'null'] }`.
 *
 * @param options - `description`; `required`; `nonEmpty` (the source refuses `""`).
 */
export function stringArg(options: {
  readonly description: string;
  readonly required?: true;
  readonly nonEmpty?: true;
}): ArgSpec {
  const required = options.required === true;
  return {
    schema: required
      ? typed('string', options.description)
      : nullable('string', options.description),
    rule: {
      type: 'string',
      ...(required ? { required: true } : {}),
      ...(options.nonEmpty ? { nonEmpty: true } : {}),
    },
    param: 'string',
    required,
  };
}

/**
 * A required text argument of `1..maxCodePoints` code points after trimming (the source trims it).
 *
 * @param options - `maxCodePoints`; `description`; `hint`, the advice that ends the error message.
 */
export function textArg(options: {
  readonly maxCodePoints: number;
  readonly description: string;
  readonly hint: string;
}): ArgSpec {
  return {
    schema: { type: 'string', minLength: 1, description: options.description },
    rule: {
      type: 'string',
      required: true,
      trimmed: { min: 1, max: options.maxCodePoints, hint: options.hint },
    },
    param: 'string',
    required: true,
  };
}

/** Most decimal digits a loose integer may have: every such number is exact in a double. */
const LOOSE_INTEGER_MAX_DIGITS = 15;

/**
 * The integer a string spells in canonical form: an optional `-`, then 1 to 15 decimal digits and
 * nothing else (no spaces, `+`, exponent or fraction).
 *
 * @param text - the string a caller sent for an integer argument.
 * @returns the integer, or `undefined` when `text` is not such a string.
 * @example
 * ```ts
 * looseInteger('5'); // 5
 * looseInteger('5.0'); // undefined
 * ```
 */
export function looseInteger(text: string): number | undefined {
  let i = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const digits = text.length - i;
  if (digits < 1 || digits > LOOSE_INTEGER_MAX_DIGITS) return undefined;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(text);
}

/**
 * The boolean a string spells: exactly `"true"` or `"false"`.
 *
 * @param text - the string a caller sent for a boolean argument.
 * @returns the boolean, or `undefined` for any other string.
 */
export function looseBoolean(text: string): boolean | undefined {
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/**
 * An optional integer in `min..max`; absent or `null` means `fallback`.
 *
 * @param min - smallest value.
 * @param max - largest value.
 * @param fallback - the default, stated in the description.
 * @param description - the start of the description; the range and default are appended.
 */
export function rangeArg(min: number, max: number, fallback: number, description: string): ArgSpec {
  return {
    schema: optionalRange(min, max, fallback, description),
    rule: { type: 'integer', min, max },
    param: 'integer',
    required: false,
  };
}

/**
 * An optional integer of at least `min`, with no upper bound; absent or `null` means the server's own
 * limit. Plain `"type": "integer"`.
 *
 * @param min - smallest value.
 * @param description - the whole description.
 */
export function atLeastArg(min: number, description: string): ArgSpec {
  return {
    schema: { type: 'integer', minimum: min, description },
    rule: { type: 'integer', min, max: Number.MAX_SAFE_INTEGER },
    param: 'integer',
    required: false,
  };
}

/**
 * An optional boolean; absent or `null` means false. Plain `"type": "boolean"`.
 *
 * @param description - the whole description.
 */
export function booleanArg(description: string): ArgSpec {
  return {
    schema: typed('boolean', description),
    rule: { type: 'boolean' },
    param: 'boolean',
    required: false,
  };
}

/**
 * An optional enum of strings; `null` means `fallback`.
 *
 * @param values - the allowed values.
 * @param fallback - the default, stated in the description.
 * @param description - the start of the description.
 */
export function enumArg(values: readonly string[], fallback: string, description: string): ArgSpec {
  return {
    schema: nullableEnum(values, fallback, description),
    rule: { type: 'enum', values },
    param: 'string',
    required: false,
  };
}

/**
 * An optional non-empty array of non-empty strings (HTTP: comma-separated). The items carry no
 * description of their own: the argument's says what one is.
 *
 * @param description - the description of the array and of its items.
 */
export function stringsArg(description: string): ArgSpec {
  return {
    schema: { type: ['array', 'null'], items: { type: 'string' }, description },
    rule: { type: 'strings' },
    param: 'list',
    required: false,
  };
}

/**
 * An optional filter of one string or a list of strings, read as a list (`"a"` is `["a"]`); over HTTP
 * the parameter is repeated, once per item. Its schema is an `anyOf` of a string, an array and `null`,
 * described once (the branches carry no description).
 *
 * @param options - `description`, of the argument and its values; `maxItems`; `maxLength` of an
 *   item; `path` when the items are page paths (no leading `/`).
 */
export function stringOrListArg(options: {
  readonly description: string;
  readonly maxItems: number;
  readonly maxLength: number;
  readonly path?: true;
}): ArgSpec {
  const item = { type: 'string', minLength: 1 };
  return {
    schema: {
      anyOf: [
        item,
        { type: 'array', items: item, minItems: 1, maxItems: options.maxItems },
        { type: 'null' },
      ],
      description: options.description,
    },
    rule: {
      type: 'stringOrList',
      maxItems: options.maxItems,
      maxLength: options.maxLength,
      ...(options.path === true ? { path: true } : {}),
    },
    param: 'repeated',
    required: false,
  };
}

/** The input `cursor` of a paged tool; the policy (alone or with the same arguments) is `CURSOR_ADVICE`. */
export const CURSOR_ARG: ArgSpec = stringArg({
  description: 'nextCursor of the previous page; null for the first page.',
});

/**
 * The input `version` of every tool (`defineTool` adds it to each tool's arguments, last): a version
 * label, absent or `null` for the default version. A malformed label is `INVALID_ARGUMENT` naming
 * `version`; a label the source does not have is `VERSION_NOT_FOUND`.
 */
export const VERSION_ARG: ArgSpec = {
  schema: versionInput(),
  rule: { type: 'version' },
  param: 'string',
  required: false,
};

/**
 * The input JSON Schema of a tool: a closed object of its arguments' properties, described only when
 * the arguments have a rule no property can say (`read_file`: exactly one of `fileId` and `path`).
 *
 * @param description - the schema's description, or `undefined` for none.
 * @param args - the arguments.
 */
export function inputSchemaOf(description: string | undefined, args: ArgSpecs): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, arg] of Object.entries(args)) properties[name] = arg.schema;
  const required = Object.keys(args).filter((name) => args[name]!.required);
  if (description !== undefined)
    return objectSchema(description, properties as JsonObject, required);
  return {
    type: 'object',
    properties: properties as JsonObject,
    required,
    additionalProperties: false,
  };
}

/**
 * The source's field rules of a tool's arguments.
 *
 * @param args - the arguments.
 */
export function rulesOf(args: ArgSpecs): Readonly<Record<string, FieldRule>> {
  const rules: Record<string, FieldRule> = {};
  for (const [name, arg] of Object.entries(args)) rules[name] = arg.rule;
  return Object.freeze(rules);
}
