import fc from 'fast-check';
import { KNOWLEDGE_TOOLS } from '../../src/agent/internals.js';
import { describe, expect, it } from 'vitest';
import { callKnowledgeTool, knowledgeTools } from '../../src/agent/tools/index.js';
import type { JsonSchema, KnowledgeToolResult } from '../../src/agent/index.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';
import { createBrokenSource } from '../helpers/fakeSource.js';
import { billingSource } from '../helpers/scenarioSources.js';

const ERROR_KEYS = ['error', 'requestId'];

function expectWellFormed(
  result: KnowledgeToolResult,
  outputSchema: JsonSchema,
  ajv: ReturnType<typeof strictAjv>,
): void {
  expect(typeof result.isError).toBe('boolean');
  if (result.isError) {
    expect(Object.keys(result.structuredContent).sort()).toEqual(ERROR_KEYS);
    expect(typeof result.structuredContent.error.code).toBe('string');
    expect(typeof result.structuredContent.error.message).toBe('string');
    expect(typeof result.structuredContent.requestId).toBe('string');
  } else {
    expect(schemaErrors(ajv, outputSchema, result.structuredContent)).toBe('');
  }
  expect(() => JSON.stringify(result)).not.toThrow();
}

describe('execute never throws, whatever the input', () => {
  const ajv = strictAjv();
  const tools = [
    ...knowledgeTools(billingSource().source),
    ...knowledgeTools(createBrokenSource(), { prefix: 'broken_' }),
  ];
  const toolIndex = fc.nat({ max: tools.length - 1 });

  it('for any value as input and options', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolIndex,
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withSparseArray: true,
        }),
        fc.anything(),
        async (index, input, options) => {
          const tool = tools[index]!;
          const result = await tool.execute(input, options as never);
          expectWellFormed(result, tool.outputSchema, ajv);
        },
      ),
    );
  });

  it('for objects with the real keys and any values', async () => {
    // Every argument name any tool takes, from the registry.
    const keys = [...new Set(KNOWLEDGE_TOOLS.flatMap((tool) => Object.keys(tool.rules)))];
    await fc.assert(
      fc.asyncProperty(
        toolIndex,
        fc.dictionary(fc.constantFrom(...keys), fc.jsonValue()),
        async (index, input) => {
          const tool = tools[index]!;
          expectWellFormed(await tool.execute(input), tool.outputSchema, ajv);
        },
      ),
    );
  });

  it('for callKnowledgeTool with any name and any JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...tools.map((tool) => tool.name)), fc.string()),
        fc.oneof(fc.string(), fc.json()),
        async (name, args) => {
          const tool = tools.find((candidate) => candidate.name === name);
          expectWellFormed(
            await callKnowledgeTool(tools, name, args),
            tool?.outputSchema ?? {},
            ajv,
          );
        },
      ),
    );
  });
});
