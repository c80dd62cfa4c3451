/**
 * A `TermStore` over a bundle's search shards (`searchShards.ts`): a query reads the dictionary
 * shards whose key ranges hold its tokens or its heads' prefixes, the postings shards of its planned
 * terms, and the page shards and page texts of the hits shown; nothing else.
 */
import type { KnowledgeDocument } from '../../types.js';
import { scopeFieldsOf } from '../search/scopeStage.js';
import { FIELD_COUNT } from '../search/bm25fIndex.js';
import {
  CONTENT_STRIDE,
  FIELD_STRIDE,
  isPairKey,
  type TermEntry,
  type TermRow,
} from '../search/termRows.js';
import {
  headWants,
  type TermStore,
  type TermStorePage,
  type TermStoreRelation,
} from '../search/termStoreEngine.js';
import {
  decodeNumbers,
  undeltaPages,
  type BundlePageRecord,
  type DictionaryEntry,
  type DictionaryShard,
  type PageShard,
  type PostingsShard,
  type SearchManifest,
} from './bundleFormat.js';

/** What a shard store reads with. */
export interface ShardReads {
  /** A file under `_index/search/`, parsed (the caller caches by revision). */
  shard(name: string): Promise<unknown>;
  /** A page's document, from its record. */
  document(record: BundlePageRecord): Promise<KnowledgeDocument>;
}

/** A term store over shards, and the page records its `pages` calls read (for the hits' fields). */
export interface ShardTermStore extends TermStore {
  /** The records read so far, by file ID. */
  readonly records: ReadonlyMap<string, BundlePageRecord>;
}

/** The index of the last of `firsts` not after `key` (0 when all are after it). */
function shardIndex(firsts: readonly (readonly [string, string])[], key: string): number {
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firsts[mid]![0] <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const entryOf = (e: DictionaryEntry): TermEntry => ({
  key: e[0],
  ordinal: e[1],
  pair: e[2] === 1,
  head: e[3],
  bigram: e[4] === 1,
  frequency: e[5],
});

const NO_FIELDS: readonly (readonly number[])[] = Object.freeze(
  Array.from({ length: FIELD_COUNT - 1 }, () => Object.freeze([] as number[])),
);

/**
 * The term store of one revision's search manifest.
 *
 * @param manifest - the revision's `_index/search/manifest.json`.
 * @param reads - how shards and documents are read.
 * @returns the store.
 */
export function shardTermStore(manifest: SearchManifest, reads: ShardReads): ShardTermStore {
  const records = new Map<string, BundlePageRecord>();

  /**
   * The shards (by index) of `list` that may hold `keys`, or keys starting with one of `prefixes`.
   */
  const shardsOf = (
    list: SearchManifest['dictionary'],
    keys: readonly string[],
    prefixes: readonly string[],
  ): number[] => {
    const wanted = new Set<number>();
    if (list.length === 0) return [];
    for (const key of keys) wanted.add(shardIndex(list, key));
    for (const prefix of prefixes) {
      let i = shardIndex(list, prefix);
      wanted.add(i);
      while (i + 1 < list.length && list[i + 1]![0].startsWith(prefix)) wanted.add(++i);
    }
    return [...wanted].sort((a, b) => a - b);
  };
  const read = (list: SearchManifest['dictionary'], indexes: readonly number[]) =>
    Promise.all(indexes.map((i) => reads.shard(list[i]![1]) as Promise<DictionaryShard>));

  /** The dictionary entries of `keys` (terms and pairs) with their postings shard's name. */
  const locate = async (keys: readonly string[]) => {
    // No token holds a space: a key with one is a pair's, or a whole heading's (a term).
    const pairKeys = keys.filter(isPairKey);
    const termKeys = keys.filter((k) => !isPairKey(k));
    const shards = [
      ...(await read(manifest.dictionary, shardsOf(manifest.dictionary, termKeys, []))),
      ...(await read(manifest.pairs, shardsOf(manifest.pairs, pairKeys, []))),
    ];
    const want = new Set(keys);
    const found = new Map<string, { entry: DictionaryEntry; postings: string }>();
    for (const shard of shards)
      for (const e of shard.entries)
        if (want.has(e[0])) found.set(e[0], { entry: e, postings: shard.postings[e[6]]! });
    return found;
  };

  const pageShard = (page: number): Promise<PageShard> => {
    const name = manifest.pages.shards[Math.floor(page / manifest.pages.size)];
    if (name === undefined)
      return Promise.reject(new Error(`the search index names page ${page}, which it lacks`));
    return reads.shard(name) as Promise<PageShard>;
  };

  return {
    records,
    stats: () => Promise.resolve(manifest.stats),
    async dictionary(keys, heads) {
      // A head asked for by prefix only reads the shards of those prefixes, not of the whole head.
      const ranges = heads.flatMap((h) => (h.all || h.lengths.length > 0 ? [h.head] : h.prefixes));
      const shards = await read(manifest.dictionary, shardsOf(manifest.dictionary, keys, ranges));
      const exact = new Set(keys);
      const under = new Map(heads.map((h) => [h.head, h]));
      const out: TermEntry[] = [];
      for (const shard of shards)
        for (const e of shard.entries) {
          const head = e[3] === null ? undefined : under.get(e[3]);
          if (exact.has(e[0]) || (head !== undefined && headWants(head, e[0])))
            out.push(entryOf(e));
        }
      return out;
    },
    async rows(keys) {
      const found = await locate(keys);
      const names = [...new Set([...found.values()].map((f) => f.postings))];
      const shards = await Promise.all(names.map((n) => reads.shard(n) as Promise<PostingsShard>));
      const out: TermRow[] = [];
      for (const shard of shards)
        for (const [key, content, fields] of shard.rows) {
          const f = found.get(key);
          if (f === undefined) continue;
          // Onto the entry with `Object.assign`: properties after a leading spread are slow to add
          // in V8.
          out.push(
            Object.assign(entryOf(f.entry), {
              content: undeltaPages(decodeNumbers(content), CONTENT_STRIDE),
              fields:
                fields.length === 0
                  ? NO_FIELDS
                  : fields.map((l) => undeltaPages(decodeNumbers(l), FIELD_STRIDE)),
            }),
          );
        }
      return out;
    },
    async scopeFields() {
      // Every page shard, in page order: a filtered search reads the records of every page.
      const shards = await Promise.all(
        manifest.pages.shards.map((name) => reads.shard(name) as Promise<PageShard>),
      );
      return shards.flatMap((shard) => shard.pages.map(scopeFieldsOf));
    },
    async pages(pages) {
      return Promise.all(
        pages.map(async (page): Promise<TermStorePage> => {
          const shard = await pageShard(page);
          const record = shard.pages[page - shard.first];
          if (record === undefined)
            throw new Error(`the search index names page ${page}, which its page shard lacks`);
          records.set(record.fileId, record);
          return {
            fileId: record.fileId,
            path: record.path,
            document: await reads.document(record),
          };
        }),
      );
    },
    async relations(pages) {
      const out = new Map<number, readonly TermStoreRelation[]>();
      await Promise.all(
        pages.map(async (page) => {
          const shard = await pageShard(page);
          const list = shard.related[page - shard.first] ?? [];
          out.set(
            page,
            list.map(([fileId, target, weight]) => ({ fileId, page: target, weight })),
          );
        }),
      );
      return out;
    },
  };
}
