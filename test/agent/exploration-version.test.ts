/**
 * An exploration is bound to one version, chosen at its start: every call it makes names that
 * version (none when it was started without one), and a call naming another is `INVALID_ARGUMENT`.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource, type KnowledgeSource } from '../../src/agent/index.js';
import { explorationTools, startExploration } from '../../src/agent/exploration/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { catchKnowledgeError, expectKnowledgeError } from '../helpers/knowledgeError.js';

const QUESTION = 'How does an agent explore?';
const PAGE = 'exploration';

/** `source`, recording the input of every call. */
function recorded(source: KnowledgeSource): { source: KnowledgeSource; inputs: unknown[] } {
  const inputs: unknown[] = [];
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(source))
    wrapped[name] = (input: unknown, context?: unknown) => {
      inputs.push(input);
      return (method as (i: unknown, c?: unknown) => Promise<unknown>).call(source, input, context);
    };
  return { source: wrapped as unknown as KnowledgeSource, inputs };
}

describe('startExploration { version }', () => {
  const labelled = createCatalogSource(exampleCatalog(), exampleSourceOptions({ version: '3.x' }));

  it('names its version in every call, and every output is of that version', async () => {
    const { source, inputs } = recorded(labelled);
    const session = startExploration(source, { question: QUESTION, version: '3.x' });
    expect((await session.search()).version).toBe('3.x');
    expect((await session.read({ fileId: PAGE })).file.version).toBe('3.x');
    expect((await session.getFile({ fileId: PAGE })).version).toBe('3.x');
    expect((await session.listTree()).version).toBe('3.x');
    await session.readRelated({ fileId: PAGE });
    expect((await session.expandGraph({ fileId: PAGE, version: '3.x' })).version).toBe('3.x');
    expect(inputs).toHaveLength(6);
    for (const input of inputs) expect(input).toMatchObject({ version: '3.x' });
  });

  it('without `version`, names none: the source answers from its default', async () => {
    const { source, inputs } = recorded(labelled);
    const session = startExploration(source, { question: QUESTION });
    expect((await session.search()).version).toBe('3.x');
    await session.read({ fileId: PAGE });
    await session.listTree();
    for (const input of inputs) expect(input).not.toHaveProperty('version');
  });

  it('refuses a call naming another version with INVALID_ARGUMENT, before the source is called', async () => {
    const { source, inputs } = recorded(labelled);
    const session = startExploration(source, { question: QUESTION, version: '3.x' });
    await expectKnowledgeError(session.search(null, { version: '2.x' }), {
      code: 'INVALID_ARGUMENT',
      message:
        /^`search`: this exploration is bound to version `3\.x`, so a call cannot name version "2\.x"\. .*startExploration\(source, \{ question, version \}\)/,
    });
    await session.search();
    await expectKnowledgeError(session.read({ fileId: PAGE }, { version: 'current' }), {
      code: 'INVALID_ARGUMENT',
      message: /^`read`: this exploration is bound to version `3\.x`/,
    });
    await expectKnowledgeError(session.getFile({ fileId: PAGE, version: '2.x' }), {
      code: 'INVALID_ARGUMENT',
      message: /^`getFile`: this exploration is bound to version `3\.x`/,
    });
    const unbound = startExploration(source, { question: QUESTION });
    await expectKnowledgeError(unbound.search(null, { version: '3.x' }), {
      code: 'INVALID_ARGUMENT',
      message: /bound to the default version \(it was started without `version`\)/,
    });
    // Only the one search that was allowed reached the source.
    expect(inputs).toHaveLength(1);
  });

  it("a version the source lacks is the source's VERSION_NOT_FOUND on the first call", async () => {
    const session = startExploration(labelled, { question: QUESTION, version: '9.x' });
    await expectKnowledgeError(session.search(), { code: 'VERSION_NOT_FOUND' });
  });

  it('throws INVALID_INPUT at start for a `version` that is no label, naming it', () => {
    const error = catchKnowledgeError(() =>
      startExploration(labelled, { question: QUESTION, version: '3 x' }),
    );
    expect(error.issues).toEqual([
      {
        code: 'INVALID_INPUT',
        path: ['options', 'version'],
        message: expect.stringMatching(
          /^`startExploration`: `version` must be a version label \(character 2/,
        ),
      },
    ]);
  });

  it('the exploration tools carry the version too', async () => {
    const session = startExploration(labelled, { question: QUESTION, version: '3.x' });
    const [search, read] = explorationTools(session);
    const found = await search!.execute({ query: null });
    expect(found).toMatchObject({ isError: false, structuredContent: { version: '3.x' } });
    const refused = await read!.execute({ fileId: PAGE, version: '2.x' });
    expect(JSON.stringify(refused)).toContain('INVALID_ARGUMENT');
  });
});
