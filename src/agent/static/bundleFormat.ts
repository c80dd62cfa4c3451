/**
 * The static bundle's file formats, each named and versioned: what the export writes and the static
 * source reads (one definition of each, used by both sides). See `docs/static.md`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import stringify from 'fast-json-stable-stringify';
import type { ActiveContentRevision, JsonObject } from '../types.js';
import type { FileSectionInfo } from '../tools/getFile/types.js';
import type { TermStats } from '../search/termRows.js';
import type { SectionRange } from './sectionRanges.js';

/** `manifest.json`'s `format`. */
export const BUNDLE_FORMAT = 'knowledge-kit-bundle';
/** Version of the bundle layout and of every file format in it; a reader refuses another version. */
export const BUNDLE_VERSION = 1;

/** Where each file of a bundle is, relative to its root. */
export const BUNDLE_PATHS = Object.freeze({
  manifest: 'manifest.json',
  index: 'index.md',
  llms: 'llms.txt',
  llmsFull: 'llms-full.txt',
  files: '_index/files.json',
  search: '_index/search/manifest.json',
  searchDir: '_index/search/',
  graph: '_graph/index.json',
});

/**
 * `manifest.json`: what the bundle is, its revision and its counts. `exportKnowledgeBundle`
 * (`knowledge-kit/node`) returns it; a reader refuses another `format` or `version`.
 */
export interface BundleManifest {
  /** Always `'knowledge-kit-bundle'`. */
  readonly format: typeof BUNDLE_FORMAT;
  /** The version of the bundle layout and of every file format in it. */
  readonly version: typeof BUNDLE_VERSION;
  /** The knowledge base's ID: the static source's default `id`. */
  readonly knowledgeBaseId: string;
  /** The knowledge base's title (`llms.txt`'s H1). */
  readonly title: string;
  /** The revision every file of the bundle is of. */
  readonly activeContentRevision: ActiveContentRevision;
  /**
   * When the exported source published that revision (ISO 8601): every output of the static source
   * carries it as `publishedAt`. Absent in bundles of earlier releases (their outputs then say when
   * the static source was created).
   */
  readonly publishedAt?: string;
  /** How many pages, relationships, search terms and shards of each kind the bundle holds. */
  readonly counts: {
    readonly pages: number;
    readonly relations: number;
    readonly terms: number;
    readonly dictionaryShards: number;
    readonly postingsShards: number;
    readonly pageShards: number;
  };
  /** The other entry files, by role (`BUNDLE_PATHS`). */
  readonly entries: {
    readonly llms: string;
    readonly llmsFull: string;
    readonly index: string;
    readonly files: string;
    readonly search: string;
    readonly graph: string;
  };
}

/** One page of `_index/files.json`: `get_file`'s output without the per-call fields. */
export interface BundlePage {
  readonly fileId: string;
  readonly path: string;
  readonly title: string;
  readonly description: string | null;
  readonly frontmatter: JsonObject;
  /** The document's revision. */
  readonly revision: ActiveContentRevision;
  readonly locale: string | null;
  /** Its relationships file (`read_related`'s shape). */
  readonly graphPath: string;
  /** Its sections in source order, with the sizes a read returns (`get_file`'s). */
  readonly sections: readonly FileSectionInfo[];
  /**
   * Where each section's subtree text is in the page's text (`[start, end)` in UTF-16 code units),
   * parallel to `sections`: the page's files hold its text as `read_file` returns it, without anchors.
   */
  readonly ranges: readonly SectionRange[];
  /**
   * The SHA-256 of the page file's exact text (its UTF-8 bytes), 64 lowercase hex digits
   * (`pageTextDigest`): a reader checks the text against it before serving any of it.
   */
  readonly textSha256: string;
}

/** `_index/files.json`: every page, in the search index's page order (a page number indexes it). */
export interface BundleFiles {
  readonly format: 'knowledge-kit-files';
  readonly version: typeof BUNDLE_VERSION;
  readonly activeContentRevision: ActiveContentRevision;
  readonly pages: readonly BundlePage[];
}

/** A page's record in a page shard: what a search hit shows and its document is rebuilt from. */
export interface BundlePageRecord extends Omit<BundlePage, 'graphPath' | 'sections' | 'ranges'> {
  /** Its sections in source order: ID, the index of the parent (`-1` at top level), and range. */
  readonly outline: readonly (readonly [id: string, parent: number, start: number, end: number])[];
}

/** `_index/search/manifest.json`: statistics and where the shards are. */
export interface SearchManifest {
  readonly format: 'knowledge-kit-search';
  readonly version: typeof BUNDLE_VERSION;
  readonly activeContentRevision: ActiveContentRevision;
  readonly stats: TermStats;
  /**
   * Dictionary shards of the terms, in key order: each one's first key and file name (under
   * `_index/search/`).
   */
  readonly dictionary: readonly (readonly [firstKey: string, name: string])[];
  /** Dictionary shards of the pairs of adjacent terms (keys `first second`), likewise. */
  readonly pairs: readonly (readonly [firstKey: string, name: string])[];
  /** Page shards: `size` consecutive page numbers each, by file name. */
  readonly pages: { readonly size: number; readonly shards: readonly string[] };
}

/**
 * A dictionary entry: key, ordinal, pair (0/1), head (or null), bigram (0/1), frequency, and the
 * index of its postings shard in the shard's `postings` list.
 */
export type DictionaryEntry = readonly [
  key: string,
  ordinal: number,
  pair: 0 | 1,
  head: string | null,
  bigram: 0 | 1,
  frequency: number,
  postings: number,
];

/** A dictionary shard: entries sorted by key (UTF-16 code units), and the postings shards they name. */
export interface DictionaryShard {
  readonly postings: readonly string[];
  readonly entries: readonly DictionaryEntry[];
}

/**
 * A postings shard: rows sorted by key, each `[key, content, fields]`, every list of postings coded by
 * `encodeNumbers` with page numbers as the difference to the previous entry's page (the first entry's
 * page as is); `fields` is `[]` for a row with no file-field postings.
 */
export interface PostingsShard {
  readonly rows: readonly (readonly [key: string, content: string, fields: readonly string[]])[];
}

/** A related page as graph mode follows it: file ID, page number (`-1`: not a page), weight. */
export type PageRelation = readonly [fileId: string, page: number, weight: number];

/**
 * A page shard: the records of pages `first … first + pages.length − 1`, and each one's relationships
 * (strongest first, as `read_related` lists them), for graph mode.
 */
export interface PageShard {
  readonly first: number;
  readonly pages: readonly BundlePageRecord[];
  readonly related: readonly (readonly PageRelation[])[];
}

/**
 * Deterministic JSON text of a value: keys sorted, no spaces, a final line ending.
 *
 * @param value - plain JSON data.
 */
export function bundleJson(value: unknown): string {
  return `${stringify(value)}\n`;
}

/**
 * A content-addressed shard name: `<kind>-<first 16 hex digits of the text's SHA-256>.json`.
 *
 * @param kind - `dictionary`, `postings` or `pages`.
 * @param text - the shard's text.
 */
export function shardName(kind: string, text: string): string {
  return `${kind}-${bytesToHex(sha256(utf8ToBytes(text))).slice(0, 16)}.json`;
}

/** Characters of a page's text encoded and hashed at a time (then the event loop runs). */
const DIGEST_SLICE = 1 << 18;

/**
 * A page text's digest as `files.json` and the page shards carry it (`textSha256`): the SHA-256 of its
 * UTF-8 bytes, as 64 lowercase hex digits. Encoded and hashed a slice of 256 Ki characters at a time,
 * giving the event loop a turn between slices: a 60 MB page never blocks a server for long and is
 * never held twice (a pair of surrogates is never cut, so the bytes are the whole text's).
 *
 * @param text - the page file's text.
 * @returns the hex digest.
 */
export async function pageTextDigest(text: string): Promise<string> {
  const hash = sha256.create();
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(Math.min(text.length, DIGEST_SLICE) * 3);
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + DIGEST_SLICE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const { written } = encoder.encodeInto(text.slice(start, end), buffer);
    hash.update(buffer.subarray(0, written));
    start = end;
    if (start < text.length) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return bytesToHex(hash.digest());
}

/**
 * Code the page numbers of postings as differences (`stride` numbers an entry, the page first).
 *
 * @param list - postings, entries ascending by page.
 * @param stride - numbers per entry.
 */
export function deltaPages(list: readonly number[], stride: number): number[] {
  const out = list.slice();
  for (let i = out.length - stride; i > 0; i -= stride) out[i] = list[i]! - list[i - stride]!;
  return out;
}

/**
 * The inverse of `deltaPages`.
 *
 * @param list - postings with coded page numbers.
 * @param stride - numbers per entry.
 */
export function undeltaPages(list: readonly number[], stride: number): number[] {
  const out = list.slice();
  for (let i = stride; i < out.length; i += stride) out[i] = out[i]! + out[i - stride]!;
  return out;
}

/**
 * The path of a bundle file as a URL path: each segment percent-encoded (file IDs in graph paths are
 * already URI components, so their `%` is encoded again, as a static server decodes it once).
 *
 * @param path - a bundle path (`/`-separated).
 */
export function bundleUrlPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The last digit of a number (base 32). */
const LAST = '0123456789abcdefghijklmnopqrstuv';
/** A digit with more to follow (base 32). */
const MORE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZwxyz-_';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) {
  DIGIT[LAST.charCodeAt(i)] = i;
  DIGIT[MORE.charCodeAt(i)] = 32 + i;
}

/**
 * Non-negative integers as text: each in base 32, most significant digit first, every digit but the
 * last from `MORE`, the last from `LAST`; no separators (a number under 32 is one character). About
 * half the size of a JSON array of the same numbers.
 *
 * @param list - non-negative safe integers.
 */
export function encodeNumbers(list: readonly number[]): string {
  const out: string[] = [];
  for (const n of list) {
    let digits = LAST[n % 32]!;
    for (let rest = Math.floor(n / 32); rest > 0; rest = Math.floor(rest / 32))
      digits = MORE[rest % 32]! + digits;
    out.push(digits);
  }
  return out.join('');
}

/**
 * The inverse of `encodeNumbers`.
 *
 * @param text - the coded numbers.
 * @throws {Error} on a character that is not a digit, or a number left unfinished.
 */
export function decodeNumbers(text: string): number[] {
  const out: number[] = [];
  let n = 0;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? DIGIT[c]! : -1;
    if (d === -1) throw new Error(`a postings list holds ${JSON.stringify(text[i])}`);
    if (d >= 32) {
      n = n * 32 + (d - 32);
      open = true;
    } else {
      out.push(n * 32 + d);
      n = 0;
      open = false;
    }
  }
  if (open) throw new Error('a postings list ends inside a number');
  return out;
}
