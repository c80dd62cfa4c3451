/**
 * A tool's output schema is tied to its TypeScript type: `objectSchema<T>` takes one schema per
 * property of `T`, the optional ones (`key?:`) wrapped in `optional`, so a schema that misses a field,
 * adds one, or disagrees on whether it is optional does not compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  objectSchema,
  optional,
  typed,
  type OptionalProperty,
  type PropertySchemas,
} from '../../src/agent/tools/schemas/common.js';
import type { JsonSchema } from '../../src/agent/index.js';
import type { GetFileOutput, ReadRelatedOutput } from '../../src/agent/index.js';

interface Thing {
  readonly id: string;
  readonly note?: string;
}

const ID = typed('string', 'Its ID.');
const NOTE = typed('string', 'A note.');

describe('objectSchema<T>', () => {
  it('takes exactly the properties of T, the optional ones wrapped', () => {
    expectTypeOf(
      objectSchema<Thing>('A thing.', { id: ID, note: optional(NOTE) }),
    ).toEqualTypeOf<JsonSchema>();
    expectTypeOf<PropertySchemas<Thing>>().toEqualTypeOf<{
      readonly id: JsonSchema;
      readonly note: OptionalProperty;
    }>();
  });

  it('refuses a missing property', () => {
    // @ts-expect-error -- `note` of `Thing` has no schema
    objectSchema<Thing>('A thing.', { id: ID });
    // @ts-expect-error -- `headings` of `GetFileOutput` has no schema (a field added to the type alone)
    objectSchema<Pick<GetFileOutput, 'fileId' | 'headings'>>('File.', { fileId: ID });
  });

  it('refuses a property the type does not have', () => {
    // @ts-expect-error -- `extra` is not a field of `Thing`
    objectSchema<Thing>('A thing.', { id: ID, note: optional(NOTE), extra: ID });
  });

  it('refuses a required property marked optional, and an optional one left plain', () => {
    // @ts-expect-error -- `id` is required in `Thing`
    objectSchema<Thing>('A thing.', { id: optional(ID), note: optional(NOTE) });
    // @ts-expect-error -- `note` is optional in `Thing`: it must be wrapped in `optional`
    objectSchema<Thing>('A thing.', { id: ID, note: NOTE });
    // @ts-expect-error -- `cursorRestarted` is optional in `ReadRelatedOutput`
    objectSchema<Pick<ReadRelatedOutput, 'cursorRestarted'>>('Out.', { cursorRestarted: ID });
  });

  it('needs the type named: without it no property is allowed', () => {
    // @ts-expect-error -- T is not inferred from the properties
    objectSchema('A thing.', { id: ID });
  });
});
