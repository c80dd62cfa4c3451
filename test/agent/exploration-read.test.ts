import { describe, expect, it } from 'vitest';
import { KnowledgeToolError } from '../../src/agent/errors/index.js';
import { startExploration } from '../../src/agent/exploration/index.js';
import {
  EXPLORATION_PAGES,
  explorationSource,
  scenarioSource,
} from '../helpers/scenarioSources.js';

const QUESTION = 'How are refunds paid?';

async function started(options: { maxReads?: number; maxFollowUps?: number } = {}) {
  const { source, control } = explorationSource();
  const session = startExploration(source, { question: QUESTION, ...options });
  await session.search();
  return { session, control };
}

describe('read', () => {
  it('comes after the first search', async () => {
    const { source, control } = explorationSource();
    const session = startExploration(source, { question: QUESTION });
    await expect(session.read({ fileId: 'refunds' })).rejects.toMatchObject({
      code: 'EXPLORATION_LIMIT',
      message: expect.stringMatching(/Search first with the complete question/),
    });
    for (const call of [
      () => session.listTree(),
      () => session.getFile({ fileId: 'refunds' }),
      () => session.readRelated({ fileId: 'refunds' }),
      () => session.expandGraph({ fileId: 'refunds' }),
    ]) {
      await expect(call()).rejects.toMatchObject({
        code: 'EXPLORATION_LIMIT',
        details: { rule: 'search_first' },
      });
    }
    expect(control.calls['readFile']).toBeUndefined();
  });

  it('a repeat by fileId or by path returns the earlier result, repeated, and costs nothing', async () => {
    const { session, control } = await started();
    const first = await session.read({ fileId: 'refunds' });
    expect(first.repeated).toBe(false);
    const byPath = await session.read({ path: 'pages/refunds.md' });
    const byId = await session.read(
      { fileId: 'refunds', path: null },
      { sectionIds: null, mode: null },
    );
    expect(byPath).toEqual({ ...first, repeated: true });
    expect(byId).toEqual({ ...first, repeated: true });
    expect(control.calls['readFile']).toBe(1);
    expect(session.status).toMatchObject({ readsUsed: 1, readsLeft: 11 });
    // Results are fresh: mutating one does not change the next.
    (byPath as { content: string }).content = 'changed';
    expect((await session.read({ fileId: 'refunds' })).content).toBe(first.content);
  });

  it('other options are another read; mode defaults to subtree; maxChars is a limit, not a selection', async () => {
    const { session, control } = await started();
    await session.read({ fileId: 'refunds' }, { sectionIds: ['window'] });
    expect(
      (
        await session.read(
          { path: 'pages/refunds.md' },
          { sectionIds: ['window'], mode: 'subtree' },
        )
      ).repeated,
    ).toBe(true);
    expect(
      (await session.read({ fileId: 'refunds' }, { sectionIds: ['window'], mode: 'self' }))
        .repeated,
    ).toBe(false);
    expect(
      (await session.read({ fileId: 'refunds' }, { sectionIds: ['window'], maxChars: 1000 }))
        .repeated,
    ).toBe(true);
    // An earlier result over a smaller maxChars goes to the source, which answers with a first part.
    const part = await session.read({ fileId: 'refunds' }, { sectionIds: ['window'], maxChars: 3 });
    expect(part.repeated).toBe(false);
    expect(part.nextCursor).not.toBeNull();
    expect(control.calls['readFile']).toBe(3);
    expect(session.status.readsUsed).toBe(3);
  });

  it('navigation reads count but are never evidence; evidence keeps read order, one entry per page selection', async () => {
    const { session } = await started();
    await session.read({ path: 'index.md' });
    await session.read({ fileId: 'billing' });
    await session.read({ path: '_graph/by-file/billing.json' });
    await session.read({ fileId: 'refunds' }, { sectionIds: ['window', 'card'] });
    await session.read({ path: 'pages/billing.md' });
    expect(session.status.readsUsed).toBe(4);
    const evidence = session.evidence();
    // What the source itself answers, read directly: evidence is that, never rewritten.
    const direct = scenarioSource(EXPLORATION_PAGES);
    const billing = await direct.readFile({ fileId: 'billing' });
    const sections = await direct.readFile({ fileId: 'refunds', sectionIds: ['window', 'card'] });
    expect(evidence).toEqual([
      {
        fileId: 'billing',
        path: 'pages/billing.md',
        title: 'Billing',
        revision: 'r1',
        snapshotId: billing.file.snapshotId,
        selection: { mode: 'document' },
        content: billing.content,
      },
      {
        fileId: 'refunds',
        path: 'pages/refunds.md',
        title: 'Refunds',
        revision: 'r1',
        snapshotId: sections.file.snapshotId,
        selection: { mode: 'subtree', sectionIds: ['window', 'card'] },
        content: sections.content,
      },
    ]);
    expect(sections.content).toContain('Refund window: 14 days.');
    expect(sections.content).toContain('Card refunds go back to the card.');
    (evidence[0] as { selection: unknown }).selection = { mode: 'self', sectionIds: [] };
    expect(session.evidence()[0]!.selection).toEqual({ mode: 'document' });
    expect(session.evidence()).not.toBe(session.evidence());
  });

  it('at most maxReads reads; a failed read costs nothing; repeats stay free at the limit', async () => {
    const { session, control } = await started({ maxReads: 2 });
    control.failNext['readFile'] = new KnowledgeToolError('NOT_FOUND', 'gone');
    await expect(session.read({ fileId: 'refunds' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'gone',
    });
    await expect(session.read({ fileId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await session.read({ fileId: 'refunds' });
    await session.read({ fileId: 'billing' });
    const error = (await session
      .read({ fileId: 'renewal' })
      .catch((e: unknown) => e)) as KnowledgeToolError;
    expect(error).toMatchObject({
      code: 'EXPLORATION_LIMIT',
      httpStatus: 409,
      details: { rule: 'reads_exhausted' },
    });
    expect(error.message).toBe(
      'All 2 reads are used. Answer from the sources read; rereading a page already read costs nothing.',
    );
    expect((await session.read({ path: 'pages/billing.md' })).repeated).toBe(true);
    expect(session.status).toMatchObject({
      readsUsed: 2,
      readsLeft: 0,
      stopReason: 'budget_exhausted',
    });
  });

  it('a malformed read never takes an earlier result: the source refuses it, at no cost', async () => {
    const { session, control } = await started();
    await session.read({ fileId: 'refunds' });
    for (const options of [
      { mode: 'self' },
      { bogus: 1 },
      { sectionIds: [] },
      { maxChars: 'big' },
    ]) {
      await expect(session.read({ fileId: 'refunds' }, options as never)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
    expect(control.calls['readFile']).toBe(5);
    expect(session.status.readsUsed).toBe(1);
  });

  it('checks its arguments and lets the source check the rest', async () => {
    const { session, control } = await started();
    for (const [target, options] of [
      [{}, null],
      [{ fileId: 'a', path: 'b' }, null],
      [{ fileId: 1 }, null],
      ['refunds', null],
      [{ fileId: 'refunds' }, { path: 'x' }],
      [{ fileId: 'refunds' }, 7],
    ] as const) {
      await expect(session.read(target as never, options as never)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
    expect(control.calls['readFile']).toBeUndefined();
    expect(session.status.readsUsed).toBe(0);
  });

  it('discovery calls after the first search are free and pass through', async () => {
    const { session, control } = await started();
    await session.listTree({ parentPath: '' });
    await session.getFile({ fileId: 'refunds' });
    await session.readRelated({ fileId: 'refunds' });
    expect((await session.expandGraph({ fileId: 'refunds' })).seedFile.fileId).toBe('refunds');
    await expect(session.getFile({ fileId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(control.calls).toMatchObject({
      listTree: 1,
      getFile: 2,
      readRelated: 1,
      expandGraph: 1,
    });
    expect(session.status).toEqual({
      searchesUsed: 1,
      followUpsLeft: 2,
      readsUsed: 0,
      readsLeft: 12,
      stopReason: null,
    });
  });
});

describe('status', () => {
  it('is a fresh object each time', async () => {
    const { session } = await started();
    const a = session.status;
    expect(a).not.toBe(session.status);
    (a as { readsUsed: number }).readsUsed = 99;
    expect(session.status.readsUsed).toBe(0);
  });

  it('stopReason: null before the first search even with no budget; budget_exhausted takes precedence over no_new_sources', async () => {
    const { source } = explorationSource();
    const session = startExploration(source, { question: QUESTION, maxFollowUps: 0, maxReads: 0 });
    expect(session.status.stopReason).toBeNull();
    await session.search();
    expect(session.status.stopReason).toBe('budget_exhausted');
    const empty = startExploration(source, { question: 'zzz qqq', maxFollowUps: 0 });
    await empty.search();
    expect(empty.status.stopReason).toBe('budget_exhausted');
  });

  it('no_new_sources after a search with no candidates, or whose candidates were all read already', async () => {
    const { source } = explorationSource();
    const none = startExploration(source, { question: 'zzz qqq' });
    await none.search();
    expect(none.status.stopReason).toBe('no_new_sources');

    const session = startExploration(source, { question: 'parcels ship' });
    const found = await session.search();
    expect(found.items.map((i) => i.fileId)).toEqual(['shipping']);
    expect(session.status.stopReason).toBeNull();
    await session.read({ fileId: 'shipping' });
    expect(session.status.stopReason).toBeNull(); // advice follows searches, not reads
    await session.search('shipping parcels');
    expect(session.status.stopReason).toBe('no_new_sources');
    await session.read({ fileId: 'refunds' });
    await session.search('refunds window');
    expect(session.status).toMatchObject({ followUpsLeft: 0, stopReason: 'budget_exhausted' });
  });
});

describe('concurrency', () => {
  it('two concurrent reads never both pass the last budget', async () => {
    const { session, control } = await started({ maxReads: 1 });
    control.delayMs = 5;
    const results = await Promise.allSettled([
      session.read({ fileId: 'refunds' }),
      session.read({ fileId: 'billing' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(session.status.readsUsed).toBe(1);
  });

  it('the same read twice at once goes to the source once; the second is a repeat', async () => {
    const { session, control } = await started({ maxReads: 1 });
    control.delayMs = 5;
    const [a, b] = await Promise.all([
      session.read({ fileId: 'refunds' }),
      session.read({ fileId: 'refunds' }),
    ]);
    expect([a.repeated, b.repeated]).toEqual([false, true]);
    expect(control.calls['readFile']).toBe(1);
    expect(session.evidence()).toHaveLength(1);
  });

  it('the same page by id and by path at once costs one read and appears once in evidence', async () => {
    const { session, control } = await started({ maxReads: 3 });
    control.delayMs = 5;
    const [a, b] = await Promise.all([
      session.read({ fileId: 'refunds' }),
      session.read({ path: 'pages/refunds.md' }),
    ]);
    expect([a.repeated, b.repeated].sort()).toEqual([false, true]);
    expect(control.calls['readFile']).toBe(2);
    expect(session.status.readsUsed).toBe(1);
    expect(session.evidence()).toHaveLength(1);
  });

  it('two concurrent follow-ups never both pass; reserved budgets show in status', async () => {
    const { session, control } = await started();
    await session.read({ fileId: 'refunds' });
    control.delayMs = 5;
    const first = session.search('refund window');
    expect(session.status).toMatchObject({ searchesUsed: 2, followUpsLeft: 1 });
    const results = await Promise.allSettled([first, session.search('card refunds')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(session.status).toMatchObject({ searchesUsed: 2, followUpsLeft: 1 });
  });

  it('a concurrent first search: the second waits its turn as a follow-up', async () => {
    const { source, control } = explorationSource();
    control.delayMs = 5;
    const session = startExploration(source, { question: QUESTION });
    const results = await Promise.allSettled([session.search(), session.search()]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
  });
});
