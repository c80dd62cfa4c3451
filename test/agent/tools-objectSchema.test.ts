/** `objectSchema` derives `required` from the properties: every one not wrapped in `optional`, in order. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectSchema, optional, typed } from '../../src/agent/tools/schemas/common.js';
import type { JsonSchema } from '../../src/agent/index.js';

describe('objectSchema', () => {
  it('lists in required every property not wrapped in optional, in the order of properties', () => {
    const schema = objectSchema<{ readonly a: string; readonly b?: string; readonly c: number }>(
      'A thing.',
      {
        a: typed('string', 'A.'),
        b: optional(typed('string', 'B.')),
        c: typed('integer', 'C.'),
      },
    );
    expect(JSON.stringify(schema)).toBe(
      JSON.stringify({
        type: 'object',
        description: 'A thing.',
        properties: {
          a: { type: 'string', description: 'A.' },
          b: { type: 'string', description: 'B.' },
          c: { type: 'integer', description: 'C.' },
        },
        required: ['a', 'c'],
        additionalProperties: false,
      }),
    );
  });

  it('an object of optional properties only has required []', () => {
    const schema = objectSchema<{ readonly a?: string }>('A.', {
      a: optional(typed('string', 'A.')),
    });
    expect(schema['required']).toEqual([]);
  });

  it('with required named (properties known at run time) takes them as given', () => {
    const schema = objectSchema('A.', { a: typed('string', 'A.'), b: typed('string', 'B.') }, [
      'b',
    ]);
    expect(schema['required']).toEqual(['b']);
  });

  it('property: required is the unwrapped names in order, and properties the schemas unwrapped', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.string({ minLength: 1 }), fc.boolean()), {
          selector: ([name]) => name,
          maxLength: 12,
        }),
        (fields) => {
          const properties: Record<string, unknown> = {};
          const expected: Record<string, JsonSchema> = {};
          for (const [name, isOptional] of fields) {
            const schema = typed('string', name);
            properties[name] = isOptional ? optional(schema) : schema;
            expected[name] = schema;
          }
          const schema = objectSchema<Record<string, string>>('Any.', properties as never);
          expect(schema['properties']).toEqual(expected);
          // Key order too: `required` follows `properties`.
          expect(Object.keys(schema['properties'] as object)).toEqual(Object.keys(expected));
          expect(schema['required']).toEqual(
            Object.keys(expected).filter((name) => !fields.find(([n]) => n === name)![1]),
          );
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });
});
