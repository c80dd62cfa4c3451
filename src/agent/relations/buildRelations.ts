/**
 * Relationships between pages: `links_to` and `linked_from` from Markdown links (found by
 * `scanLinks`, outside code), and `shared_tag` between pages whose tags overlap (weight: the Jaccard
 * index of the two tag sets). Each page's list is ordered by weight, then type, then path.
 */
import type { KnowledgeCatalog } from '../../types.js';
import { compareCodePoints } from '../../shared/codePoints.js';
import type { FileTable, PageRecord, RelationRecord, RelationTable } from '../model.js';
import type { RelationType } from '../types.js';
import { type LinkRoot, PAGE_PATH_ROOT, pageForms, resolveLink } from './resolveLink.js';
import { scanLinks } from './scanLinks.js';

/** How many pages' finished relationship lists are kept. */
const CACHED_PAGES = 256;

const TYPE_ORDER: Readonly<Record<RelationType, number>> = {
  links_to: 0,
  linked_from: 1,
  shared_tag: 2,
};

interface LinkTally {
  count: number;
  sectionId: string | null;
}

/** How the links of every page resolved: counted, never guessed. */
export interface LinkCounts {
  /** Links (relative or site-root, outside code) that name a page, the linking page itself included. */
  readonly resolved: number;
  /** Links with a path that names no page: a missing page, a file that is not a page, a site path outside the link root. */
  readonly unresolved: number;
  /** Of those, the site-root links (`/…`): the ones a different link root may resolve. */
  readonly unresolvedSiteRoot: number;
  /** The first few unresolved site-root links, in page path order: the linking page's path and the URL. */
  readonly examples: readonly { readonly from: string; readonly url: string }[];
}

/** What `buildRelations` gives: the relation table, and how the links resolved. */
export interface BuiltRelations extends RelationTable {
  readonly links: LinkCounts;
}

/** How many unresolved links `LinkCounts.examples` keeps. */
const EXAMPLES = 5;

const times = (n: number): string => (n === 1 ? '' : n === 2 ? ' twice' : ` ${n} times`);
const list = (tags: readonly string[]): string => tags.map((t) => `\`${t}\``).join(', ');

/**
 * The relationships of every page of `table`: `links_to` / `linked_from` from the Markdown links of
 * each page's text (outside code; no scheme, no host; resolved against the page's path, a site-root
 * link `/…` against `root`; with or without `.md`, as `.html`, or a directory's `index.md`:
 * `pageForms`), and `shared_tag` between pages whose tags overlap. A link that names no page is
 * counted (`links`), never guessed at.
 * Several links to one page make one record; its `sectionId` is the first fragment that names a
 * section of the target. Links to the page itself are ignored.
 *
 * @param catalog - the catalog the table was built from (its text is read once per page).
 * @param table - the file table.
 * @param root - what a site-root link's `/` stands for (default: the root of page paths).
 * @returns a table whose `get(fileId)` gives a page's frozen, ordered relationships (`undefined` for
 *   a file that is not a page); the links of every page are scanned on the first `get` or `links`,
 *   and shared tags are listed on a page's first `get`.
 * @example
 * ```ts
 * const relations = buildRelations(catalog, buildFileTable(catalog, {}));
 * relations.get('faq'); // [{ fileId: 'billing', relationType: 'links_to', weight: 1, … }]
 * ```
 */
export function buildRelations(
  catalog: KnowledgeCatalog,
  table: FileTable,
  root: LinkRoot = PAGE_PATH_ROOT,
): BuiltRelations {
  // Scanned on the first question, not here: a source that is only searched and read (and the
  // index build that `warm()` starts) never pays for reading every page's links. The catalog is
  // frozen, so when the scan runs does not change what it finds.
  let built: BuiltRelations | undefined;
  const now = (): BuiltRelations => (built ??= scanRelations(catalog, table, root));
  return {
    get links() {
      return now().links;
    },
    get: (fileId) => now().get(fileId),
  };
}

/** `buildRelations`, scanned now. */
function scanRelations(
  catalog: KnowledgeCatalog,
  table: FileTable,
  root: LinkRoot,
): BuiltRelations {
  const out = new Map<string, RelationRecord[]>();
  const sectionSets = new Map<string, ReadonlySet<string>>();
  const isSection = (documentId: string, id: string): boolean => {
    let set = sectionSets.get(documentId);
    if (set === undefined)
      sectionSets.set(documentId, (set = new Set(catalog.sectionIds(documentId))));
    return set.has(id);
  };
  const pageByPath = new Map<string, PageRecord>();
  for (const page of table.pages) {
    out.set(page.fileId, []);
    pageByPath.set(page.path, page);
  }
  const target = (path: string, directory: boolean): PageRecord | undefined => {
    for (const form of pageForms(path, directory)) {
      const page = pageByPath.get(form);
      if (page !== undefined) return page;
    }
    return undefined;
  };
  let resolvedLinks = 0;
  let unresolved = 0;
  let unresolvedSiteRoot = 0;
  const examples: { from: string; url: string }[] = [];

  // Links: one tally per (from, to); the first fragment that names a section of the target is kept.
  const incoming = new Map<string, Map<string, LinkTally>>();
  for (const page of table.pages) {
    const text = catalog.read({
      documentId: page.fileId,
      selection: { mode: 'document' },
      maxChars: Number.MAX_SAFE_INTEGER,
    }).content;
    const tallies = new Map<string, LinkTally>();
    for (const link of scanLinks(text)) {
      const resolved = resolveLink(link.url, page.path, root);
      if (resolved === undefined) continue;
      const to = resolved.path === null ? undefined : target(resolved.path, resolved.directory);
      if (to === undefined) {
        unresolved++;
        if (!resolved.siteRoot) continue;
        unresolvedSiteRoot++;
        if (examples.length < EXAMPLES)
          examples.push(Object.freeze({ from: page.path, url: link.url }));
        continue;
      }
      resolvedLinks++;
      if (to === page) continue;
      let tally = tallies.get(to.fileId);
      if (tally === undefined) tallies.set(to.fileId, (tally = { count: 0, sectionId: null }));
      tally.count++;
      if (
        tally.sectionId === null &&
        resolved.fragment !== null &&
        isSection(to.fileId, resolved.fragment)
      ) {
        tally.sectionId = resolved.fragment;
      }
    }
    for (const [toId, tally] of tallies) {
      const to = table.byId(toId)!;
      out.get(page.fileId)!.push({
        fileId: toId,
        relationType: 'links_to',
        direction: 'outgoing',
        weight: 1,
        reason: `Links to \`${to.path}\`${times(tally.count)}.`,
        sectionId: tally.sectionId,
      });
      let into = incoming.get(toId);
      if (into === undefined) incoming.set(toId, (into = new Map()));
      into.set(page.fileId, tally);
    }
  }
  for (const [toId, froms] of incoming) {
    for (const [fromId, tally] of froms) {
      const from = table.byId(fromId)!;
      out.get(toId)!.push({
        fileId: fromId,
        relationType: 'linked_from',
        direction: 'incoming',
        weight: 1,
        reason: `Linked from \`${from.path}\`${times(tally.count)}.`,
        sectionId: null,
      });
    }
  }

  // Shared tags: candidates come from a tag → pages index, so pages without common tags cost nothing.
  // They are listed per page when asked for, and the last few lists are kept: every pair up front
  // would be quadratic in the pages of a popular tag (10,000 pages tagged `faq` are 10^8 pairs).
  // A page's tags as a set: `frontmatter.tags` may repeat a tag.
  const tagSets = new Map<PageRecord, readonly string[]>();
  const byTag = new Map<string, PageRecord[]>();
  for (const page of table.pages) {
    if (page.tags.length === 0) continue;
    const tags = [...new Set(page.tags)];
    tagSets.set(page, tags);
    for (const tag of tags) (byTag.get(tag) ?? byTag.set(tag, []).get(tag)!).push(page);
  }
  const pathOf = (id: string) => table.byId(id)!.path;
  const finished = new Map<string, readonly RelationRecord[]>();
  return {
    links: Object.freeze({
      resolved: resolvedLinks,
      unresolved,
      unresolvedSiteRoot,
      examples: Object.freeze(examples),
    }),
    get(fileId: string): readonly RelationRecord[] | undefined {
      const done = finished.get(fileId);
      if (done !== undefined) return done;
      const links = out.get(fileId);
      if (links === undefined) return undefined;
      const relations = [...links];
      const page = table.byId(fileId) as PageRecord;
      const pageTags = tagSets.get(page);
      if (pageTags !== undefined) {
        const shared = new Map<PageRecord, string[]>();
        for (const tag of pageTags) {
          for (const other of byTag.get(tag)!)
            if (other !== page) (shared.get(other) ?? shared.set(other, []).get(other)!).push(tag);
        }
        for (const [other, tags] of shared) {
          const union = pageTags.length + tagSets.get(other)!.length - tags.length;
          relations.push({
            fileId: other.fileId,
            relationType: 'shared_tag',
            direction: 'outgoing',
            weight: tags.length / union,
            reason: `Both are tagged ${list([...tags].sort(compareCodePoints))}.`,
            sectionId: null,
          });
        }
      }
      relations.sort(
        (a, b) =>
          b.weight - a.weight ||
          TYPE_ORDER[a.relationType] - TYPE_ORDER[b.relationType] ||
          compareCodePoints(pathOf(a.fileId), pathOf(b.fileId)),
      );
      for (const r of relations) Object.freeze(r);
      const frozen = Object.freeze(relations);
      // A bounded cache, oldest first out: a popular tag gives every page a long list, and keeping
      // them all would grow memory with the square of that tag's pages.
      if (finished.size >= CACHED_PAGES) finished.delete(finished.keys().next().value!);
      finished.set(fileId, frozen);
      return frozen;
    },
  };
}
