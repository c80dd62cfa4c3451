/**
 * Schema helpers for the tool tests: a strict draft 2020-12 ajv, and a walk over every subschema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../../src/agent/types.js';

/** A strict-mode ajv for draft 2020-12 (union types such as `["string", "integer"]` allowed). */
export function strictAjv(): Ajv2020 {
  return new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
}

/** Validate `value` against `schema`, returning ajv's errors as text ('' when valid). */
export function schemaErrors(ajv: Ajv2020, schema: JsonSchema, value: unknown): string {
  const validate = ajv.compile(schema as object);
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

/** Every subschema of `schema` with its JSON path, the root included. */
export function walkSchemas(
  schema: JsonSchema,
): { readonly path: string; readonly node: Record<string, unknown> }[] {
  const found: { path: string; node: Record<string, unknown> }[] = [];
  const stack: [string, unknown][] = [['#', schema]];
  while (stack.length > 0) {
    const [path, node] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    found.push({ path, node: record });
    const properties = record['properties'];
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, child] of Object.entries(properties))
        stack.push([`${path}/properties/${key}`, child]);
    }
    if (record['items'] !== undefined) stack.push([`${path}/items`, record['items']]);
    const anyOf = record['anyOf'];
    if (Array.isArray(anyOf))
      anyOf.forEach((child, index) => stack.push([`${path}/anyOf/${index}`, child]));
  }
  return found;
}
