/**
 * An embedding cache kept in one file: the BM25F engine's chunk vectors survive a restart, so
 * only the chunks whose text changed are embedded again.
 *
 * @module
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KnowledgeEmbeddingCache } from '../agent/index.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { checkOptions } from '../shared/checkOptions.js';

const API = 'openEmbeddingCache';
/** The file's first line. */
const MAGIC = 'knowledge-kit embeddings 1\n';
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Options of `openEmbeddingCache`. */
export interface EmbeddingCacheOptions {
  /**
   * The embedding model (and its settings, e.g. `text-embedding-3-small@256`). A file written for
   * another model is not used: the cache starts empty and its first save replaces the file.
   */
  readonly model: string;
}

/** An embedding cache kept in a file, from `openEmbeddingCache`. */
export interface FileEmbeddingCache extends KnowledgeEmbeddingCache {
  /** The file, as an absolute path. */
  readonly file: string;
  /** The model the vectors belong to. */
  readonly model: string;
  /** Vectors held. */
  readonly size: number;
  get(key: string): Float32Array | undefined;
  set(key: string, vector: ArrayLike<number>): void;
  /**
   * Write the vectors used since the cache was opened (read by `get` or stored by `set`) to the file,
   * atomically (a temporary file beside it, then a rename), when `set` stored any since the last
   * save. Vectors not used since opening (those of pages gone) are left out of the file.
   *
   * @throws {KnowledgeError} `WRITE_FAILED` naming the file.
   */
  flush(): Promise<void>;
}

/**
 * Open an embedding cache kept in `file`, for `createBm25fEngine({ embedder, embeddingCache })`.
 * A missing file is an empty cache. The engine stores each new chunk vector and saves the file after
 * a vector build that embedded anything; on the next start, or for a new revision, only chunks
 * whose text changed are embedded. The file holds one model's vectors (a vector of another length
 * replaces them all) as a JSON header and little-endian 32-bit floats.
 *
 * @param file - the cache file, a path or a `file:` URL; its folder is made when saving.
 * @param options - `model`: the embedding model the vectors belong to.
 * @returns the cache, loaded.
 * @throws {KnowledgeError} `INVALID_INPUT` for bad arguments; `READ_FAILED` when the file cannot be
 *   read or is not an embedding cache.
 * @example
 * ```ts
 * import { openEmbeddingCache } from 'knowledge-kit/node';
 * const embeddingCache = await openEmbeddingCache('.cache/embeddings.bin', { model: 'text-embedding-3-small' });
 * const source = createCatalogSource(catalog, { search: createBm25fEngine({ embedder, embeddingCache }) });
 * await source.warm(); // embeds what the file lacks, then saves it
 * ```
 */
export async function openEmbeddingCache(
  file: string | URL,
  options: EmbeddingCacheOptions,
): Promise<FileEmbeddingCache> {
  const path = checkArguments(file, options);
  const model = options.model;
  let entries = new Map<string, Float32Array>();
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No such file (or a file where a folder of its path should be): an empty cache.
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      throw new KnowledgeError(
        [
          {
            code: 'READ_FAILED',
            path: ['file'],
            file: path,
            message: `${API}: the embedding cache \`${path}\` cannot be read (${(error as Error).message}). Fix its permissions, or pass another file.`,
          },
        ],
        { cause: error },
      );
  }
  if (bytes !== undefined) {
    const parsed = parseCache(bytes);
    if (typeof parsed === 'string')
      throw new KnowledgeError([
        {
          code: 'READ_FAILED',
          path: ['file'],
          file: path,
          message: `${API}: \`${path}\` is not a Knowledge Kit embedding cache (${parsed}). Pass the cache's own file; if it is a damaged cache, delete it and the next start embeds again.`,
        },
      ]);
    if (parsed.model === model) entries = parsed.entries;
  }
  let dimensions = entries.size === 0 ? 0 : entries.values().next().value!.length;
  const used = new Set<string>();
  let dirty = false;
  let saving: Promise<void> = Promise.resolve();

  const save = async (): Promise<void> => {
    if (!dirty) return;
    dirty = false;
    const keys = [...used].filter((key) => entries.has(key));
    const temp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      const handle = await open(temp, 'w');
      try {
        await handle.writeFile(serialize(model, dimensions, keys, entries));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (error) {
      dirty = true;
      await rm(temp, { force: true }).catch(() => undefined);
      throw new KnowledgeError(
        [
          {
            code: 'WRITE_FAILED',
            path: ['file'],
            file: path,
            message: `${API}: the embedding cache \`${path}\` cannot be saved (${(error as Error).message}). Make its folder writable, or open the cache on another file.`,
          },
        ],
        { cause: error },
      );
    }
  };

  return {
    file: path,
    model,
    get size() {
      return entries.size;
    },
    get(key) {
      const vector = entries.get(key);
      if (vector !== undefined) used.add(key);
      return vector;
    },
    set(key, vector) {
      const copy = Float32Array.from(vector);
      if (copy.length !== dimensions) {
        if (entries.size > 0) entries = new Map();
        dimensions = copy.length;
      }
      entries.set(key, copy);
      used.add(key);
      dirty = true;
    },
    flush() {
      saving = saving.catch(() => undefined).then(save);
      return saving;
    },
  };
}

function checkArguments(file: unknown, options: unknown): string {
  const issues: KnowledgeIssue[] = [];
  let path = '';
  if (typeof file === 'string' && file !== '') path = resolve(file);
  else if (file instanceof URL && file.protocol === 'file:') path = fileURLToPath(file);
  else
    issues.push({
      code: 'INVALID_INPUT',
      path: ['file'],
      message: `${API}: \`file\` must be a file path or a \`file:\` URL, such as \`'.cache/embeddings.bin'\`.`,
    });
  const o = checkOptions(
    API,
    options,
    { model: (v) => (typeof v === 'string' && v !== '' ? undefined : 'a non-empty string') },
    issues,
  );
  if (options !== undefined && o['model'] === undefined && issues.length === 0)
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'model'],
      message: `${API}: \`model\` is required: the embedding model the vectors belong to, e.g. \`{ model: 'text-embedding-3-small' }\`.`,
    });
  if (options === undefined)
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options'],
      message: `${API}: pass the embedding model the vectors belong to, e.g. \`openEmbeddingCache(file, { model: 'text-embedding-3-small' })\`.`,
    });
  if (issues.length > 0) throw new KnowledgeError(issues);
  return path;
}

/** The file's bytes: the magic line, a JSON header line padded to 4 bytes, the floats. */
function serialize(
  model: string,
  dimensions: number,
  keys: readonly string[],
  entries: ReadonlyMap<string, Float32Array>,
): Uint8Array {
  let header = MAGIC + JSON.stringify({ model, dimensions, keys });
  const headerBytes = () => Buffer.byteLength(header) + 1;
  while (headerBytes() % 4 !== 0) header += ' ';
  header += '\n';
  const head = Buffer.from(header, 'utf8');
  const out = new Uint8Array(head.length + keys.length * dimensions * 4);
  out.set(head, 0);
  const view = new DataView(out.buffer);
  let offset = head.length;
  for (const key of keys) {
    const vector = entries.get(key)!;
    if (LITTLE_ENDIAN)
      out.set(new Uint8Array(vector.buffer, vector.byteOffset, dimensions * 4), offset);
    else for (let d = 0; d < dimensions; d++) view.setFloat32(offset + d * 4, vector[d]!, true);
    offset += dimensions * 4;
  }
  return out;
}

/** The cache in `bytes`, or what is wrong with them. */
function parseCache(
  bytes: Uint8Array,
): { model: string; entries: Map<string, Float32Array> } | string {
  const magic = Buffer.from(MAGIC, 'utf8');
  if (bytes.length < magic.length || !magic.equals(bytes.subarray(0, magic.length)))
    return 'its first line is not `knowledge-kit embeddings 1`';
  const end = bytes.indexOf(10, magic.length);
  if (end === -1) return 'its header has no end';
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(bytes.subarray(magic.length, end)).toString('utf8'));
  } catch {
    return 'its header is not JSON';
  }
  const { model, dimensions, keys } = (header ?? {}) as Record<string, unknown>;
  if (
    typeof model !== 'string' ||
    !Number.isSafeInteger(dimensions) ||
    (dimensions as number) < 0 ||
    !Array.isArray(keys) ||
    !keys.every((k) => typeof k === 'string')
  )
    return 'its header lacks `model`, `dimensions` or `keys`';
  const dims = dimensions as number;
  const start = end + 1;
  if (bytes.length - start !== keys.length * dims * 4)
    return `it holds ${bytes.length - start} bytes of vectors, not ${keys.length} × ${dims} floats`;
  const floats = new Float32Array(keys.length * dims);
  if (LITTLE_ENDIAN) new Uint8Array(floats.buffer).set(bytes.subarray(start));
  else {
    const view = new DataView(bytes.buffer, bytes.byteOffset + start);
    for (let i = 0; i < floats.length; i++) floats[i] = view.getFloat32(i * 4, true);
  }
  const entries = new Map<string, Float32Array>();
  for (let k = 0; k < keys.length; k++)
    entries.set(keys[k] as string, floats.subarray(k * dims, (k + 1) * dims));
  return { model, entries };
}
