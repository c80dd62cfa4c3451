import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import type { ChunkTable } from './buildChunks.js';
import { CJK, classOf, LATIN } from './charClass.js';
import { CJK_TERM_MARK, encodeTerm } from './encodeTerm.js';
import { createPacer } from './pace.js';
import type { SearchCorpusPage, SearchWarmProgress } from './port.js';
import { tokenize } from './tokenize.js';

/** File fields searched in every mode, in `matchedFields` order. */
export const FILE_FIELDS = ['title', 'path', 'description', 'tags'] as const;

/** BM25 weight of each file field against section text (`content`, 1). */
export const FIELD_BOOST: Readonly<Record<(typeof FILE_FIELDS)[number], number>> = {
  title: 2,
  path: 1,
  description: 1,
  tags: 1.5,
};

/** The two MiniSearch indexes of a source: section texts, and the file fields of pages. */
export interface LexicalIndex {
  /** One entry per chunk (ID = chunk number), field `content`. */
  readonly content: MiniSearch<number>;
  /** One entry per page (ID = page index), fields `title`, `path`, `description`, `tags`. */
  readonly files: MiniSearch<number>;
}

/**
 * MiniSearch options of the two indexes: our tokenizer, CJK terms encoded (`encodeTerm`), entries that are
 * plain numbers read through `extractField` (no object per chunk). Exported so the bench can build
 * "MiniSearch alone" on exactly the same chunks and tokens.
 *
 * @param chunks - the chunk table.
 * @param pages - the pages, in path order.
 * @returns options for the `content` and `files` indexes.
 */
export function lexicalIndexOptions(
  chunks: ChunkTable,
  pages: readonly SearchCorpusPage[],
): { content: Options<number>; files: Options<number> } {
  const text = chunks.textOf;
  return {
    content: {
      fields: ['content'],
      extractField: (chunk, field) => (field === 'id' ? chunk : text[chunk]),
      tokenize,
      processTerm: encodeTerm,
    },
    files: {
      fields: [...FILE_FIELDS],
      extractField: (page, field) => {
        const record = pages[page]!;
        switch (field) {
          case 'id':
            return page;
          case 'title':
            return record.title;
          case 'path':
            return record.path;
          case 'description':
            return record.description ?? undefined;
          default:
            return record.tags.length === 0 ? undefined : record.tags.join('\n');
        }
      },
      tokenize,
      processTerm: encodeTerm,
      searchOptions: { boost: { ...FIELD_BOOST } },
    },
  };
}

/** Whether `term` is a Latin word of at least 5 letters (fuzzy matching of one edit applies). */
export function isFuzzyTerm(term: string): boolean {
  if (term.length < 5) return false;
  for (let i = 0; i < term.length; i++)
    if ((classOf(term.charCodeAt(i)) & 3) !== LATIN) return false;
  return true;
}

/** Whether an indexed term is a word (not an encoded or plain CJK bigram or character). */
export function isWordTerm(term: string): boolean {
  const first = term.codePointAt(0);
  return first !== undefined && !term.startsWith(CJK_TERM_MARK) && (classOf(first) & 3) !== CJK;
}

/**
 * Whether an indexed term is one CJK character (`#` and one UTF-16 code unit, or a surrogate pair, in
 * hex). A one-character query term matches as a prefix, so `税` finds the bigrams that start with it
 * (`税务`): one-character runs are the only ones indexed as single characters.
 */
export function isSingleCjkTerm(term: string): boolean {
  if (!term.startsWith(CJK_TERM_MARK)) return false;
  // A surrogate pair is `d800`–`dbff` then a low half; Hangul bigrams can also start with `d`.
  return term.length === 5 || (term.length === 9 && term[1] === 'd' && '89ab'.includes(term[2]!));
}

/** Search options of every query: fuzzy for Latin words of 5+ letters, prefix for the last word and for single CJK characters. */
export const QUERY_OPTIONS: SearchOptions = Object.freeze({
  fuzzy: (term: string) => (isFuzzyTerm(term) ? 1 : false),
  prefix: (term: string, index: number, terms: string[]) =>
    (index === terms.length - 1 && isWordTerm(term)) || isSingleCjkTerm(term),
  combineWith: 'OR',
});

/**
 * Build both indexes in slices that yield to the event loop (`createPacer`: every ~20 ms, checked after
 * each entry), so timers, aborts and other calls stay live during a long build.
 *
 * @param chunks - the chunk table.
 * @param pages - the pages, in path order.
 * @param signal - stops the build between entries.
 * @param onProgress - called at each yield with the pages whose texts are indexed so far, of all pages.
 * @returns the two indexes.
 * @throws the signal's reason when it aborts.
 */
export async function buildLexicalIndex(
  chunks: ChunkTable,
  pages: readonly SearchCorpusPage[],
  signal?: AbortSignal,
  onProgress?: (progress: SearchWarmProgress) => void,
): Promise<LexicalIndex> {
  const options = lexicalIndexOptions(chunks, pages);
  const content = new MiniSearch<number>(options.content);
  const files = new MiniSearch<number>(options.files);
  const pace = createPacer(signal);
  const total = pages.length;
  for (let p = 0; p < pages.length; p++) {
    files.add(p);
    const paused = pace();
    if (paused !== undefined) {
      onProgress?.({ done: 0, total });
      await paused;
    }
  }
  for (let c = 0; c < chunks.count; c++) {
    content.add(c);
    const paused = pace();
    if (paused !== undefined) {
      // Pages before this chunk's page are fully indexed (a page's chunks are contiguous).
      onProgress?.({ done: chunks.pageOf[c]!, total });
      await paused;
    }
  }
  return { content, files };
}
