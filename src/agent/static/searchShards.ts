/**
 * The search index of a bundle as files (`_index/search/`): the term rows (`buildTermRows`) sorted by
 * key and cut into postings shards of about `POSTINGS_PER_SHARD` postings, a dictionary over them cut
 * into shards of about `DICTIONARY_SHARD_CHARS` characters, the page records cut into shards of
 * `PAGE_SHARD_SIZE` pages, and a small manifest naming them. Every shard's name holds a digest of its
 * text, so a new revision writes only the shards whose content changed.
 */
import type { ActiveContentRevision } from '../types.js';
import { CONTENT_STRIDE, FIELD_STRIDE, type TermRow, type TermRows } from '../search/termRows.js';
import {
  BUNDLE_VERSION,
  bundleJson,
  deltaPages,
  encodeNumbers,
  shardName,
  type BundlePageRecord,
  type DictionaryEntry,
  type PageRelation,
  type SearchManifest,
} from './bundleFormat.js';

/** Postings (content and file-field entries) per postings shard, about (a row is never cut). */
export const POSTINGS_PER_SHARD = 2_500;
/** Characters of dictionary entries per dictionary shard, about. */
export const DICTIONARY_SHARD_CHARS = 16_000;
/** Pages per page shard. */
export const PAGE_SHARD_SIZE = 8;

/** Code-unit order, as the reader's binary search compares keys. */
const byKey = (a: TermRow, b: TermRow): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** How many postings a row holds. */
const postingsOf = (row: TermRow): number =>
  row.content.length / CONTENT_STRIDE +
  row.fields.reduce((n, list) => n + list.length / FIELD_STRIDE, 0);

/** The shards and manifest of one index. */
export interface SearchFiles {
  readonly manifest: SearchManifest;
  /** Shard texts by file name (under `_index/search/`). */
  readonly shards: ReadonlyMap<string, string>;
  readonly counts: {
    readonly dictionaryShards: number;
    readonly postingsShards: number;
    readonly pageShards: number;
  };
}

/**
 * Lay an index out as shard files.
 *
 * @param rows - the index's rows and statistics.
 * @param records - the page records, by page number.
 * @param related - each page's relationships, by page number.
 * @param revision - the bundle's revision.
 * @returns the manifest and the shards.
 */
export function searchShardFiles(
  rows: TermRows,
  records: readonly BundlePageRecord[],
  related: readonly (readonly PageRelation[])[],
  revision: ActiveContentRevision,
): SearchFiles {
  const shards = new Map<string, string>();
  const sorted = [...rows.rows].sort(byKey);

  // Postings shards, in key order.
  const postingsShardOf = new Map<string, string>();
  let batch: TermRow[] = [];
  let count = 0;
  let postingsShards = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    const text = bundleJson({
      rows: batch.map((row) => [
        row.key,
        encodeNumbers(deltaPages(row.content, CONTENT_STRIDE)),
        row.fields.every((list) => list.length === 0)
          ? []
          : row.fields.map((list) => encodeNumbers(deltaPages(list, FIELD_STRIDE))),
      ]),
    });
    const name = shardName('postings', text);
    shards.set(name, text);
    postingsShards++;
    for (const row of batch) postingsShardOf.set(row.key, name);
    batch = [];
    count = 0;
  };
  for (const row of sorted) {
    const n = postingsOf(row);
    if (count > 0 && count + n > POSTINGS_PER_SHARD) flush();
    batch.push(row);
    count += n;
  }
  flush();

  // Dictionary shards over them: the terms', and apart the pairs' (so that a head's prefix range
  // covers terms only).
  const dictionaryOf = (list: readonly TermRow[]): [string, string][] => {
    const out: [string, string][] = [];
    let entries: DictionaryEntry[] = [];
    let names: string[] = [];
    let chars = 0;
    const flushDictionary = (): void => {
      if (entries.length === 0) return;
      const text = bundleJson({ postings: names, entries });
      const name = shardName('dictionary', text);
      shards.set(name, text);
      out.push([entries[0]![0], name]);
      entries = [];
      names = [];
      chars = 0;
    };
    for (const row of list) {
      if (chars >= DICTIONARY_SHARD_CHARS) flushDictionary();
      const postings = postingsShardOf.get(row.key)!;
      let local = names.lastIndexOf(postings);
      if (local === -1) local = names.push(postings) - 1;
      entries.push([
        row.key,
        row.ordinal,
        row.pair ? 1 : 0,
        row.head,
        row.bigram ? 1 : 0,
        row.frequency,
        local,
      ]);
      chars += row.key.length + 24;
    }
    flushDictionary();
    return out;
  };
  const dictionary = dictionaryOf(sorted.filter((row) => !row.pair));
  const pairs = dictionaryOf(sorted.filter((row) => row.pair));

  // Page shards.
  const pageShards: string[] = [];
  for (let first = 0; first < records.length; first += PAGE_SHARD_SIZE) {
    const end = first + PAGE_SHARD_SIZE;
    const text = bundleJson({
      first,
      pages: records.slice(first, end),
      related: related.slice(first, end),
    });
    const name = shardName('pages', text);
    shards.set(name, text);
    pageShards.push(name);
  }

  const manifest: SearchManifest = {
    format: 'knowledge-kit-search',
    version: BUNDLE_VERSION,
    activeContentRevision: revision,
    stats: rows.stats,
    dictionary,
    pairs,
    pages: { size: PAGE_SHARD_SIZE, shards: pageShards },
  };
  return {
    manifest,
    shards,
    counts: {
      dictionaryShards: dictionary.length + pairs.length,
      postingsShards,
      pageShards: pageShards.length,
    },
  };
}
