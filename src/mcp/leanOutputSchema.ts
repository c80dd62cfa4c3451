/**
 * The output schema an MCP server lists for a tool: the tool's own schema without its prose and cut
 * below the fields of the records it returns, so `tools/list` costs a model a few hundred tokens
 * instead of thousands. Every output that validates against the full schema validates against the
 * lean one (it only drops constraints), so SDK v1 clients, which check `structuredContent` against
 * it, accept every answer; the full schema stays in the tool definition.
 *
 * @module
 */
import type { JsonSchema } from '../agent/index.js';

/** Keywords kept at every level: the shape, not the prose. */
const SHAPE = new Set(['type', 'enum', 'const']);
/** Deepest level whose `properties` and `items` are listed: the output, and its records' fields. */
const MAX_LEVEL = 2;
/** A subschema written this many times or more, and at least this long, becomes a shared definition. */
const SHARE_MIN_CHARS = 40;

/**
 * The lean form of `schema`: `type`, `enum` and `const` kept (an `enum` of one value written as that
 * `const`, without its `type`); `properties` and `items` down to the fields of the output's records
 * (deeper values keep their type only); `anyOf` and `oneOf` mapped; prose (`description`, `title`,
 * `examples`), `required` and the finer constraints (`minimum`, `additionalProperties`…) dropped. A
 * subschema that occurs twice or more is written once under `$defs` and referred to with `$ref`.
 *
 * @param schema - a tool's output schema (JSON Schema, an object at the root).
 * @returns a new schema.
 * @example
 * ```ts
 * leanOutputSchema(tool.outputSchema); // { type: 'object', properties: { items: { type: 'array', … } }, required: [...] }
 * ```
 */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  return share(lean(schema as Readonly<Record<string, unknown>>, 0)) as JsonSchema;
}

function lean(schema: Readonly<Record<string, unknown>>, level: number): Record<string, unknown> {
  const only = schema['enum'];
  // `{ const: true }` says what `{ type: 'boolean', enum: [true] }` says (`cursorRestarted`).
  if (Array.isArray(only) && only.length === 1) return { const: only[0] as unknown };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SHAPE.has(key)) out[key] = value;
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value))
      out[key] = value.map((item) => lean(item as Record<string, unknown>, level));
    else if (key === 'properties' && level < MAX_LEVEL && isRecord(value)) {
      const properties: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(value))
        if (isRecord(property)) properties[name] = lean(property, level + 1);
      out[key] = properties;
    } else if (key === 'items' && level < MAX_LEVEL && isRecord(value))
      out[key] = lean(value, level + 1);
  }
  return out;
}

/** The subschemas of `node` (values of `properties`, `items`, `anyOf`/`oneOf` members), with a name. */
function children(node: Readonly<Record<string, unknown>>): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  const properties = node['properties'];
  if (isRecord(properties))
    for (const [name, value] of Object.entries(properties))
      if (isRecord(value)) out.push([name, value]);
  if (isRecord(node['items'])) out.push(['item', node['items']]);
  for (const key of ['anyOf', 'oneOf'])
    if (Array.isArray(node[key]))
      for (const value of node[key] as unknown[]) if (isRecord(value)) out.push([key, value]);
  return out;
}

/** `schema` with each subschema written twice or more (and long enough) moved to `$defs`. */
function share(schema: Record<string, unknown>): Record<string, unknown> {
  const seen = new Map<string, { count: number; name: string }>();
  const visit = (node: Readonly<Record<string, unknown>>): void => {
    for (const [name, child] of children(node)) {
      const text = JSON.stringify(child);
      if (text.length >= SHARE_MIN_CHARS) {
        const entry = seen.get(text);
        if (entry === undefined) seen.set(text, { count: 1, name });
        else entry.count++;
      }
      visit(child);
    }
  };
  visit(schema);
  const defs: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const [text, { count, name }] of seen) {
    if (count < 2) continue;
    let unique = name;
    for (let n = 2; unique in defs; n++) unique = `${name}${n}`;
    names.set(text, unique);
    defs[unique] = JSON.parse(text) as unknown;
  }
  if (names.size === 0) return schema;
  const replace = (node: Readonly<Record<string, unknown>>): Record<string, unknown> => {
    const name = names.get(JSON.stringify(node));
    if (name !== undefined) return { $ref: `#/$defs/${name}` };
    const out: Record<string, unknown> = { ...node };
    const properties = node['properties'];
    if (isRecord(properties)) {
      const mapped: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(properties))
        mapped[key] = isRecord(value) ? replace(value) : value;
      out['properties'] = mapped;
    }
    if (isRecord(node['items'])) out['items'] = replace(node['items']);
    for (const key of ['anyOf', 'oneOf'])
      if (Array.isArray(node[key]))
        out[key] = (node[key] as unknown[]).map((value) =>
          isRecord(value) ? replace(value) : value,
        );
    return out;
  };
  // The root is no one's child, so it is never replaced itself.
  return { ...replace(schema), $defs: defs };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
