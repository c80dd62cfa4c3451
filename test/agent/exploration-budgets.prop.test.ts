import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKnowledgeToolError, KnowledgeToolError } from '../../src/agent/errors/index.js';
import { startExploration, type ExplorationSession } from '../../src/agent/exploration/index.js';
import { createCatalogSource } from '../../src/agent/index.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import {
  exampleCatalog,
  exampleManifest,
  exampleSourceOptions,
} from '../helpers/exampleKnowledge.js';
import { fakeSource, type FakeSourceControl } from '../helpers/fakeSource.js';
import { EXPLORATION_PAGES, explorationSource } from '../helpers/scenarioSources.js';

/** A knowledge base to explore: its source, question, queries, files and section selections. */
interface World {
  readonly name: string;
  readonly make: () => { source: KnowledgeSource; control: FakeSourceControl };
  readonly question: string;
  readonly queries: readonly string[];
  /** Page fileId → path. */
  readonly pages: Readonly<Record<string, string>>;
  /** Navigation files and a missing one. */
  readonly others: readonly string[];
  readonly sectionSets: readonly (readonly string[])[];
}

const SCENARIO: World = {
  name: 'the five-page scenario',
  make: explorationSource,
  question: 'How are refunds paid?',
  queries: ['refund window', 'invoices billing', 'zzz', 'returns'],
  pages: Object.fromEntries(EXPLORATION_PAGES.map((p) => [p.id, p.path])),
  others: ['index.md', '_graph/by-file/refunds.json', 'missing'],
  sectionSets: [['window'], ['card', 'window']],
};

const catalogSource = createCatalogSource(exampleCatalog(), exampleSourceOptions());
const REAL: World = {
  name: 'the example catalog',
  make: () => fakeSource({}, { base: catalogSource }),
  question: '智能体的探索流程什么时候停止？',
  queries: ['search empty result', '游标 版本', 'anchored sections', 'zzzz'],
  pages: Object.fromEntries(exampleManifest().map((e) => [e.id, e.path])),
  others: ['index.md', '_graph/by-file/agent-tools.json', 'missing'],
  sectionSets: [['search.empty'], ['search', 'cursors']],
};

type Command =
  | {
      readonly kind: 'search';
      readonly query: string | null;
      readonly limit: number | null;
      readonly cursor: 'none' | 'last' | 'bogus';
    }
  | {
      readonly kind: 'read';
      readonly byPath: boolean;
      readonly file: string;
      readonly sectionIds: readonly string[] | null;
      readonly mode: 'self' | 'subtree' | null;
    }
  | { readonly kind: 'fail'; readonly method: 'searchFiles' | 'readFile' }
  | { readonly kind: 'parallel'; readonly commands: readonly Command[] };

function commands(world: World): fc.Arbitrary<Command[]> {
  const files = [...Object.keys(world.pages), ...world.others];
  const simple: fc.Arbitrary<Command> = fc.oneof(
    fc.record({
      kind: fc.constant('search' as const),
      query: fc.constantFrom(null, world.question, ` ${world.question} `, ...world.queries),
      limit: fc.constantFrom(null, 1, 2),
      cursor: fc.constantFrom('none' as const, 'last' as const, 'bogus' as const),
    }),
    fc.record({
      kind: fc.constant('read' as const),
      byPath: fc.boolean(),
      file: fc.constantFrom(...files),
      sectionIds: fc.constantFrom(null, ...world.sectionSets),
      mode: fc.constantFrom(null, 'self' as const, 'subtree' as const),
    }),
    fc.record({
      kind: fc.constant('fail' as const),
      method: fc.constantFrom('searchFiles' as const, 'readFile' as const),
    }),
  );
  /** The same page read by fileId and by path at once: the race only the result can settle. */
  const twins: fc.Arbitrary<Command> = fc
    .tuple(
      fc.constantFrom(...Object.keys(world.pages)),
      fc.constantFrom(null, world.sectionSets[0]!),
    )
    .map(([file, sectionIds]) => ({
      kind: 'parallel' as const,
      commands: [true, false].map((byPath) => ({
        kind: 'read' as const,
        byPath,
        file,
        sectionIds,
        mode: null,
      })),
    }));
  const command: fc.Arbitrary<Command> = fc.oneof(
    { weight: 4, arbitrary: simple },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('parallel' as const),
        commands: fc.array(simple, { minLength: 2, maxLength: 3 }),
      }),
    },
    { weight: 1, arbitrary: twins },
  );
  return fc.array(command, { maxLength: 25 });
}

async function run(
  world: World,
  session: ExplorationSession,
  control: FakeSourceControl,
  cmd: Command,
  last: { cursor: string | null },
): Promise<void> {
  switch (cmd.kind) {
    case 'parallel':
      await Promise.all(cmd.commands.map((c) => run(world, session, control, c, last)));
      return;
    case 'fail':
      control.failNext[cmd.method] = new KnowledgeToolError('SEARCH_UNAVAILABLE', 'injected');
      return;
    case 'search': {
      const cursor = cmd.cursor === 'none' ? null : cmd.cursor === 'last' ? last.cursor : 'c:7';
      const output = await session
        .search(cmd.query, { limit: cmd.limit, cursor })
        .catch(expectToolError);
      if (output !== undefined) last.cursor = output.nextCursor;
      return;
    }
    case 'read': {
      const target = cmd.byPath
        ? { path: world.pages[cmd.file] ?? cmd.file }
        : { fileId: cmd.file };
      await session
        .read(target, { sectionIds: cmd.sectionIds, mode: cmd.mode })
        .catch(expectToolError);
    }
  }
}

function expectToolError(error: unknown): undefined {
  expect(isKnowledgeToolError(error), String(error)).toBe(true);
  return undefined;
}

describe.each([SCENARIO, REAL])(
  'exploration budgets over random call sequences on $name',
  (world) => {
    it('reads ≤ maxReads, follow-ups ≤ maxFollowUps and only after a new page, no page selection twice in evidence, status adds up', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: 3 }),
          fc.nat({ max: 5 }),
          commands(world),
          async (maxFollowUps, maxReads, cmds) => {
            const { source, control } = world.make();
            const session = startExploration(source, {
              question: world.question,
              maxFollowUps,
              maxReads,
            });
            const last = { cursor: null as string | null };
            let searches = 0;
            let pagesAtSearch = 0;
            for (const cmd of cmds) {
              await run(world, session, control, cmd, last);
              const status = session.status;
              // A follow-up only after a new page (a fileId not in evidence before) since the previous search.
              const pages = new Set(session.evidence().map((e) => e.fileId)).size;
              if (status.searchesUsed > searches) {
                if (searches > 0) expect(pages).toBeGreaterThan(pagesAtSearch);
                searches = status.searchesUsed;
                pagesAtSearch = pages;
              }
              expect(status.readsUsed).toBeLessThanOrEqual(maxReads);
              expect(status.readsUsed + status.readsLeft).toBe(maxReads);
              expect(status.followUpsLeft + Math.max(0, status.searchesUsed - 1)).toBe(
                maxFollowUps,
              );
              expect(status.searchesUsed).toBeLessThanOrEqual(1 + maxFollowUps);
              if (status.searchesUsed === 0) expect(status.stopReason).toBeNull();
              if (status.searchesUsed > 0 && (status.readsLeft === 0 || status.followUpsLeft === 0))
                expect(status.stopReason).toBe('budget_exhausted');
            }
            // The source saw at most 1 + maxFollowUps searches that were not page continuations, the first being the question.
            const fresh = control.searches.filter((input) => input.cursor == null);
            expect(fresh.length).toBeLessThanOrEqual(1 + maxFollowUps);
            if (control.searches.length > 0)
              expect(control.searches[0]!.query!.trim()).toBe(world.question);
            // Evidence: pages only, each page selection once, no more entries than reads paid for.
            const evidence = session.evidence();
            expect(evidence.length).toBeLessThanOrEqual(session.status.readsUsed);
            const keys = evidence.map((e) => `${e.fileId} ${JSON.stringify(e.selection)}`);
            expect(new Set(keys).size).toBe(keys.length);
            expect(new Set(evidence.map((e) => e.snapshotId)).size).toBe(evidence.length);
            for (const entry of evidence) expect(Object.values(world.pages)).toContain(entry.path);
          },
        ),
      );
    });
  },
);
