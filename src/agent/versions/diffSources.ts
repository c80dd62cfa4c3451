/**
 * What changed between two versions of a knowledge base: the pages added, removed and changed (by
 * path), and for each changed page its anchored sections and its headings added, removed and changed
 * (by content). Read through the six tools' source methods only, so any two sources compare: two
 * folders, a folder and a database, a static bundle and a remote knowledge base.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import stableStringify from 'fast-json-stable-stringify';
import { pageHeadings } from '../files/pageHeadings.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { GetFileOutput } from '../tools/getFile/types.js';
import type { ReadFileInput } from '../tools/readFile/types.js';
import type { KnowledgeCallContext } from '../types.js';

/** What was added, removed and changed among a page's sections or headings, by ID, in page order. */
export interface KnowledgePartChanges {
  /** In the newer version only (in its page order). */
  readonly added: readonly string[];
  /** In the older version only (in its page order). */
  readonly removed: readonly string[];
  /** In both, with other text (a section's own text or parent; a heading's text up to the next heading). */
  readonly changed: readonly string[];
}

/** One page that both versions have, with other content. */
export interface KnowledgePageChange {
  readonly path: string;
  /** Its front matter differs (title, tags, any key). */
  readonly frontmatterChanged: boolean;
  /** Its anchored sections. */
  readonly sections: KnowledgePartChanges;
  /** Its headings (by heading ID, as `get_file` lists them). */
  readonly headings: KnowledgePartChanges;
}

/** The differences between two versions: pages by path, sorted; a page's parts in page order. */
export interface KnowledgeVersionDiff {
  /** The older version's label. */
  readonly from: string;
  /** The newer version's label. */
  readonly to: string;
  /** Paths of pages only `to` has. */
  readonly added: readonly string[];
  /** Paths of pages only `from` has. */
  readonly removed: readonly string[];
  /** Pages both have, with other content. */
  readonly changed: readonly KnowledgePageChange[];
  /** How many pages both have with the same content. */
  readonly unchanged: number;
}

/** How many pages are compared at once (each compare is a few reads of both sources). */
const PARALLEL_PAGES = 8;
/** The largest listing page `list_tree` gives. */
const LIST_LIMIT = 200;

/**
 * The pages of `source` (navigation files left out), by path, walking `list_tree` from the root.
 * An explicit stack: the folder depth comes from the source.
 */
async function pagesOf(
  source: KnowledgeSource,
  context: KnowledgeCallContext | undefined,
): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  const folders = [''];
  while (folders.length > 0) {
    const parentPath = folders.pop()!;
    let cursor: string | null = null;
    do {
      const listed = await source.listTree(
        cursor === null ? { parentPath, limit: LIST_LIMIT } : { parentPath, cursor },
        context,
      );
      if (listed.cursorRestarted === true) return restarted();
      for (const item of listed.items) {
        if (item.entryType === 'directory') folders.push(item.path);
        else if (item.fileKind === 'page') pages.set(item.path, item.fileId);
      }
      cursor = listed.nextCursor;
    } while (cursor !== null);
  }
  return pages;
}

/** A remote source restarted a cursor: the version changed while it was read. */
function restarted(): never {
  throw new Error(
    'diffVersions: a version changed while it was being compared (a cursor was restarted); compare again.',
  );
}

/** The whole text `input` selects, read part by part. */
async function readWhole(
  source: KnowledgeSource,
  input: ReadFileInput,
  context: KnowledgeCallContext | undefined,
): Promise<string> {
  let text = '';
  let cursor: string | null = null;
  do {
    const read = await source.readFile(cursor === null ? input : { cursor }, context);
    if (read.cursorRestarted === true) restarted();
    text += read.content;
    cursor = read.nextCursor;
  } while (cursor !== null);
  return text;
}

/** A content digest of `text`. */
function digestOf(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** What one version of a page holds, as digests by ID. */
interface PageContent {
  readonly file: GetFileOutput;
  readonly text: string;
  /** Section ID → digest of its parent and own text, in page order. */
  readonly sections: ReadonlyMap<string, string>;
  /** Heading ID → digest of its own text (to the next heading of any level, trailing space left out), in page order. */
  readonly headings: ReadonlyMap<string, string>;
}

/** One version of a page: where to read it, and its `get_file` record. */
interface PageVersion {
  readonly source: KnowledgeSource;
  readonly file: GetFileOutput;
}

/** Reads one version of a page. */
async function pageContent(
  { source, file }: PageVersion,
  context: KnowledgeCallContext | undefined,
): Promise<PageContent> {
  const { fileId } = file;
  const text = await readWhole(source, { fileId }, context);
  const sections = new Map<string, string>();
  for (const section of file.sections) {
    const own = await readWhole(
      source,
      { fileId, sectionIds: [section.id], mode: 'self' },
      context,
    );
    sections.set(section.id, digestOf(`${section.parentId ?? ''}\n${own}`));
  }
  const headings = new Map<string, string>();
  const ranges = pageHeadings(text);
  ranges.forEach((heading, i) => {
    const end = i + 1 < ranges.length ? ranges[i + 1]!.from : heading.to;
    // Trailing blank lines belong to no heading: a heading added after the last one changes only them.
    headings.set(heading.id, digestOf(text.slice(heading.from, end).trimEnd()));
  });
  return { file, text, sections, headings };
}

/** The IDs added, removed and changed from `before` to `after`. */
function partChanges(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): KnowledgePartChanges {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [id, digest] of after) {
    const old = before.get(id);
    if (old === undefined) added.push(id);
    else if (old !== digest) changed.push(id);
  }
  const removed = [...before.keys()].filter((id) => !after.has(id));
  return { added, removed, changed };
}

/** Whether a part list holds no change. */
function noChange(changes: KnowledgePartChanges): boolean {
  return changes.added.length + changes.removed.length + changes.changed.length === 0;
}

/** Compares one page both versions have: `undefined` when its content is the same. */
async function comparePage(
  path: string,
  older: PageVersion,
  newer: PageVersion,
  context: KnowledgeCallContext | undefined,
): Promise<KnowledgePageChange | undefined> {
  const before = await pageContent(older, context);
  const after = await pageContent(newer, context);
  const frontmatterChanged =
    stableStringify(before.file.frontmatter) !== stableStringify(after.file.frontmatter);
  const sections = partChanges(before.sections, after.sections);
  const headings = partChanges(before.headings, after.headings);
  if (!frontmatterChanged && before.text === after.text && noChange(sections) && noChange(headings))
    return undefined;
  return { path, frontmatterChanged, sections, headings };
}

/**
 * The differences between two versions of a knowledge base, each given as a source: pages added,
 * removed and changed by path, and for a changed page its sections and headings added, removed and
 * changed by content. A page is compared by its whole text, its front matter, its sections' own
 * texts and parents, and its headings' own texts; two pages whose revisions are the same content
 * digest (`sha256:…`, as folders give them) are the same without being read.
 *
 * @param from - the older version: its label and its source.
 * @param to - the newer version: its label and its source.
 * @param context - a signal that stops the comparison.
 * @returns the differences; `added`, `removed` and `changed` sorted by path.
 * @throws the sources' `KnowledgeToolError`s as they come (a failed read is never a difference).
 */
export async function diffSources(
  from: { readonly label: string; readonly source: KnowledgeSource },
  to: { readonly label: string; readonly source: KnowledgeSource },
  context?: KnowledgeCallContext,
): Promise<KnowledgeVersionDiff> {
  const before = await pagesOf(from.source, context);
  const after = await pagesOf(to.source, context);
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const added = [...after.keys()].filter((path) => !before.has(path)).sort(byPath);
  const removed = [...before.keys()].filter((path) => !after.has(path)).sort(byPath);
  const both = [...after.keys()].filter((path) => before.has(path)).sort(byPath);
  const results: (KnowledgePageChange | undefined)[] = new Array(both.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < both.length) {
      const i = next++;
      const path = both[i]!;
      const older = {
        source: from.source,
        file: await from.source.getFile({ fileId: before.get(path)! }, context),
      };
      const newer = {
        source: to.source,
        file: await to.source.getFile({ fileId: after.get(path)! }, context),
      };
      // The same `sha256:` revision is the same bytes: the same content, without reading it.
      const { revision } = older.file;
      if (
        typeof revision === 'string' &&
        revision.startsWith('sha256:') &&
        revision === newer.file.revision
      )
        continue;
      results[i] = await comparePage(path, older, newer, context);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_PAGES, both.length) }, worker));
  const changed = results.filter((change) => change !== undefined);
  return {
    from: from.label,
    to: to.label,
    added,
    removed,
    changed,
    unchanged: both.length - changed.length,
  };
}
