import { describe, expect, it } from 'vitest';
import { isKnowledgeToolError, KnowledgeToolError } from '../../src/agent/errors/index.js';
import { startExploration } from '../../src/agent/exploration/index.js';
import { isKnowledgeError, type KnowledgeError } from '../../src/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { explorationSource } from '../helpers/scenarioSources.js';

const QUESTION = 'How are refunds paid?';

/** Await `promise`, expect an `EXPLORATION_LIMIT` rejection, and return it. */
async function limit(promise: Promise<unknown>): Promise<KnowledgeToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isKnowledgeToolError(error))
    throw new Error(`expected a KnowledgeToolError, got ${String(error)}`);
  expect(error.code).toBe('EXPLORATION_LIMIT');
  expect(error.httpStatus).toBe(409);
  return error;
}

describe('startExploration: options', () => {
  const { source } = explorationSource();
  it.each([
    [{ question: '' }, /blank/],
    [{ question: '   ' }, /blank/],
    [{ question: 42 }, /string/],
    [{ question: 'x'.repeat(2001) }, /2000 code points/],
    [{ question: 'q', maxReads: -1 }, /maxReads.*non-negative safe integer/],
    [{ question: 'q', maxFollowUps: 1.5 }, /maxFollowUps/],
    [{ question: 'q', maxReads: 2 ** 53 }, /maxReads/],
    [{ question: 'q', extra: 1 }, /no option `extra`/],
    ['q', /takes options/],
  ])('%j is KnowledgeError INVALID_INPUT, as every bad option', (options, message) => {
    let caught: unknown;
    try {
      startExploration(source, options as never);
    } catch (error) {
      caught = error;
    }
    expect(isKnowledgeError(caught)).toBe(true);
    expect(isKnowledgeToolError(caught)).toBe(false);
    expect((caught as KnowledgeError).code).toBe('INVALID_INPUT');
    expect((caught as KnowledgeError).message).toMatch(message);
    expect((caught as KnowledgeError).issues[0]?.path?.[0]).toBe('options');
  });

  it('accepts 2,000 code points of astral characters, trims, and takes null as the default', () => {
    const session = startExploration(source, {
      question: `  ${'😀'.repeat(2000)} `,
      maxReads: null,
      maxFollowUps: null,
    });
    expect(session.question).toBe('😀'.repeat(2000));
    expect(session.status).toEqual({
      searchesUsed: 0,
      followUpsLeft: 2,
      readsUsed: 0,
      readsLeft: 12,
      stopReason: null,
    });
  });

  it('refuses a source without the six methods', () => {
    expect(() => startExploration({ searchFiles: () => 1 } as never, { question: 'q' })).toThrow(
      /source\.listTree/,
    );
    expectKnowledgeError(() => startExploration({} as never, { question: 'q' }), {
      code: 'INVALID_INPUT',
      path: ['source', 'listTree'],
    });
  });
});

describe('search', () => {
  it('the first search must be the complete question; omitted, null, or equal after trimming', async () => {
    for (const query of [undefined, null, QUESTION, `  ${QUESTION}\n`]) {
      const { source, control } = explorationSource();
      const session = startExploration(source, { question: QUESTION });
      await session.search(query);
      expect(control.searches[0]!.query!.trim()).toBe(QUESTION);
    }
  });

  it('a first search with another query is EXPLORATION_LIMIT, and the source is not called', async () => {
    const { source, control } = explorationSource();
    const session = startExploration(source, { question: QUESTION });
    const error = await limit(session.search('refunds'));
    expect(error.message).toMatch(
      /first search must be the complete question "How are refunds paid\?"/,
    );
    expect(error.message).toMatch(/Search first with the complete question/);
    expect(error.details).toMatchObject({
      rule: 'first_search_is_question',
      status: { searchesUsed: 0 },
    });
    expect(control.calls['searchFiles']).toBeUndefined();
    expect(session.status.searchesUsed).toBe(0);
  });

  it('a follow-up needs a new page read since the previous search', async () => {
    const { source } = explorationSource();
    const session = startExploration(source, { question: QUESTION });
    await session.search();
    const error = await limit(session.search('refund window'));
    expect(error.message).toMatch(
      /Read a new page from the candidates before a follow-up search, or answer from the sources read/,
    );
    await session.read({ path: 'index.md' }); // navigation does not count
    await limit(session.search('refund window'));
    await session.read({ fileId: 'refunds' });
    await session.search('refund window');
    await session.read({ fileId: 'refunds' }); // a repeat is not new
    await session.read({ fileId: 'refunds' }, { sectionIds: ['window'] }); // another part of a page read already
    await limit(session.search('card refunds'));
    await session.read({ path: 'pages/billing.md' });
    await session.search('card refunds');
  });

  it('at most maxFollowUps follow-ups; then the message says to answer from the sources read', async () => {
    const { source } = explorationSource();
    const session = startExploration(source, { question: QUESTION, maxFollowUps: 1 });
    await session.search();
    await session.read({ fileId: 'refunds' });
    await session.search('billing invoices');
    await session.read({ fileId: 'billing' });
    const error = await limit(session.search('renewal'));
    expect(error.message).toBe(
      'All 1 follow-up searches are used. Answer from the sources read, or read candidates already found (10 reads left).',
    );
    expect(session.status).toMatchObject({
      searchesUsed: 2,
      followUpsLeft: 0,
      stopReason: 'budget_exhausted',
    });
  });

  it('paging with a nextCursor of this session and the same parameters is free; other cursors are searches', async () => {
    const { source, control } = explorationSource();
    const session = startExploration(source, { question: QUESTION });
    const first = await session.search(null, { limit: 1 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await session.search(QUESTION, { limit: 1, cursor: first.nextCursor });
    await session.search(undefined, { limit: 1, cursor: second.nextCursor, mode: 'hybrid' }); // defaults are the same parameters
    expect(control.calls['searchFiles']).toBe(3);
    expect(session.status.searchesUsed).toBe(1);
    // The same cursor with other parameters is a new search: a follow-up, refused before a new page.
    await limit(session.search(null, { limit: 2, cursor: first.nextCursor }));
    await limit(session.search(null, { cursor: 'not-a-cursor-of-this-session' }));
  });

  it('a failed search costs nothing and passes the error through unchanged', async () => {
    const { source, control } = explorationSource();
    const session = startExploration(source, { question: QUESTION, maxFollowUps: 1 });
    const failure = new KnowledgeToolError('SEARCH_UNAVAILABLE', 'down');
    control.failNext['searchFiles'] = failure;
    await expect(session.search()).rejects.toBe(failure);
    expect(session.status).toEqual({
      searchesUsed: 0,
      followUpsLeft: 1,
      readsUsed: 0,
      readsLeft: 12,
      stopReason: null,
    });
    await limit(session.read({ fileId: 'refunds' }));
    await session.search();
    await session.read({ fileId: 'refunds' });
    control.failNext['searchFiles'] = new KnowledgeToolError('SEARCH_TIMEOUT', 'slow');
    await expect(session.search('refund window')).rejects.toMatchObject({ code: 'SEARCH_TIMEOUT' });
    await session.search('refund window'); // the new page still counts, the follow-up is still left
    expect(session.status.followUpsLeft).toBe(0);
  });

  it('rejects bad arguments with INVALID_ARGUMENT', async () => {
    const { source } = explorationSource();
    const session = startExploration(source, { question: QUESTION });
    await expect(session.search(42 as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(session.search(null, { query: 'x' } as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(session.search(null, 'x' as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
