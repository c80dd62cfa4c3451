/**
 * Reading a bundle's files: with `fetch` under a base URL, or with a function the caller passes. The
 * manifest is read on every call (so a new revision is seen at once); JSON files of one revision are
 * kept, keyed by that revision, the least recently used dropped past `KEPT_FILES`, and never mixed
 * with another revision's.
 *
 * A bundle is data from elsewhere, so nothing it names is trusted: every path is checked to be a
 * bundle path (no `..`, no absolute path, no backslash) before it is read, whoever named it
 * (`files.json`, the search manifest, a caller); a fetch follows a redirect only to the same origin
 * and under the base URL; a file over `maxFileBytes` is refused as it streams in; and each fetch gives
 * up after `fetchTimeoutMs`.
 */
import { readCapped } from '../../shared/readCapped.js';
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_PATHS,
  BUNDLE_VERSION,
  bundleUrlPath,
  shardName,
  type BundleManifest,
} from './bundleFormat.js';

/**
 * Reads one bundle file's text by its bundle path (`_index/files.json`, `pages/guide.md`): `null` when
 * the bundle has no such file. What it throws is a transport failure.
 */
export type StaticBundleRead = (path: string, signal?: AbortSignal) => Promise<string | null>;

/** How a bundle is reached. */
export type BundleLocation =
  | { readonly read: StaticBundleRead }
  | { readonly baseUrl: string; readonly fetch: (request: Request) => Promise<Response> };

/** Limits on reading a bundle's files (options of `createStaticSource`). */
export interface BundleFetchOptions {
  /**
   * Most bytes of one bundle file (with `baseUrl`: counted as it streams in, so a larger one is never
   * held; with `read`: the text's UTF-16 length checked after it). Default 67,108,864 (64 MiB).
   */
  readonly maxFileBytes?: number | undefined;
  /**
   * Longest fetch of one bundle file with `baseUrl`, in milliseconds, besides the call's own `signal`:
   * a stalled host fails the call (`TRANSPORT_ERROR`) instead of hanging it. Default 30,000.
   */
  readonly fetchTimeoutMs?: number | undefined;
}

/** Default `maxFileBytes`: 64 MiB. */
export const DEFAULT_BUNDLE_FILE_BYTES = 64 * 1024 * 1024;
/** Default `fetchTimeoutMs`. */
export const DEFAULT_BUNDLE_FETCH_TIMEOUT_MS = 30_000;
/** Redirects one fetch follows (each to the same origin, under the base URL). */
const MAX_REDIRECTS = 5;

/**
 * Why `path` is not a bundle path, or `undefined` when it is one: relative, `/`-separated, with no
 * empty, `.` or `..` segment, no backslash, no control character, no `:` before the first `/` (a URL
 * scheme or a drive letter). Linear, no regular expression.
 */
export function bundlePathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return 'it is empty or not a string';
  if (path.length > 4096) return 'it is longer than 4,096 characters';
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    const c = i < path.length ? path.charCodeAt(i) : 0x2f;
    if (c < 0x20 || c === 0x7f) return 'it holds a control character';
    if (c === 0x5c) return 'it holds a backslash';
    if (c === 0x3a && path.lastIndexOf('/', i) === -1)
      return 'it starts like a URL or a drive (`x:`)';
    if (c !== 0x2f) continue;
    const segment = path.slice(start, i);
    if (segment === '')
      return start === 0
        ? 'it is absolute (starts with `/`)'
        : 'it has an empty segment (`//` or a trailing `/`)';
    if (segment === '.' || segment === '..') return `it has a \`${segment}\` segment`;
    start = i + 1;
  }
  return undefined;
}

/** A bundle's files as a source reads them. */
export interface BundleReader {
  /** `manifest.json`, read now and checked. */
  manifest(signal: AbortSignal | undefined): Promise<BundleManifest>;
  /** A file's text (a missing file is an error naming it). */
  text(path: string, signal: AbortSignal | undefined): Promise<string>;
  /** A JSON file, parsed. */
  json(path: string, signal: AbortSignal | undefined): Promise<unknown>;
  /** A file's text, or `null` when the bundle has none (`versions.json`, which only some have). */
  optional(path: string, signal: AbortSignal | undefined): Promise<string | null>;
  /**
   * A JSON file of revision `key`, parsed, kept while `key` is the newest revision seen (bounded: the
   * least recently used dropped past `KEPT_FILES` files or `KEPT_CHARS` characters); a file refused as
   * broken stays refused for that revision instead of being read again.
   */
  cached(key: string, path: string, signal: AbortSignal | undefined): Promise<unknown>;
  /** The error for a file of another revision than the manifest's. */
  mixed(path: string): Error;
  /** The error for a file that is not what the export wrote (`why` ends the sentence naming it). */
  broken(path: string, why: string): Error;
}

/** JSON files kept per revision (shards, the search manifest, graph files). */
const KEPT_FILES = 512;
/**
 * Characters of JSON text kept per revision, all files together (their parsed values cost a few times
 * that): past it the least recently used are dropped, and a larger file is parsed for its call only.
 */
const KEPT_CHARS = 32 * 1024 * 1024;

/**
 * A reader over a bundle.
 *
 * @param location - `{ read }` or `{ baseUrl, fetch }`.
 * @returns the reader.
 */
export function readBundle(
  location: BundleLocation,
  limits: BundleFetchOptions = {},
): BundleReader {
  const where = 'read' in location ? 'the bundle' : `the bundle at ${location.baseUrl}`;
  const base =
    'read' in location
      ? undefined
      : new URL(location.baseUrl.endsWith('/') ? location.baseUrl : `${location.baseUrl}/`);
  const maxBytes = limits.maxFileBytes ?? DEFAULT_BUNDLE_FILE_BYTES;
  const timeoutMs = limits.fetchTimeoutMs ?? DEFAULT_BUNDLE_FETCH_TIMEOUT_MS;

  const transport = (path: string, why: string, cause?: unknown): KnowledgeToolError =>
    new KnowledgeToolError(
      'TRANSPORT_ERROR',
      `Reading \`${path}\` of ${where} failed: ${why}. Check that the bundle is served there (\`knowledge-kit export\` writes it) and try again.`,
      cause === undefined ? {} : { cause },
    );
  const broken = (path: string, why: string): KnowledgeToolError =>
    new KnowledgeToolError(
      'INTERNAL',
      `\`${path}\` of ${where} ${why}. Export the bundle again with this version of knowledge-kit.`,
    );

  const tooLarge = (path: string): KnowledgeToolError =>
    new KnowledgeToolError(
      'TRANSPORT_ERROR',
      `\`${path}\` of ${where} is over ${maxBytes} bytes, the most one bundle file may hold (\`maxFileBytes\`). Pass a larger \`maxFileBytes\` to createStaticSource if the bundle is yours, or export it again.`,
    );
  /** Whether `url` is on the base URL's origin and under its path. */
  const underBase = (url: URL): boolean =>
    url.origin === base!.origin && url.pathname.startsWith(base!.pathname);

  const readRaw = async (path: string, signal: AbortSignal | undefined): Promise<string | null> => {
    // Checked before anything is read: a path from `files.json` or a shard list is the bundle's word.
    const problem = bundlePathProblem(path);
    if (problem !== undefined)
      throw new KnowledgeToolError(
        'INTERNAL',
        `${where} names the file ${JSON.stringify(path)}, which is not a bundle path: ${problem}. Nothing was read. Export the bundle again with knowledge-kit; a bundle edited by hand or by someone else may be hostile.`,
      );
    if ('read' in location) {
      let found: string | null;
      try {
        found = await location.read(path, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        throw transport(path, error instanceof Error ? error.message : String(error), error);
      }
      if (found !== null && found.length > maxBytes) throw tooLarge(path);
      return found;
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    let url = new URL(bundleUrlPath(path), base);
    let response: Response;
    try {
      for (let hops = 0; ; hops++) {
        response = await location.fetch(new Request(url, { signal: both, redirect: 'manual' }));
        // A fetch that followed redirects itself says where it ended: it must be under the base too.
        if (response.url !== '' && !underBase(new URL(response.url))) {
          await response.body?.cancel();
          throw transport(
            path,
            `it was redirected to ${new URL(response.url).origin}, outside the bundle's URL; redirects are followed only under ${base!.href}`,
          );
        }
        if (response.status < 300 || response.status > 399 || response.status === 304) break;
        await response.body?.cancel();
        const location_ = response.headers.get('location');
        const next =
          location_ === null || !URL.canParse(location_, url) ? undefined : new URL(location_, url);
        if (next === undefined || !underBase(next))
          throw transport(
            path,
            `HTTP ${response.status} redirects ${next === undefined ? 'nowhere readable' : `to ${next.origin}${next.pathname}`}, outside the bundle's URL; redirects are followed only under ${base!.href}`,
          );
        if (hops >= MAX_REDIRECTS) throw transport(path, `more than ${MAX_REDIRECTS} redirects`);
        url = next;
      }
    } catch (error) {
      if (error instanceof KnowledgeToolError) throw error;
      if (signal?.aborted) throw error;
      if (timeout.aborted)
        throw transport(path, `no answer within ${timeoutMs} ms (\`fetchTimeoutMs\`)`, error);
      throw transport(path, error instanceof Error ? error.message : String(error), error);
    }
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw transport(path, `HTTP ${response.status}`);
    }
    try {
      return await boundedText(response, maxBytes, () => tooLarge(path));
    } catch (error) {
      if (error instanceof KnowledgeToolError || signal?.aborted) throw error;
      if (timeout.aborted)
        throw transport(path, `no whole answer within ${timeoutMs} ms (\`fetchTimeoutMs\`)`, error);
      throw transport(path, error instanceof Error ? error.message : String(error), error);
    }
  };

  const text = async (path: string, signal: AbortSignal | undefined): Promise<string> => {
    const found = await readRaw(path, signal);
    if (found === null)
      throw transport(
        path,
        'it is not there (the bundle is incomplete, or was replaced meanwhile)',
      );
    return found;
  };
  const json = async (path: string, signal: AbortSignal | undefined): Promise<unknown> => {
    const found = await text(path, signal);
    try {
      return JSON.parse(found) as unknown;
    } catch {
      throw broken(path, 'is not JSON');
    }
  };

  /** A JSON file's text parsed, and its length (what keeping it costs). */
  const parsed = (path: string, found: string): { value: unknown; chars: number } => {
    try {
      return { value: JSON.parse(found) as unknown, chars: found.length };
    } catch {
      throw broken(path, 'is not JSON');
    }
  };

  /**
   * A search shard's text checked against the digest its name carries (`<kind>-<16 hex digits of its
   * SHA-256>.json`): a shard replaced or edited after the export is refused, not searched.
   */
  const checkedShard = async (
    path: string,
    signal: AbortSignal | undefined,
  ): Promise<{ value: unknown; chars: number }> => {
    const found = await text(path, signal);
    const name = path.slice(BUNDLE_PATHS.searchDir.length);
    const dash = name.lastIndexOf('-');
    if (dash > 0 && shardName(name.slice(0, dash), found) !== name)
      throw broken(
        path,
        'does not match the digest in its name (its text was changed after the export)',
      );
    return parsed(path, found);
  };

  let keptKey: string | undefined;
  /** Kept files of revision `keptKey`, least recently used first, with the characters each cost. */
  let kept = new Map<string, { readonly read: Promise<unknown>; chars: number }>();
  let keptChars = 0;
  /** Drops the least recently used files while more than `KEPT_FILES` or `KEPT_CHARS` are kept. */
  const trim = (): void => {
    for (const [path, entry] of kept) {
      if (kept.size <= KEPT_FILES && keptChars <= KEPT_CHARS) break;
      kept.delete(path);
      keptChars -= entry.chars;
    }
  };
  return {
    async manifest(signal) {
      const found = await readRaw(BUNDLE_PATHS.manifest, signal);
      if (found === null)
        throw transport(BUNDLE_PATHS.manifest, 'there is no manifest.json (is this a bundle?)');
      let manifest: Partial<BundleManifest>;
      try {
        manifest = JSON.parse(found) as Partial<BundleManifest>;
      } catch {
        throw broken(BUNDLE_PATHS.manifest, 'is not JSON');
      }
      if (manifest.format !== BUNDLE_FORMAT || manifest.version !== BUNDLE_VERSION)
        throw broken(
          BUNDLE_PATHS.manifest,
          `is not a ${BUNDLE_FORMAT} manifest of version ${BUNDLE_VERSION} (it says ${JSON.stringify(manifest.format)} version ${JSON.stringify(manifest.version)})`,
        );
      return manifest as BundleManifest;
    },
    text,
    json,
    optional: readRaw,
    cached(key, path, signal) {
      if (keptKey !== key) {
        keptKey = key;
        kept = new Map();
        keptChars = 0;
      }
      const map = kept;
      const hit = map.get(path);
      if (hit !== undefined) {
        map.delete(path);
        map.set(path, hit);
        return hit.read;
      }
      const loaded =
        path.startsWith(BUNDLE_PATHS.searchDir) && path !== BUNDLE_PATHS.search
          ? checkedShard(path, signal)
          : text(path, signal).then((found) => parsed(path, found));
      const entry = { read: loaded.then(({ value }) => value), chars: 0 };
      map.set(path, entry);
      loaded.then(
        ({ chars }) => {
          if (map !== kept || map.get(path) !== entry) return;
          entry.chars = chars;
          keptChars += chars;
          trim();
        },
        (error: unknown) => {
          // A file that is not what the export wrote stays refused for this revision (it is the
          // same file until the manifest changes): it is not read and parsed again on every call. A
          // failure to read it (the network, a file of another revision) is tried again.
          const kept_ = error instanceof KnowledgeToolError && error.code === 'INTERNAL';
          if (!kept_ && map.get(path) === entry) map.delete(path);
        },
      );
      if (map.size > KEPT_FILES) trim();
      return entry.read;
    },
    broken,
    mixed: (path) =>
      new KnowledgeToolError(
        'TRANSPORT_ERROR',
        `\`${path}\` of ${where} is of another revision than its manifest.json: the bundle is being replaced. Try again.`,
      ),
  };
}

/**
 * The body of `response` as text, read as it streams in and refused (`tooLarge()`) at the first byte
 * over `maxBytes`, or at once when `Content-Length` says so: a huge file is never held.
 */
async function boundedText(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(length) && length > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (response.body === null) return '';
  const chunks = await readCapped(response.body, maxBytes);
  if (chunks === undefined) throw tooLarge();
  const decoder = new TextDecoder();
  const parts = chunks.map((chunk) => decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}
