/**
 * The scope stage of the ranking pipeline: the filters of a search (`pathPrefix`, `tags`, `locale`)
 * narrow its candidates to the pages they keep, after the ranking of the whole knowledge base, so a
 * page that stays keeps its score (the statistics are those of every page). Both engines run it: the
 * in-memory one on its corpus's pages, the term-store one on the fields its store gives
 * (`TermStore.scopeFields`).
 *
 * @module
 */
import type { Candidate } from './candidate.js';
import type { LexicalFile } from './lexicalSearch.js';
import type { SearchFilter, SearchFilterName } from './port.js';

/** What the filters read of a page. */
export interface ScopeFields {
  readonly path: string;
  readonly tags: readonly string[];
  readonly locale: string | null;
}

/** The pages a filter keeps: a test by page number, and the filter that keeps none, if one does. */
export interface PageScope {
  /** Whether the page numbered `page` passes every filter. */
  readonly keeps: (page: number) => boolean;
  /** How many pages pass. */
  readonly size: number;
  /**
   * When no page passes: the filter that keeps no page on its own (`pathPrefix` first, then `tags`,
   * then `locale`), or `together` when each keeps some page and no page passes them all; else `null`.
   */
  readonly emptiedBy: SearchFilterName | 'together' | null;
}

/** Whether a search filter has any filter set. */
export function hasFilter(filter: SearchFilter | undefined): filter is SearchFilter {
  return (
    filter !== undefined &&
    (filter.pathPrefix !== null || filter.tags !== null || filter.locale !== null)
  );
}

/** Whether `fields` pass the `pathPrefix` filter (its path starts with one of the prefixes). */
const pathPasses = (fields: ScopeFields, prefixes: readonly string[] | null): boolean =>
  prefixes === null || prefixes.some((prefix) => fields.path.startsWith(prefix));

/** Whether `fields` pass the `tags` filter (its tags hold every one). */
const tagsPass = (fields: ScopeFields, tags: readonly string[] | null): boolean =>
  tags === null || tags.every((tag) => fields.tags.includes(tag));

/** Whether `fields` pass the `locale` filter. */
const localePasses = (fields: ScopeFields, locale: string | null): boolean =>
  locale === null || fields.locale === locale;

/**
 * Whether one page passes every filter: its path starts with one of `pathPrefix`, its tags hold every
 * one of `tags`, and its locale is `locale`.
 *
 * @param fields - the page's path, tags and locale.
 * @param filter - the search's filters.
 * @returns whether the page is in the search's scope.
 */
export function inScope(fields: ScopeFields, filter: SearchFilter): boolean {
  return (
    pathPasses(fields, filter.pathPrefix) &&
    tagsPass(fields, filter.tags) &&
    localePasses(fields, filter.locale)
  );
}

/**
 * The scope of a filter over every page of a knowledge base (page numbers are indexes of `pages`).
 *
 * @param pages - every page's fields, by page number.
 * @param filter - the search's filters.
 * @returns which pages pass, and which filter emptied the search when none does.
 */
export function pageScope(pages: readonly ScopeFields[], filter: SearchFilter): PageScope {
  const kept = new Uint8Array(pages.length);
  let size = 0;
  for (let i = 0; i < pages.length; i++) if (inScope(pages[i]!, filter)) ((kept[i] = 1), size++);
  let emptiedBy: PageScope['emptiedBy'] = null;
  if (size === 0) {
    if (!pages.some((p) => pathPasses(p, filter.pathPrefix))) emptiedBy = 'pathPrefix';
    else if (!pages.some((p) => tagsPass(p, filter.tags))) emptiedBy = 'tags';
    else if (!pages.some((p) => localePasses(p, filter.locale))) emptiedBy = 'locale';
    else emptiedBy = 'together';
  }
  return { keeps: (page) => kept[page] === 1, size, emptiedBy };
}

/**
 * The scope stage on candidates: those whose page the scope keeps, in their order and with their
 * scores. Without a scope, the list itself.
 *
 * @param list - candidates, best first.
 * @param scope - the pages kept, by the numbering of `list`'s pages; `undefined` for no filter.
 * @returns the candidates kept, best first.
 */
export function scopeStage<T extends Candidate | LexicalFile>(
  list: T[],
  scope: ((page: number) => boolean) | undefined,
): T[];
export function scopeStage<T extends Candidate | LexicalFile>(
  list: readonly T[],
  scope: ((page: number) => boolean) | undefined,
): readonly T[];
export function scopeStage<T extends Candidate | LexicalFile>(
  list: readonly T[],
  scope: ((page: number) => boolean) | undefined,
): readonly T[] {
  return scope === undefined ? list : list.filter((item) => scope(item.page));
}

/**
 * The fields the filters read of a stored page record: its tags are its front matter's `tags` list.
 *
 * @param record - a page's path, front matter and locale (and its tags, when the record has them).
 * @returns the fields.
 */
export function scopeFieldsOf(record: {
  readonly path: string;
  readonly frontmatter: { readonly [key: string]: unknown };
  readonly locale: string | null;
  readonly tags?: readonly string[];
}): ScopeFields {
  const tags = record.tags ?? record.frontmatter['tags'];
  return {
    path: record.path,
    tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    locale: record.locale,
  };
}
