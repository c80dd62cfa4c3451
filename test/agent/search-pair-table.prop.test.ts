import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChunks, buildBm25fIndex, indexTokens } from '../../src/agent/search/index.js';
import { sortPairOccurrences } from '../../src/agent/search/bm25fIndex.js';
import { corpusOf, searchFixture, type TestPage } from '../helpers/search-fixtures.js';

// The pair table and pair postings of the index, against a count of every text scanned again, and
// the sort they are built with, against a plain stable sort.

const WORDS = ['state', 'props', 'the', 'of', 'rune', 'State', '计算属性', '响应式', '𠀀𠀁', 'x'];
const SEPARATORS = [' ', '  ', '\n', '. ', '，'];
const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 40 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));
const pages = fc
  .array(fc.array(text, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 })
  .map((docs) =>
    docs.map((paragraphs, i): TestPage => ({
      id: `p${i}`,
      // Each paragraph its own section, so that a page has several chunks.
      text: paragraphs
        .map(
          (t, k) => `<!-- agent-section:s${k} -->\n\n${t || 'x'}\n\n<!-- /agent-section:s${k} -->`,
        )
        .join('\n\n'),
      tags: [],
      title: `Page ${i}`,
    })),
  );

/** Every adjacent pair of a chunk's text as the index pairs them, counted by scanning it again. */
function pairsOf(chunkText: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (key: string) => out.set(key, (out.get(key) ?? 0) + 1);
  let previous: string | undefined;
  const cjk: { token: string; start: number }[] = [];
  indexTokens(chunkText, (token, isCjk, compound, start) => {
    if (compound) return;
    if (isCjk) {
      previous = undefined;
      const one = cjk[cjk.length - 1];
      if (one !== undefined && start !== one.start + 1 && start !== one.start + 2) cjk.length = 0;
      const two = cjk[cjk.length - 2];
      if (two !== undefined) add(`${two.token} ${token}`);
      cjk.push({ token, start });
      return;
    }
    cjk.length = 0;
    if (previous !== undefined) add(`${previous} ${token}`);
    previous = token;
  });
  return out;
}

describe('the pair table', () => {
  it('numbers every pair the chunks hold once, in term order, with its chunks, counts and pages', async () => {
    await fc.assert(
      fc.asyncProperty(pages, async (testPages) => {
        const corpus = corpusOf(searchFixture(testPages));
        const chunks = buildChunks(corpus);
        const index = await buildBm25fIndex(chunks, corpus.pages);
        // Expected: pair key → chunk → count.
        const want = new Map<string, Map<number, number>>();
        chunks.textOf.forEach((t, c) => {
          for (const [key, n] of pairsOf(t)) {
            let byChunk = want.get(key);
            if (byChunk === undefined) want.set(key, (byChunk = new Map()));
            byChunk.set(c, n);
          }
        });
        expect(index.pairs.size).toBe(want.size);
        const seen: [number, number, number][] = [];
        index.pairs.forEach((a, b, q) => seen.push([a, b, q]));
        // Every pair once, numbered 0… in order of first term, then second term.
        expect(seen.map(([, , q]) => q)).toEqual(seen.map((_, i) => i));
        for (let i = 1; i < seen.length; i++) {
          const [a0, b0] = seen[i - 1]!;
          const [a1, b1] = seen[i]!;
          expect(a0 < a1 || (a0 === a1 && b0 < b1)).toBe(true);
        }
        const p = index.pairPostings;
        for (const [a, b, q] of seen) {
          const key = `${index.termList[a]} ${index.termList[b]}`;
          expect(index.pairs.get(a, b)).toBe(q);
          const byChunk = want.get(key);
          expect(byChunk, key).toBeDefined();
          const docs = [...p.docs.subarray(p.start[q]!, p.start[q + 1]!)];
          const tfs = [...p.tfs.subarray(p.start[q]!, p.start[q + 1]!)];
          expect(docs).toEqual([...byChunk!.keys()].sort((x, y) => x - y));
          expect(tfs).toEqual(docs.map((c) => byChunk!.get(c)));
          expect(index.pairFrequency[q]).toBe(new Set(docs.map((c) => chunks.pageOf[c])).size);
        }
        // A pair no chunk holds is not found, nor a term past the table's end.
        for (let a = 0; a < index.termList.length; a++)
          for (let b = 0; b < index.termList.length; b++) {
            const key = `${index.termList[a]} ${index.termList[b]}`;
            if (!want.has(key)) expect(index.pairs.get(a, b)).toBe(-1);
          }
        expect(index.pairs.get(index.termList.length, 0)).toBe(-1);
        expect(index.pairs.get(-1, 0)).toBe(-1);
      }),
    );
  });

  it('sorts occurrences by first term, then second term, keeping their order among equal pairs, for any number of terms', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 7, 300, 65_536, 65_537, 1 << 20, 2 ** 31 - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: 50 })), { maxLength: 200 }),
        fc.nat({ max: 5 }),
        (termCount, raw, spare) => {
          const rows = raw.map(([a, b, c]) => [a % termCount, b % termCount, c] as const);
          const n = rows.length;
          const size = n + spare;
          const column = (k: 0 | 1 | 2) => {
            const out = new Int32Array(size);
            rows.forEach((r, i) => (out[i] = r[k]));
            return out;
          };
          const sorted = sortPairOccurrences(
            n,
            {
              a: column(0),
              b: column(1),
              c: column(2),
              a2: new Int32Array(size),
              b2: new Int32Array(size),
              c2: new Int32Array(size),
            },
            termCount,
          );
          // Array.prototype.sort is stable.
          const want = [...rows].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
          const got = Array.from({ length: n }, (_, i) => [sorted.a[i], sorted.b[i], sorted.c[i]]);
          expect(got).toEqual(want.map((r) => [...r]));
        },
      ),
    );
  });
});
