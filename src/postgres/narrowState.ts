/**
 * The state of a whole-revision call built from what it returns only (schema version 2): `list_tree`
 * from one window of its directory, `index.md` from its stored text, `expand_graph` from the pages its
 * frontier reaches, level by level. The agent layer's own code answers from it, as from the whole
 * revision. Anything the call touches that was not read throws `NotRead`, and the source answers that
 * call again from the whole revision's records (the old path): slower, never different.
 */
import { defineKnowledgeCatalog } from '../catalog/defineKnowledgeCatalog.js';
import {
  resumeListing,
  type CursorSigner,
  type CallScope,
  type DirectoryRecord,
  type FileRecord,
  type FileTable,
  type ScopeDefaults,
  type SourceState,
  notRead,
  planInteger,
  type ReadPlan,
  type StoredPage,
  storedState,
  storedTable,
} from '../agent/internals.js';
import type { ActiveContentRevision, KnowledgeEmbedder, SearchEngine } from '../agent/index.js';
import { isPlainObject } from '../internal/values.js';
import { readNavFile, readPages, readTreeWindow } from './readDerived.js';
import type { KnowledgeDatabase } from './types.js';

/** Where a source reads and what its calls answer with. */
export interface NarrowContext {
  readonly db: KnowledgeDatabase;
  readonly s: string;
  readonly knowledgeBase: string;
  readonly defaults: ScopeDefaults;
  readonly maxReadChars: number;
  readonly engine: SearchEngine;
  /** Signs and checks cursors, as the source's own state does. */
  readonly cursors: CursorSigner;
  /** Embeds queries for the stored chunk vectors (hybrid search), when given. */
  readonly embedder?: KnowledgeEmbedder | undefined;
  /** The semantic stage's time limit. */
  readonly semanticTimeoutMs?: number | undefined;
}

/** How many times a call starts again when the revision it pinned was removed meanwhile. */
const ATTEMPTS = 3;

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
      return notRead('the page list');
    },
    get files() {
      return notRead('the file list');
    },
    byId: (fileId) => find('fileId', fileId),
    byPath: (path) => find('path', path),
    directory: (path) => notRead(`the directory ${JSON.stringify(path)}`),
    children: (path) =>
      listing !== undefined && listing.path === path
        ? listing
        : notRead(`the directory ${JSON.stringify(path)}`),
    closestIds: () => notRead('the file IDs'),
    closestPaths: () => notRead('the file paths'),
  };
}

/** A source state over a partial table; `navText` answers `nav` when given. */
function partialState(
  context: NarrowContext,
  table: FileTable,
  nav?: { readonly fileId: string; readonly content: string },
): SourceState {
  return {
    catalog: defineKnowledgeCatalog([]),
    table,
    relations: { get: (fileId) => notRead(`the relationships of ${JSON.stringify(fileId)}`) },
    engine: context.engine,
    defaults: context.defaults,
    maxReadChars: context.maxReadChars,
    cursors: context.cursors,
    navText: (fileId) =>
      nav !== undefined && nav.fileId === fileId ? nav.content : notRead(`the text of ${fileId}`),
    sectionSizes: (documentId) => notRead(`the section sizes of ${JSON.stringify(documentId)}`),
  };
}

const argsOf = (input: unknown): Record<string, unknown> => (isPlainObject(input) ? input : {});

/**
 * `list_tree`: the directory's counts and the window the call's cursor points at (the cursor decoded
 * against the revision the first statement found, so a call with a cursor reads twice, pinned to one
 * revision).
 *
 * @returns the state, or `undefined` when the knowledge base, the directory or the revision's derived
 *   rows are not stored (the caller reads the whole revision, whose answer is the error).
 */
export async function listTreeState(
  context: NarrowContext,
  scope: CallScope,
  input: unknown,
): Promise<SourceState | undefined> {
  const args = argsOf(input);
  let parentPath = typeof args['parentPath'] === 'string' ? args['parentPath'] : '';
  let limit = planInteger(args['limit'], 1, 200, 50);
  const cursor = typeof args['cursor'] === 'string' ? args['cursor'] : undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let serial: number | null = null;
    let from = 0;
    if (cursor !== undefined) {
      const active = await readPages(context.db, context.s, context.knowledgeBase, null, [], false);
      if (active === undefined || active === 'gone') return undefined;
      serial = active.serial;
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
    const window = await readTreeWindow(
      context.db,
      context.s,
      context.knowledgeBase,
      serial,
      parentPath,
      from,
      from + limit,
    );
    if (window === 'gone') continue;
    if (window === undefined || window === 'missing') return undefined;
    // Pages become the file table's records through the same code as every other read (so fields
    // the table computes, not stored by an older version, are there).
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
    return partialState(context, table);
  }
  return undefined;
}

/**
 * `read_file` and `get_file` of a stored navigation file (`index.md`): its record and text.
 *
 * @returns the state, or `undefined` when the call is not about one (the caller reads as before).
 */
export async function navFileState(
  context: NarrowContext,
  file: NonNullable<ReadPlan['file']>,
): Promise<SourceState | undefined> {
  const name = file.fileId ?? file.path;
  if (name !== 'index.md' || (file.fileId !== null && file.path !== null)) return undefined;
  const nav = await readNavFile(context.db, context.s, context.knowledgeBase, name);
  if (nav === undefined || nav === 'missing') return undefined;
  return partialState(context, partialTable(nav.revision, [nav.file]), {
    fileId: nav.file.fileId,
    content: nav.content,
  });
}

/**
 * `expand_graph`: the seed's record and relationships, then, level by level, the pages the frontier
 * reaches (as `expandGraph` walks it: each file's `fanout` strongest relationships, no file twice),
 * with their relationships while another level follows. One statement per level, pinned to the
 * revision of the first.
 *
 * @returns the state, or `undefined` when the knowledge base or the seed page is not stored.
 */
export async function expandGraphState(
  context: NarrowContext,
  walk: NonNullable<ReadPlan['walk']>,
): Promise<SourceState | undefined> {
  const { seed, depth, fanout } = walk;
  attempts: for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const first = await readPages(context.db, context.s, context.knowledgeBase, null, [seed], true);
    if (first === undefined || first === 'gone' || first.pages.length === 0) return undefined;
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
        const read = await readPages(
          context.db,
          context.s,
          context.knowledgeBase,
          first.serial,
          unread,
          level < depth,
        );
        if (read === undefined || read === 'gone') continue attempts;
        for (const page of read.pages) known.set(page.record.fileId, page);
      }
      frontier = next;
    }
    return storedState(
      [...known.values()],
      first.revision,
      context.engine,
      context.defaults,
      context.maxReadChars,
      context.cursors,
    );
  }
  return undefined;
}
