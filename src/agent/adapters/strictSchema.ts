/**
 * The strict variant of an input schema, for OpenAI strict function calling: every property required
 * (an optional one made to accept `null`, which means absent), every object closed, and only the
 * keywords strict mode accepts. The source still validates every call.
 *
 * @module
 */
import type { JsonSchema } from '../types.js';

/** A mutable JSON Schema object, as the SDKs' parameter types declare it. Fresh per call. */
export interface ToolParametersSchema {
  [key: string]: unknown;
}

/**
 * Keywords kept in strict schemas: those OpenAI's structured-outputs guide lists as supported.
 * `minLength`/`maxLength` are not listed there and are dropped (with `title`, `default`, `$schema`):
 * the range stays in each description and the source enforces it.
 */
const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/**
 * A fresh strict copy of `schema`. Properties optional in `schema` (plain `"type": "integer"` and the
 * like) become required and accept `null` too, so the model sends `null` for "absent".
 *
 * @param schema - a base input schema of a knowledge tool.
 * @returns a fresh, mutable strict schema.
 */
export function toStrictSchema(schema: JsonSchema): ToolParametersSchema {
  return strictNode(schema) as ToolParametersSchema;
}

function strictNode(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!STRICT_KEYWORDS.has(key)) continue;
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, strictNode(child)]),
      );
    } else if (key === 'items') {
      out[key] = strictNode(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out[key] = value.map(strictNode);
    } else {
      out[key] = structuredClone(value);
    }
  }
  if (out['properties'] !== undefined) {
    const properties = out['properties'] as Record<string, unknown>;
    const required = Array.isArray(source['required']) ? (source['required'] as unknown[]) : [];
    for (const [name, child] of Object.entries(properties)) {
      if (!required.includes(name)) properties[name] = orNull(child);
    }
    out['required'] = Object.keys(properties);
    out['additionalProperties'] = false;
  }
  return out;
}

/**
 * `node` (a fresh strict copy) also accepting `null`: in its `type` and, when it has one, its `enum`;
 * an `anyOf` (a string or a list) gains a `null` branch when it has none.
 */
function orNull(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out = node as Record<string, unknown>;
  const branches = out['anyOf'];
  if (Array.isArray(branches)) {
    const nullable = branches.some(
      (b) =>
        typeof b === 'object' && b !== null && (b as Record<string, unknown>)['type'] === 'null',
    );
    if (!nullable) out['anyOf'] = [...branches, { type: 'null' }];
    return out;
  }
  const type = out['type'];
  if (typeof type === 'string' && type !== 'null') out['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) out['type'] = [...type, 'null'];
  const values = out['enum'];
  if (Array.isArray(values) && !values.includes(null)) out['enum'] = [...values, null];
  return out;
}
