/**
 * The states of the calls a stored source answers from what they return only: a `list_tree` window,
 * `index.md`, an `expand_graph` walk level by level, a search over the stored index. Each is built
 * from the reads of the store's `StoreCall` and answered by the tools' own code. Anything the call
 * touches beyond what was read throws `NotRead`, and the source answers that call again from the
 * whole revision's records: slower, never different. Also what a plan asks of `page` and `revision`.
 *
 * @module
 */
import { defineKnowledgeCatalog } from '../../catalog/defineKnowledgeCatalog.js';
import { graphFilePath } from '../../shared/pagePath.js';
import { isPlainObject } from '../../shared/values.js';
import type { DirectoryRecord, FileRecord, FileTable } from '../model.js';
import type { SearchEngine } from '../search/port.js';
import type { ActiveContentRevision } from '../types.js';
import type { CallScope } from './callScope.js';
import { resumeListing } from './cursor.js';
import { notRead } from './notRead.js';
import { planInteger, type ReadPlan } from './readPlan.js';
import type { SourceState } from './state.js';
import {
  servedAs,
  type StoredContext,
  type StoredPage,
  storedState,
  storedTable,
} from './storedState.js';
import {
  GONE,
  MISSING,
  type PageWant,
  type RevisionWant,
  type StoreCall,
  type StoreSearch,
} from './storeReader.js';

export type { StoredContext };

/** How many times a call starts again when the revision it pinned was removed meanwhile. */
const ATTEMPTS = 3;

/** An engine for calls that do not search: never called. */
export const NO_ENGINE: SearchEngine = Object.freeze({
  search: () => Promise.reject(new Error('stored source: no engine was built for this call')),
});

/** The want of a call that needs the page records only. */
export const RECORDS_ONLY: RevisionWant = Object.freeze({
  fileId: null,
  path: null,
  document: false,
  relationsOf: null,
  allRelations: false,
  everything: false,
});

const GRAPH_PREFIX = '_graph/by-file/';
const GRAPH_SUFFIX = '.json';

/** The page a graph file's path or ID names (`graphFilePath` backwards), or `null`. */
export function graphPage(value: unknown): string | null {
  if (
    typeof value !== 'string' ||
    !value.startsWith(GRAPH_PREFIX) ||
    !value.endsWith(GRAPH_SUFFIX) ||
    value.length <= GRAPH_PREFIX.length + GRAPH_SUFFIX.length
  )
    return null;
  try {
    const fileId = decodeURIComponent(value.slice(GRAPH_PREFIX.length, -GRAPH_SUFFIX.length));
    return graphFilePath(fileId) === value ? fileId : null;
  } catch {
    return null;
  }
}

/**
 * The one page a call reads, when its plan names one file by exactly one of `fileId` and `path` and
 * reads no more than that file (its text, its relationships); otherwise `undefined`. A graph file's
 * reads are its page's: its record comes with its page's, its text is that page's relationships.
 *
 * @param plan - the call's plan.
 */
export function pageWantOf(plan: ReadPlan): PageWant | undefined {
  const { file } = plan;
  if (file === undefined || (file.fileId === null) === (file.path === null)) return undefined;
  const graph = graphPage(file.fileId ?? file.path);
  if (plan.text)
    return graph === null
      ? { fileId: file.fileId, path: file.path, document: true, related: false }
      : { fileId: graph, path: null, document: false, related: true };
  if (plan.related) return { fileId: file.fileId, path: file.path, document: false, related: true };
  return graph === null
    ? { fileId: file.fileId, path: file.path, document: false, related: false }
    : { fileId: graph, path: null, document: false, related: false };
}

/**
 * What a call planned as `plan` reads of the whole revision besides the page records.
 *
 * @param plan - the call's plan.
 */
export function revisionWantOf(plan: ReadPlan): RevisionWant {
  const { file } = plan;
  if (plan.everything) return { ...RECORDS_ONLY, everything: true };
  if (plan.walk !== undefined) return { ...RECORDS_ONLY, allRelations: true };
  if (file === undefined) return RECORDS_ONLY;
  if (plan.text)
    return {
      ...RECORDS_ONLY,
      fileId: file.fileId,
      path: file.path,
      document: true,
      relationsOf: graphPage(file.fileId) ?? graphPage(file.path),
    };
  if (plan.related) return { ...RECORDS_ONLY, relationsOf: file.fileId };
  return { ...RECORDS_ONLY, fileId: file.fileId, path: file.path };
}

/**
 * A list of `length` items of which only `[from, from + items.length)` were read: reading any other
 * index throws `NotRead`. Only `length` and indexing are offered (what `listTree` uses).
 */
function windowOf<T>(length: number, from: number, items: readonly T[]): readonly T[] {
  return new Proxy([] as T[], {
    get(target, key, receiver) {
      if (key === 'length') return length;
      if (typeof key === 'string' && key.length > 0 && key.length < 16) {
        const i = Number(key);
        if (Number.isSafeInteger(i) && i >= 0) {
          const item = i >= from ? items[i - from] : undefined;
          return item ?? notRead(`item ${i} of a directory listing`);
        }
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** The table's reads that a partial table does not hold. */
const UNREAD = {
  get pages() {
    return notRead('the page list');
  },
  get files() {
    return notRead('the file list');
  },
  directory: (path: string) => notRead(`the directory ${JSON.stringify(path)}`),
  closestIds: () => notRead('the file IDs'),
  closestPaths: () => notRead('the file paths'),
};

/** A file table that knows only `files` and, optionally, one window of one directory. */
function partialTable(
  revision: ActiveContentRevision,
  files: readonly FileRecord[],
  listing?: {
    readonly path: string;
    readonly directories: readonly DirectoryRecord[];
    readonly files: readonly FileRecord[];
  },
): FileTable {
  const find = (key: 'fileId' | 'path', value: string) =>
    files.find((f) => f[key] === value) ?? notRead(`the file ${JSON.stringify(value)}`);
  return {
    activeContentRevision: revision,
    get pages() {
      return UNREAD.pages;
    },
    get files() {
      return UNREAD.files;
    },
    byId: (fileId) => find('fileId', fileId),
    byPath: (path) => find('path', path),
    directory: UNREAD.directory,
    children: (path) =>
      listing !== undefined && listing.path === path
        ? listing
        : notRead(`the directory ${JSON.stringify(path)}`),
    closestIds: UNREAD.closestIds,
    closestPaths: UNREAD.closestPaths,
  };
}

/** A source state over a partial table of the revision `read` read; `navText` answers `nav` when given. */
function partialState(
  context: StoredContext,
  read: { readonly version?: string | undefined; readonly publishedAt?: string | undefined },
  table: FileTable,
  engine: SearchEngine,
  nav?: { readonly fileId: string; readonly content: string },
): SourceState {
  // The version fields named, not spread first: V8 adds the properties after a leading spread slowly.
  const { version, publishedAt } = servedAs(context, read);
  return {
    version,
    publishedAt,
    catalog: defineKnowledgeCatalog([]),
    table,
    relations: { get: (fileId) => notRead(`the relationships of ${JSON.stringify(fileId)}`) },
    engine,
    defaults: context.defaults,
    maxReadChars: context.maxReadChars,
    cursors: context.cursors,
    navText: (fileId) =>
      nav !== undefined && nav.fileId === fileId
        ? nav.content
        : notRead(`the text of ${JSON.stringify(fileId)}`),
    sectionSizes: (documentId) => notRead(`the section sizes of ${JSON.stringify(documentId)}`),
  };
}

const argsOf = (input: unknown): Record<string, unknown> => (isPlainObject(input) ? input : {});

/**
 * `list_tree`: the directory's counts and the window the call's cursor points at (the cursor decoded
 * against the revision a first read found, so a call with a cursor reads twice, pinned to one
 * revision).
 *
 * @returns the state, or `undefined` when the store has no listings, or not this directory (the
 *   caller reads the whole revision, whose answer is the error).
 */
export async function listingState<Pin>(
  context: StoredContext,
  call: StoreCall<Pin>,
  scope: CallScope,
  input: unknown,
): Promise<SourceState | undefined> {
  if (call.listing === undefined) return undefined;
  const args = argsOf(input);
  let parentPath = typeof args['parentPath'] === 'string' ? args['parentPath'] : '';
  let limit = planInteger(args['limit'], 1, 200, 50);
  const cursor = typeof args['cursor'] === 'string' ? args['cursor'] : undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let pin: Pin | null = null;
    let from = 0;
    if (cursor !== undefined) {
      const active = await call.pages(null, [], false);
      if (active === undefined || active === GONE) return undefined;
      pin = active.pin;
      try {
        // A cursor alone carries the parameters it was issued for.
        const resumed = resumeListing(scope, context.cursors, active.revision, args, {
          parentPath: '',
          limit: 50,
        });
        ({ parentPath, limit } = resumed.binding.params);
        from = resumed.position?.offset ?? 0;
      } catch {
        from = 0; // listTree refuses the cursor itself, with the right error
      }
    }
    const window = await call.listing(pin, parentPath, from, from + limit);
    if (window === GONE) continue;
    if (window === undefined || window === MISSING) return undefined;
    // Pages become the file table's records through the same code as every other read.
    const pages = storedTable(
      window.entries.flatMap((e) => ('page' in e ? [e.page] : [])),
      window.revision,
    );
    const entries = window.entries.map((e) => ('page' in e ? pages.byId(e.page.fileId)! : e));
    const directories = entries.filter((_, i) => from + i < window.directoryCount);
    const files = entries.filter((_, i) => from + i >= window.directoryCount);
    const table = partialTable(window.revision, [], {
      path: parentPath,
      directories: windowOf(window.directoryCount, from, directories as DirectoryRecord[]),
      files: windowOf(
        window.fileCount,
        Math.max(0, from - window.directoryCount),
        files as FileRecord[],
      ),
    });
    return partialState(context, window, table, NO_ENGINE);
  }
  return undefined;
}

/**
 * `read_file` and `get_file` of a stored navigation file (`index.md`): its record and text.
 *
 * @returns the state, or `undefined` when the call is not about one (the caller reads as before).
 */
export async function navFileState<Pin>(
  context: StoredContext,
  call: StoreCall<Pin>,
  file: NonNullable<ReadPlan['file']>,
): Promise<SourceState | undefined> {
  if (call.navFile === undefined) return undefined;
  const name = file.fileId ?? file.path;
  if (name !== 'index.md' || (file.fileId !== null && file.path !== null)) return undefined;
  const nav = await call.navFile(name);
  if (nav === undefined || nav === MISSING) return undefined;
  return partialState(context, nav, partialTable(nav.revision, [nav.file]), NO_ENGINE, {
    fileId: nav.file.fileId,
    content: nav.content,
  });
}

/**
 * `expand_graph`: the seed's record and relationships, then, level by level, the pages the frontier
 * reaches (as `expandGraph` walks it: each file's `fanout` strongest relationships, no file twice),
 * with their relationships while another level follows. One read per level, pinned to the revision
 * of the first.
 *
 * @returns the state, or `undefined` when the knowledge base or the seed page is not stored.
 */
export async function walkState<Pin>(
  context: StoredContext,
  call: StoreCall<Pin>,
  walk: NonNullable<ReadPlan['walk']>,
): Promise<SourceState | undefined> {
  const { seed, depth, fanout } = walk;
  attempts: for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const first = await call.pages(null, [seed], true);
    if (first === undefined || first === GONE || first.pages.length === 0) return undefined;
    const known = new Map<string, StoredPage>(first.pages.map((p) => [p.record.fileId, p]));
    const seen = new Set([seed]);
    let frontier = [seed];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: string[] = [];
      for (const from of frontier) {
        const relations = known.get(from)?.relations ?? [];
        for (let i = 0; i < Math.min(fanout, relations.length); i++) {
          const to = relations[i]!.fileId;
          if (seen.has(to)) continue;
          seen.add(to);
          next.push(to);
        }
      }
      const unread = next.filter((id) => !known.has(id));
      if (unread.length > 0) {
        const read = await call.pages(first.pin, unread, level < depth);
        if (read === undefined || read === GONE) continue attempts;
        for (const page of read.pages) known.set(page.record.fileId, page);
      }
      frontier = next;
    }
    return storedState([...known.values()], first, NO_ENGINE, context);
  }
  return undefined;
}

/**
 * The state of one `search_files` call (or `warm`) over an opened search index: `engine` searches
 * its rows, and the file table holds the records of the hits shown only.
 *
 * @param context - the source's settings.
 * @param search - the index the store opened.
 * @param engine - the engine over `search.store`.
 */
export function searchState<Pin>(
  context: StoredContext,
  search: StoreSearch<Pin>,
  engine: SearchEngine,
): SourceState {
  let hits: FileTable | undefined;
  let seen = -1;
  /** The table of the records read so far (the hits'). */
  const current = (): FileTable => {
    const records = search.hits();
    if (hits === undefined || seen !== records.length) {
      hits = storedTable(records, search.revision);
      seen = records.length;
    }
    return hits;
  };
  const table: FileTable = {
    activeContentRevision: search.revision,
    get pages() {
      return UNREAD.pages;
    },
    get files() {
      return UNREAD.files;
    },
    byId: (fileId) =>
      current().byId(fileId) ?? notRead(`the file ${JSON.stringify(fileId)} (not a hit shown)`),
    byPath: (path) =>
      current().byPath(path) ?? notRead(`the file ${JSON.stringify(path)} (not a hit shown)`),
    directory: UNREAD.directory,
    children: (path) => notRead(`the directory ${JSON.stringify(path)}`),
    closestIds: UNREAD.closestIds,
    closestPaths: UNREAD.closestPaths,
  };
  return partialState(context, search, table, engine);
}
