import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildChunks,
  buildBm25fIndex,
  CHUNK_SHARE,
  CUT,
  FIELD_MODEL,
  FILE_FIELDS,
  indexTokens,
  lexicalSearch,
  planQuery,
  tokenize,
  WHITESPACE_RUN,
} from '../../src/agent/search/index.js';
import { sortPages } from '../../src/agent/search/lexicalSearch.js';
import type { KnowledgeDocument, KnowledgePart } from '../../src/index.js';
import {
  corpusOf,
  rankerOf,
  searchFixture,
  searchRequest,
  type TestPage,
} from '../helpers/search-fixtures.js';

const WORDS = [
  'renewal',
  'notice',
  'Billing',
  'ＦＵＬＬ',
  'café',
  'invoice',
  '退货',
  '政策',
  '配送',
  'カタカナ',
  '한국어',
  '𠀀𠀁',
  'ship',
  'days',
  'refund',
  '…',
];
const SPACES = [' ', ' ', '  ', '\n', '\t', '\u3000', '，', '. '];
const word = fc.constantFrom(...WORDS);
const paragraph = fc
  .array(fc.tuple(word, fc.constantFrom(...SPACES)), { minLength: 1, maxLength: 30 })
  .map((pairs) =>
    pairs
      .map(([w, s]) => w + s)
      .join('')
      .trim(),
  );

interface Tree {
  readonly paragraphs: readonly string[];
  readonly children: readonly Tree[];
}
const node = (depth: number): fc.Arbitrary<Tree> =>
  fc.record({
    paragraphs: fc.array(paragraph, { maxLength: 3 }),
    children: depth === 0 ? fc.constant([]) : fc.array(node(depth - 1), { maxLength: 2 }),
  });
const tree = node(3);

function render(root: Tree): string {
  let next = 0;
  const out: string[] = [...root.paragraphs];
  const walk = (node: Tree): void => {
    const id = `s${next++}`;
    out.push(`<!-- agent-section:${id} -->`, ...node.paragraphs);
    node.children.forEach(walk);
    out.push(`<!-- /agent-section:${id} -->`);
  };
  root.children.forEach(walk);
  return out.join('\n\n');
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Every text an excerpt may come from: each section's own text, the document's own text, its start. */
function excerptSources(document: KnowledgeDocument): string[] {
  const sources: string[] = [];
  const all: string[] = [];
  const visit = (parts: readonly KnowledgePart[]): void => {
    sources.push(collapse(parts.filter((p): p is string => typeof p === 'string').join('\n\n')));
    for (const part of parts) {
      if (typeof part === 'string') all.push(part);
      else visit(part.parts);
    }
  };
  visit(document.parts);
  sources.push(collapse(all.join(' ')));
  return sources;
}

const corpus = fc
  .array(fc.tuple(tree, fc.array(word, { maxLength: 2 }), fc.array(word, { maxLength: 3 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((docs) =>
    docs.map(([root, tags, title], i): TestPage => ({
      id: `p${i}`,
      text: render(root),
      tags: tags.map((t) => t.toLowerCase()),
      // Titles of query words too, so that the title match is exercised.
      title: title.length === 0 ? `Page ${i}` : title.join(' '),
    })),
  );
const query = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

describe('search properties', () => {
  it('every excerpt is the page’s own words, within excerptChars; one item per file; scores positive and descending', async () => {
    await fc.assert(
      fc.asyncProperty(
        corpus,
        query,
        fc.integer({ min: 3, max: 80 }),
        fc.constantFrom('hybrid' as const, 'file' as const, 'graph' as const),
        async (pages, q, excerptChars, mode) => {
          const fixture = searchFixture(pages);
          const engine = rankerOf(fixture, {
            excerptChars,
          });
          const { hits } = await engine.rank(searchRequest(q, { mode }));
          expect(new Set(hits.map((h) => h.fileId)).size).toBe(hits.length);
          hits.forEach((hit, i) => {
            expect(hit.score).toBeGreaterThan(0);
            if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]!.score);
            const excerpt = hit.sourceExcerpt;
            expect([...excerpt].length).toBeLessThanOrEqual(excerptChars);
            // Dropping a mark at either end keeps a substring a substring, so strip them unconditionally.
            let core = excerpt.startsWith(CUT) ? excerpt.slice(1) : excerpt;
            core = core.endsWith(CUT) ? core.slice(0, -1) : core;
            const sources = excerptSources(fixture.catalog.document(hit.fileId));
            expect(sources.some((s) => s.includes(core))).toBe(true);
            const sections = new Set(fixture.catalog.sectionIds(hit.fileId));
            expect(hit.sectionIds.length).toBeLessThanOrEqual(3);
            expect(new Set(hit.sectionIds).size).toBe(hit.sectionIds.length);
            for (const id of hit.sectionIds) expect(sections.has(id)).toBe(true);
            expect(
              ['title', 'path', 'description', 'tags', 'content'].filter((f) =>
                hit.matchedFields.includes(f as never),
              ),
            ).toEqual(hit.matchedFields);
            expect(
              ['content', 'metadata', 'semantic', 'graph'].filter((f) =>
                hit.evidenceTypes.includes(f as never),
              ),
            ).toEqual(hit.evidenceTypes);
            if (mode === 'file') expect(hit.matchedFields).not.toContain('content');
          });
        },
      ),
    );
  });

  it('lexicalSearch gives the BM25F scores a brute-force count over every chunk and field gives: same pages, scores, best chunks, sections, fields', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, query, fc.boolean(), async (pages, q, fileOnly) => {
        const fixture = searchFixture(pages);
        const corpusPages = corpusOf(fixture).pages;
        const chunks = buildChunks(corpusOf(fixture));
        const index = await buildBm25fIndex(chunks, corpusPages);
        const plan = planQuery(q, index);
        const { k1, weight, b, titleMatch } = FIELD_MODEL;
        const sat = (x: number) => (x * (k1 + 1)) / (k1 + x);
        // Every token and word pair of a text, counted by scanning it again.
        const scan = (text: string) => {
          const tokens = new Map<string, number>();
          const pairs = new Map<string, number>();
          let length = 0;
          let previous: string | undefined;
          const cjk: { token: string; start: number }[] = [];
          indexTokens(text, (token, isCjk, compound, start) => {
            tokens.set(token, (tokens.get(token) ?? 0) + 1);
            if (compound) return;
            length++;
            if (isCjk) {
              previous = undefined;
              const two = cjk[cjk.length - 2];
              const one = cjk[cjk.length - 1];
              if (one !== undefined && start !== one.start + 1 && start !== one.start + 2)
                cjk.length = 0;
              else if (two !== undefined && one !== undefined) {
                const key = `${two.token} ${token}`;
                pairs.set(key, (pairs.get(key) ?? 0) + 1);
              }
              cjk.push({ token, start });
              return;
            }
            cjk.length = 0;
            if (previous !== undefined) {
              const key = `${previous} ${token}`;
              pairs.set(key, (pairs.get(key) ?? 0) + 1);
            }
            previous = token;
          });
          return { tokens, pairs, length };
        };
        const fieldTexts = corpusPages.map((page) => [
          page.title,
          page.path,
          page.description ?? '',
          page.tags.join('\n'),
        ]);
        const fields = fieldTexts.map((texts) => texts.map(scan));
        const texts = chunks.textOf.map(scan);
        const mean = (lengths: number[]) => {
          const some = lengths.filter((n) => n > 0);
          return some.length === 0 ? 1 : some.reduce((x, y) => x + y, 0) / some.length;
        };
        const contentMean = mean(texts.map((t) => t.length));
        const fieldMean = FILE_FIELDS.map((_, f) => mean(fields.map((p) => p[f]!.length)));
        const N = corpusPages.length;
        const idf = (df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));
        const pairName = (id: number) => {
          for (const [i, t] of index.termList.entries())
            for (const [j, u] of index.termList.entries())
              if (index.pairs.get(i, j) === id) return `${t} ${u}`;
          throw new Error('no such pair');
        };
        const pageHolds = (page: number, token: string) =>
          fields[page]!.some((f) => f.tokens.has(token)) ||
          texts.some((t, c) => chunks.pageOf[c] === page && t.tokens.has(token));
        type Want = {
          score: number;
          best: number;
          bestChunk: number;
          chunks: number[];
          sections: number[];
          mask: number;
        };
        const want = new Map<number, Want>();
        for (let page = 0; page < N; page++) {
          let fieldScore = 0;
          let mask = 0;
          const fieldTf = new Map<string, number>();
          for (const term of plan.terms) {
            if (term.pair) continue;
            expect(term.frequency).toBe(
              corpusPages.filter((_, p) => pageHolds(p, term.token)).length,
            );
            let y = 0;
            fields[page]!.forEach((f, i) => {
              const tf = f.tokens.get(term.token) ?? 0;
              if (tf === 0) return;
              mask |= 1 << i;
              y += (weight[i + 1]! * tf) / (1 - b[i + 1]! + (b[i + 1]! * f.length) / fieldMean[i]!);
            });
            fieldTf.set(term.token, y);
            if (y > 0) fieldScore += term.weight * idf(term.frequency) * sat(y);
          }
          const scored: { chunk: number; score: number }[] = [];
          if (!fileOnly)
            texts.forEach((t, c) => {
              if (chunks.pageOf[c] !== page) return;
              let score = 0;
              let hit = false;
              const norm = 1 - b[0]! + (b[0]! * t.length) / contentMean;
              for (const term of plan.terms) {
                const tf = term.pair
                  ? (t.pairs.get(pairName(term.id)) ?? 0)
                  : (t.tokens.get(term.token) ?? 0);
                if (tf === 0) continue;
                hit = true;
                const w = term.weight * idf(term.frequency);
                const x = (weight[0]! * tf) / norm;
                const y = term.pair ? 0 : fieldTf.get(term.token)!;
                score += w * (sat(x + y) - sat(y));
              }
              if (hit) scored.push({ chunk: c, score });
            });
          const sorted = [...scored].sort((x, y) => y.score - x.score || x.chunk - y.chunk);
          const top = sorted.slice(0, 3);
          // The title match: the share of the title's words the query's terms match, times the
          // part of the query's own weight the title holds.
          let queryMass = 0;
          let titleMass = 0;
          let titleHits = 0;
          for (const term of plan.terms) {
            if (term.pair) continue;
            const w = term.weight * idf(term.frequency);
            if (term.variant !== true) queryMass += w;
            const tf = fields[page]![0]!.tokens.get(term.token) ?? 0;
            if (tf > 0) ((titleMass += w), (titleHits += tf));
          }
          const titleLength = fields[page]![0]!.length;
          const boost =
            titleMass > 0 && titleLength > 0
              ? titleMatch *
                Math.min(1, titleHits / titleLength) *
                (queryMass > 0 ? Math.min(1, titleMass / queryMass) : 1)
              : 0;
          const total =
            (fieldScore +
              top.reduce((sum, e, i) => sum + (i === 0 ? e.score : CHUNK_SHARE * e.score), 0)) *
            (1 + boost);
          if (total > 0)
            want.set(page, {
              score: total,
              best: top[0]?.score ?? 0,
              bestChunk: top[0]?.chunk ?? -1,
              chunks: top.map((e) => e.chunk),
              sections: sorted
                .filter((e) => chunks.sectionOf[e.chunk] !== null)
                .slice(0, 3)
                .map((e) => e.chunk),
              mask,
            });
        }
        const got = lexicalSearch(index, chunks, q, fileOnly).files;
        expect(new Set(got.map((f) => f.page))).toEqual(new Set(want.keys()));
        for (const file of got) {
          const w = want.get(file.page)!;
          expect(file.score).toBeCloseTo(w.score, 9);
          expect(file.chunks).toBe(w.chunks.length);
          expect(file.bestChunk === -1 ? -1 : file.bestChunk).toBe(
            w.bestChunk === -1 ? -1 : file.bestChunk,
          );
          if (w.bestChunk !== -1) expect(chunkScoreOf(w, file.bestChunk)).toBeCloseTo(w.best, 9);
          expect(file.sectionChunks.map((c) => scoreOf(w, c))).toEqual(
            w.sections.map((c) => scoreOf(w, c)),
          );
          expect(file.fields).toEqual(
            [...FILE_FIELDS, 'content'].filter((_, i) =>
              i < 4 ? (w.mask & (1 << i)) !== 0 : w.chunks.length > 0,
            ),
          );
        }
        for (let i = 1; i < got.length; i++) {
          expect(got[i]!.score).toBeLessThanOrEqual(got[i - 1]!.score);
          if (got[i]!.score === got[i - 1]!.score)
            expect(got[i]!.page).toBeGreaterThan(got[i - 1]!.page);
        }
        function scoreOf(_w: Want, c: number): number {
          return Math.round(chunkScore(c) * 1e9);
        }
        function chunkScoreOf(_w: Want, c: number): number {
          return chunkScore(c);
        }
        function chunkScore(c: number): number {
          const t = texts[c]!;
          const norm = 1 - b[0]! + (b[0]! * t.length) / contentMean;
          const page = chunks.pageOf[c]!;
          let score = 0;
          for (const term of plan.terms) {
            const tf = term.pair
              ? (t.pairs.get(pairName(term.id)) ?? 0)
              : (t.tokens.get(term.token) ?? 0);
            if (tf === 0) continue;
            let y = 0;
            if (!term.pair)
              fields[page]!.forEach((f, i) => {
                const ftf = f.tokens.get(term.token) ?? 0;
                if (ftf > 0)
                  y +=
                    (weight[i + 1]! * ftf) /
                    (1 - b[i + 1]! + (b[i + 1]! * f.length) / fieldMean[i]!);
              });
            score +=
              term.weight * idf(term.frequency) * (sat((weight[0]! * tf) / norm + y) - sat(y));
          }
          return score;
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a page holding a query word in its text is found in hybrid mode', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, word, async (pages, w) => {
        const fixture = searchFixture(pages);
        const engine = rankerOf(fixture);
        const tokens = tokenize(w);
        const { hits } = await engine.rank(searchRequest(w));
        const found = new Set(hits.map((h) => h.fileId));
        for (const page of pages) {
          if (
            tokens.length > 0 &&
            tokens.every((t) => tokenize(page.text.replace(/<!--[^>]*-->/g, ' ')).includes(t))
          )
            expect(found.has(page.id)).toBe(true);
        }
      }),
    );
  });

  it('collapsing WHITESPACE_RUN matches gives what collapsing every \\s+ run gives', () => {
    const unit = fc.constantFrom(
      'a',
      '中',
      ' ',
      '  ',
      '\n',
      '\t',
      '\u3000',
      '\u00a0',
      '\u2028',
      '\ufeff',
      '\u200b',
      '😀',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
        expect(text.replace(WHITESPACE_RUN, ' ')).toBe(text.replace(/\s+/g, ' '));
      }),
    );
  });

  it('tokens are folded text: NFKC, lower case, never empty, no whitespace', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        for (const token of tokenize(text)) {
          expect(token.length).toBeGreaterThan(0);
          expect(/\s/.test(token)).toBe(false);
          expect(token.normalize('NFKC').toLowerCase()).toBe(token);
        }
      }),
    );
  });

  it('a name after sigils ($, @, #) at a word start is indexed whole as a compound, beside the bare word, and nowhere else', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    const sigils = fc.stringMatching(/^[$@#]{1,3}$/);
    const before = fc.constantFrom('', ' ', '{', '(', '`', 'x');
    fc.assert(
      fc.property(before, sigils, name, (lead, sigil, word) => {
        const tokens: { token: string; compound: boolean }[] = [];
        indexTokens(`${lead}${sigil}${word} tail`, (token, _cjk, compound) =>
          tokens.push({ token, compound }),
        );
        const plain = tokens.filter((t) => !t.compound).map((t) => t.token);
        // The words are those of the tokenizer: the sigils never change them.
        expect(plain).toEqual(tokenize(`${lead}${sigil}${word} tail`));
        const whole = tokens.filter((t) => t.compound).map((t) => t.token);
        // After a word character (`x$name`), the sigil joins nothing.
        expect(whole).toEqual(lead === 'x' ? [] : [`${sigil}${word}`]);
      }),
    );
  });

  it('sortPages orders pages by descending score, ties in page order, as a comparison sort does', () => {
    // Few distinct scores, so that ties are common; lengths around the insertion runs' size.
    const score = fc.constantFrom(0.5, 1, 1.25, 3, 1e-9, 7e300);
    fc.assert(
      fc.property(
        fc.array(score, { maxLength: 80 }),
        fc.integer({ min: 0, max: 1000 }),
        (scores, turn) => {
          const n = scores.length;
          const table = Float64Array.from(scores);
          // The pages in a shuffled order (a rotation and a reversal), as a search touches them.
          const pages = Array.from({ length: n }, (_, i) => (i * 7 + turn) % Math.max(1, n));
          const distinct = [...new Set(pages)];
          const list = Int32Array.from(turn % 2 === 0 ? distinct : distinct.reverse());
          const before = Int32Array.from(list);
          const sorted = sortPages(list, new Int32Array(list.length), list.length, table);
          const want = [...before].sort((a, b) =>
            table[b]! > table[a]! ? 1 : table[b]! < table[a]! ? -1 : a - b,
          );
          expect([...sorted.subarray(0, list.length)]).toEqual(want);
        },
      ),
    );
  });
});
