/**
 * A page's headings in one source state, kept for the few pages read last: `get_file` lists them,
 * `read_file { heading }` reads one's range part by part, and each part after the first costs what
 * it returns rather than a scan of the whole page again.
 *
 * @module
 */
import { type PageHeading, pageHeadings } from '../../files/pageHeadings.js';
import type { SourceState } from '../../source/state.js';

/** A page's whole text and its headings. */
export interface PageOutline {
  /** The text `read_file` returns for the whole page. */
  readonly text: string;
  readonly headings: readonly PageHeading[];
}

/** How many pages' outlines a source state keeps (oldest out first). */
const KEPT = 4;

const RECENT = new WeakMap<SourceState, Map<string, PageOutline>>();

/**
 * The whole text and headings of the page `fileId` (a page of `state`).
 *
 * @param state - the call's source state (a stored state must have read the page's text).
 * @param fileId - a page's file ID.
 * @returns its outline, shared between calls on the same state: do not change it.
 */
export function pageOutline(state: SourceState, fileId: string): PageOutline {
  let recent = RECENT.get(state);
  const kept = recent?.get(fileId);
  if (kept !== undefined) return kept;
  const text = state.catalog.read({
    documentId: fileId,
    selection: { mode: 'document' },
    maxChars: Number.MAX_SAFE_INTEGER,
  }).content;
  const outline: PageOutline = { text, headings: pageHeadings(text) };
  if (recent === undefined) RECENT.set(state, (recent = new Map()));
  if (recent.size >= KEPT) recent.delete(recent.keys().next().value!);
  recent.set(fileId, outline);
  return outline;
}
