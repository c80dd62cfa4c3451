/**
 * `diffSources` against a model: two random versions of a set of pages, each page a list of headings
 * with bodies, compared by the package and by the model's own bookkeeping. Also the identities: a
 * version against itself has no difference, and the reverse diff mirrors the forward one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffSources, type KnowledgeVersionDiff } from '../../src/agent/internals.js';
import { scenarioSource } from '../helpers/scenarioSources.js';

/** A heading of a model page: its title (unique in the page) and the body under it. */
interface ModelHeading {
  readonly title: string;
  readonly body: string;
}
/** A model version: page path → headings in page order. */
type ModelVersion = ReadonlyMap<string, readonly ModelHeading[]>;

const PATHS = ['pages/a.md', 'pages/b.md', 'pages/c/d.md', 'pages/e.md'] as const;
const TITLES = ['Alpha', 'Beta', 'Gamma', 'Delta'] as const;

const body = fc
  .array(fc.constantFrom('red', 'green', 'blue', 'lime'), { minLength: 1, maxLength: 3 })
  .map((words) => words.join(' '));
const page = fc
  .uniqueArray(fc.constantFrom(...TITLES), { minLength: 1, maxLength: TITLES.length })
  .chain((titles) =>
    fc.tuple(...titles.map((title) => body.map((text): ModelHeading => ({ title, body: text })))),
  );
const version: fc.Arbitrary<ModelVersion> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: PATHS.length })
  .chain((paths) =>
    fc.tuple(...paths.map(() => page)).map((pages) => new Map(paths.map((p, i) => [p, pages[i]!]))),
  );

function textOf(headings: readonly ModelHeading[]): string {
  return headings.map((h) => `## ${h.title}\n\n${h.body}\n`).join('\n');
}

function sourceOf(model: ModelVersion) {
  return scenarioSource(
    [...model].map(([path, headings]) => ({
      id: path.replace(/[/.]/g, '-'),
      path,
      text: textOf(headings),
    })),
  );
}

/** What the model says the diff is. */
function modelDiff(
  from: ModelVersion,
  to: ModelVersion,
): Omit<KnowledgeVersionDiff, 'from' | 'to'> {
  const sorted = (paths: Iterable<string>) => [...paths].sort();
  const changed = [];
  let unchanged = 0;
  for (const path of sorted(to.keys())) {
    const before = from.get(path);
    if (before === undefined) continue;
    const after = to.get(path)!;
    if (textOf(before) === textOf(after)) {
      unchanged++;
      continue;
    }
    const old = new Map(before.map((h) => [h.title.toLowerCase(), h.body]));
    const now = new Set(after.map((h) => h.title.toLowerCase()));
    changed.push({
      path,
      frontmatterChanged: false,
      sections: { added: [], removed: [], changed: [] },
      headings: {
        added: after
          .filter((h) => !old.has(h.title.toLowerCase()))
          .map((h) => h.title.toLowerCase()),
        removed: before
          .filter((h) => !now.has(h.title.toLowerCase()))
          .map((h) => h.title.toLowerCase()),
        changed: after
          .filter(
            (h) => old.has(h.title.toLowerCase()) && old.get(h.title.toLowerCase()) !== h.body,
          )
          .map((h) => h.title.toLowerCase()),
      },
    });
  }
  return {
    added: sorted([...to.keys()].filter((p) => !from.has(p))),
    removed: sorted([...from.keys()].filter((p) => !to.has(p))),
    changed,
    unchanged,
  };
}

describe('diffSources', () => {
  it('finds exactly the pages and headings the model changed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(version, version, async (a, b) => {
        const diff = await diffSources(
          { label: 'a', source: sourceOf(a) },
          { label: 'b', source: sourceOf(b) },
        );
        expect(diff).toEqual({ from: 'a', to: 'b', ...modelDiff(a, b) });
      }),
      { seed: 20261207, numRuns: 60 },
    );
  });

  it('a version against itself has no difference; the reverse diff mirrors the forward one (property)', async () => {
    await fc.assert(
      fc.asyncProperty(version, version, async (a, b) => {
        const same = await diffSources(
          { label: 'a', source: sourceOf(a) },
          { label: 'a', source: sourceOf(a) },
        );
        expect(same).toEqual({
          from: 'a',
          to: 'a',
          added: [],
          removed: [],
          changed: [],
          unchanged: a.size,
        });
        const forward = await diffSources(
          { label: 'a', source: sourceOf(a) },
          { label: 'b', source: sourceOf(b) },
        );
        const backward = await diffSources(
          { label: 'b', source: sourceOf(b) },
          { label: 'a', source: sourceOf(a) },
        );
        expect(backward.added).toEqual(forward.removed);
        expect(backward.removed).toEqual(forward.added);
        expect(backward.unchanged).toBe(forward.unchanged);
        expect(backward.changed.map((c) => c.path)).toEqual(forward.changed.map((c) => c.path));
        backward.changed.forEach((change, i) => {
          const other = forward.changed[i]!;
          expect([...change.headings.added].sort()).toEqual([...other.headings.removed].sort());
          expect([...change.headings.removed].sort()).toEqual([...other.headings.added].sort());
          expect([...change.headings.changed].sort()).toEqual([...other.headings.changed].sort());
        });
      }),
      { seed: 7122026, numRuns: 40 },
    );
  });

  it('reads a page in parts when it is over the read limit, and still finds the one changed heading', async () => {
    const long = (word: string) => `## Long\n\n${`${word} `.repeat(30_000)}\n\n## Tail\n\nend\n`;
    const source = (text: string) => scenarioSource([{ id: 'p', path: 'pages/p.md', text }]);
    const diff = await diffSources(
      { label: 'a', source: source(long('alpha')) },
      { label: 'b', source: source(long('alpha').replace('end', 'fin')) },
    );
    expect(diff.changed).toEqual([
      {
        path: 'pages/p.md',
        frontmatterChanged: false,
        sections: { added: [], removed: [], changed: [] },
        headings: { added: [], removed: [], changed: ['tail'] },
      },
    ]);
  });

  it('skips reading pages whose sha256 revisions are the same, and reads those whose are not', async () => {
    const reads: string[] = [];
    const counted = (rev: string) => {
      const inner = scenarioSource([{ id: 'p', path: 'pages/p.md', text: '# P\n\nSame.\n' }]);
      return {
        ...inner,
        listTree: inner.listTree.bind(inner),
        getFile: async (input: { readonly fileId: string }) => ({
          ...(await inner.getFile(input)),
          revision: rev,
        }),
        readFile: async (input: Parameters<typeof inner.readFile>[0]) => {
          reads.push(rev);
          return inner.readFile(input);
        },
      } as typeof inner;
    };
    const same = await diffSources(
      { label: 'a', source: counted('sha256:1') },
      { label: 'b', source: counted('sha256:1') },
    );
    expect([same.unchanged, reads.length]).toEqual([1, 0]);
    const other = await diffSources(
      { label: 'a', source: counted('sha256:1') },
      { label: 'b', source: counted('sha256:2') },
    );
    expect(other.unchanged).toBe(1);
    expect(reads.length).toBeGreaterThan(0);
  });
});
