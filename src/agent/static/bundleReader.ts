/**
 * Reading a bundle's files: with `fetch` under a base URL, or with a function the caller passes. The
 * manifest is read on every call (so a new revision is seen at once); JSON files of one revision are
 * kept, keyed by that revision, the least recently used dropped past `KEPT_FILES`, and never mixed
 * with another revision's.
 */
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_PATHS,
  BUNDLE_VERSION,
  bundleUrlPath,
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

/** A bundle's files as a source reads them. */
export interface BundleReader {
  /** `manifest.json`, read now and checked. */
  manifest(signal: AbortSignal | undefined): Promise<BundleManifest>;
  /** A file's text (a missing file is an error naming it). */
  text(path: string, signal: AbortSignal | undefined): Promise<string>;
  /** A JSON file, parsed. */
  json(path: string, signal: AbortSignal | undefined): Promise<unknown>;
  /** A JSON file of revision `key`, parsed, kept while `key` is the newest revision seen. */
  cached(key: string, path: string, signal: AbortSignal | undefined): Promise<unknown>;
  /** The error for a file of another revision than the manifest's. */
  mixed(path: string): Error;
}

/** JSON files kept per revision (shards, the search manifest). */
const KEPT_FILES = 512;

/**
 * A reader over a bundle.
 *
 * @param location - `{ read }` or `{ baseUrl, fetch }`.
 * @returns the reader.
 */
export function readBundle(location: BundleLocation): BundleReader {
  const where = 'read' in location ? 'the bundle' : `the bundle at ${location.baseUrl}`;
  const base =
    'read' in location
      ? undefined
      : new URL(location.baseUrl.endsWith('/') ? location.baseUrl : `${location.baseUrl}/`);

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

  const readRaw = async (path: string, signal: AbortSignal | undefined): Promise<string | null> => {
    if ('read' in location) {
      try {
        return await location.read(path, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        throw transport(path, error instanceof Error ? error.message : String(error), error);
      }
    }
    let response: Response;
    try {
      response = await location.fetch(
        new Request(new URL(bundleUrlPath(path), base), signal === undefined ? {} : { signal }),
      );
    } catch (error) {
      if (signal?.aborted) throw error;
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
    return response.text();
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

  let keptKey: string | undefined;
  let kept = new Map<string, Promise<unknown>>();
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
    cached(key, path, signal) {
      if (keptKey !== key) {
        keptKey = key;
        kept = new Map();
      }
      const map = kept;
      const hit = map.get(path);
      if (hit !== undefined) {
        map.delete(path);
        map.set(path, hit);
        return hit;
      }
      const read = json(path, signal);
      map.set(path, read);
      read.catch(() => {
        if (map.get(path) === read) map.delete(path);
      });
      if (map.size > KEPT_FILES) map.delete(map.keys().next().value!);
      return read;
    },
    mixed: (path) =>
      new KnowledgeToolError(
        'TRANSPORT_ERROR',
        `\`${path}\` of ${where} is of another revision than its manifest.json: the bundle is being replaced. Try again.`,
      ),
  };
}
