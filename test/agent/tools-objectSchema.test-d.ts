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
import { defineTool, type ToolArgs } from '../../src/agent/tools/defineTool.js';
import { stringArg } from '../../src/agent/tools/args.js';
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

/** A toy tool's input: `defineTool` wants one argument rule for each field but `version`. */
interface ToyInput {
  readonly text?: string | null | undefined;
  readonly version?: string | null | undefined;
}

const TOY = {
  name: 'toy',
  method: 'toy',
  title: 'Toy',
  description: 'A toy.',
  outputSchema: {},
  http: { routes: [] },
  client: { shape: {} },
  run: (_state: never, _scope: never, _args: ToolArgs<ToyInput>) => ({}),
};

describe('defineTool', () => {
  it('takes a rule for each input field but version', () => {
    defineTool({ ...TOY, args: { text: stringArg({ description: 'Text.' }) } });
  });

  it('refuses an input field without its rule', () => {
    // @ts-expect-error -- `text` of `ToyInput` has no argument rule
    defineTool({ ...TOY, args: {} });
  });
});
