import type { SearchCorpus } from './port.js';

/**
 * The searchable texts of every page of a corpus (`SearchCorpus.chunksOf`), as parallel arrays indexed
 * by chunk number; chunks of one page are contiguous, in the order the corpus gives them.
 */
export interface ChunkTable {
  /** Chunk → index of its page in `corpus.pages`. */
  readonly pageOf: Int32Array;
  /** Chunk → section ID, `null` for the document's own text. */
  readonly sectionOf: readonly (string | null)[];
  /** Chunk → its text. */
  readonly textOf: readonly string[];
  /** Page index → its first chunk, or `-1` when the page has no text. */
  readonly firstChunkOf: Int32Array;
  readonly count: number;
}

/** Whether `text` has a character other than JavaScript whitespace (`\s`). */
export function hasText(text: string): boolean {
  return /\S/.test(text);
}

/** Collects the chunk table page by page (what `buildChunks` and `buildChunksSliced` share). */
function chunkTableBuilder(corpus: SearchCorpus): {
  addPage(p: number): void;
  finish(): ChunkTable;
} {
  const pages = corpus.pages;
  const pageOf: number[] = [];
  const sectionOf: (string | null)[] = [];
  const textOf: string[] = [];
  const firstChunkOf = new Int32Array(pages.length).fill(-1);
  return {
    addPage(p) {
      for (const chunk of corpus.chunksOf(pages[p]!.fileId)) {
        if (!hasText(chunk.text)) continue;
        if (firstChunkOf[p] === -1) firstChunkOf[p] = textOf.length;
        pageOf.push(p);
        sectionOf.push(chunk.sectionId);
        textOf.push(chunk.text);
      }
    },
    finish: () => ({
      pageOf: Int32Array.from(pageOf),
      sectionOf,
      textOf,
      firstChunkOf,
      count: textOf.length,
    }),
  };
}

/**
 * Lay every page's chunks out in one table (a chunk without text is skipped, whatever the corpus gives).
 *
 * @param corpus - the source's corpus.
 * @returns the chunk table.
 * @throws what `corpus.chunksOf` throws.
 */
export function buildChunks(corpus: SearchCorpus): ChunkTable {
  const builder = chunkTableBuilder(corpus);
  for (let p = 0; p < corpus.pages.length; p++) builder.addPage(p);
  return builder.finish();
}

/**
 * `buildChunks` in slices: `pace()` after each page, awaited when it yields, so a large corpus does not
 * hold the event loop.
 *
 * @param corpus - the source's corpus.
 * @param pace - a pacer (`createPacer`).
 * @returns the chunk table.
 * @throws what `corpus.chunksOf` throws, or what `pace` rejects with (an abort).
 */
export async function buildChunksSliced(
  corpus: SearchCorpus,
  pace: () => Promise<void> | undefined,
): Promise<ChunkTable> {
  const builder = chunkTableBuilder(corpus);
  for (let p = 0; p < corpus.pages.length; p++) {
    builder.addPage(p);
    const paused = pace();
    if (paused !== undefined) await paused;
  }
  return builder.finish();
}
