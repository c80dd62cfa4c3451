import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildChunks,
  buildLexicalIndex,
  CHUNK_SHARE,
  FILE_FIELD_SHARE,
  chunkFrequency,
  CUT,
  FILE_FIELDS,
  lexicalSearch,
  planQuery,
  tokenize,
  WHITESPACE_RUN,
} from '../../src/agent/search/index.js';
import type { KnowledgeDocument, KnowledgePart } from '../../src/index.js';
import {
  corpusOf,
  rankerOf,
  searchFixture,
  searchRequest,
  type TestPage,
} from './helpers/search-fixtures.js';

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
  .array(fc.tuple(tree, fc.array(word, { maxLength: 2 })), { minLength: 1, maxLength: 6 })
  .map((docs) =>
    docs.map(([root, tags], i): TestPage => ({
      id: `p${i}`,
      text: render(root),
      tags: tags.map((t) => t.toLowerCase()),
      title: `Page ${i}`,
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

  it('lexicalSearch folds unsorted chunk hits exactly as a walk of them sorted by score would: same pages, scores, best chunks, sections, fields', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, query, fc.boolean(), async (pages, q, fileOnly) => {
        const fixture = searchFixture(pages);
        const chunks = buildChunks(corpusOf(fixture));
        const index = await buildLexicalIndex(chunks, fixture.table.pages);
        // The reference: every chunk hit, sorted (stable) by MiniSearch, walked best first.
        const expected = new Map<
          number,
          {
            page: number;
            score: number;
            bestChunk: number;
            chunks: number;
            sectionChunks: number[];
            fields: string[];
          }
        >();
        const entry = (page: number) => {
          let e = expected.get(page);
          if (e === undefined)
            expected.set(
              page,
              (e = { page, score: 0, bestChunk: -1, chunks: 0, sectionChunks: [], fields: [] }),
            );
          return e;
        };
        // The same planned query (distinct terms, boosted by repeats) that lexicalSearch sends.
        const plan = planQuery(q, chunkFrequency(index));
        for (const r of fileOnly ? [] : index.content.search(plan.text, plan.options)) {
          const chunk = r.id as number;
          const e = entry(chunks.pageOf[chunk]!);
          if (e.chunks === 0) [e.score, e.bestChunk, e.chunks] = [r.score, chunk, 1];
          else if (e.chunks < 3)
            [e.score, e.chunks] = [e.score + CHUNK_SHARE * r.score, e.chunks + 1];
          if (e.sectionChunks.length < 3 && chunks.sectionOf[chunk] !== null)
            e.sectionChunks.push(chunk);
        }
        for (const r of index.files.search(plan.text, plan.options)) {
          const e = entry(r.id as number);
          e.score += FILE_FIELD_SHARE * r.score;
          e.fields = FILE_FIELDS.filter((f) =>
            Object.values(r.match).some((fields) => fields.includes(f)),
          );
        }
        for (const e of expected.values()) if (e.bestChunk !== -1) e.fields.push('content');
        const want = [...expected.values()].sort((a, b) => b.score - a.score || a.page - b.page);
        const got = lexicalSearch(index, chunks, q, fileOnly).files.map(
          ({ page, score, bestChunk, chunks: n, sectionChunks, fields }) => ({
            page,
            score,
            bestChunk,
            chunks: n,
            sectionChunks: [...sectionChunks],
            fields: [...fields],
          }),
        );
        expect(got).toEqual(want);
      }),
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
});
