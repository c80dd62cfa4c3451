import type { KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';
import { OPEN_BRACE } from '../markdown/chars.js';
import { guardInput, throwIfIssues } from '../shared/guard.js';
import type {
  KnowledgeDocument,
  KnowledgeParseInput,
  KnowledgePart,
  KnowledgeSection,
} from '../types.js';
import { explainMalformed, explainMdxMalformed } from './explainMalformed.js';
import {
  beginFirstOpens,
  type DuplicateOpen,
  endFirstOpens,
  findDuplicates,
  recordOpen,
  resumeFirstOpens,
  suspendFirstOpens,
} from './firstOpens.js';
import { explainFencedPairs, type PairingProblem } from './fencedPairs.js';
import * as problem from './parseIssues.js';
import { readParseInput } from './readParseInput.js';
import { type AnchorKind, MALFORMED, OPEN, scanText } from './scanText.js';

const API = 'parseKnowledgeDocument';

/**
 * An open section: where its open anchor is (for related places in issues), its ID, its parts, and
 * whether that anchor was a near miss paired as meant (already reported, so never reported unclosed).
 */
interface Frame extends KnowledgePosition {
  line: number;
  column: number;
  id: string;
  /** Where its parts start in `parts`. */
  start: number;
  malformed: boolean;
}

/**
 * Parse Markdown with paired `<!-- agent-section:ID -->` … `<!-- /agent-section:ID -->` anchor lines
 * into a document tree. One linear pass; lines inside code (fenced or indented, as CommonMark sees it:
 * in list items and block quotes too) are body text, so a document can show the anchor syntax in an
 * example. It reads no file and computes no revision.
 *
 * In an MDX page (`options.mdx`), where an HTML comment is a syntax error, an anchor may also be
 * written as the MDX comment `{/* agent-section:ID *\/}` / `{/* /agent-section:ID *\/}`, with the
 * same spacing and ID rules; its near misses are `MALFORMED_ANCHOR` as the HTML form's are.
 *
 * @param input - `{ id, revision, text, locale? }`: non-empty `id` and `revision`, Markdown `text`.
 * @param options - `{ mdx }`: read the MDX comment form of anchors too (default `false`).
 * @returns a new, unfrozen `KnowledgeDocument` the caller owns; compile it with `defineKnowledgeCatalog`.
 * @throws {KnowledgeError} with every problem in the text, in text order, each with `line` and `column`:
 *   `MALFORMED_ANCHOR`, `UNCLOSED_SECTION`, `UNEXPECTED_CLOSE`, `MISMATCHED_CLOSE`,
 *   `DUPLICATE_SECTION_ID`, `UNCLOSED_FENCE`; `INVALID_INPUT` for a bad argument.
 * @example
 * ```ts
 * const doc = parseKnowledgeDocument({
 *   id: 'service-guide',
 *   revision: 'sha256:…',
 *   locale: 'en',
 *   text: '<!-- agent-section:delivery -->\nWe ship in two days.\n<!-- /agent-section:delivery -->\n',
 * });
 * // doc.parts → [{ id: 'delivery', parts: ['We ship in two days.'] }]
 * ```
 */
export function parseKnowledgeDocument(
  input: KnowledgeParseInput,
  options?: KnowledgeParseOptions,
): KnowledgeDocument {
  const mdx = options?.mdx === true;
  // The messages of an MDX page write anchors as MDX comments (the form a fix may add there).
  problem.useMdxForm(mdx);
  try {
    return parseText(input, mdx);
  } finally {
    problem.useMdxForm(false);
  }
}

/** `parseKnowledgeDocument` once its options are read. */
function parseText(input: KnowledgeParseInput, mdx: boolean): KnowledgeDocument {
  const { id, revision, text, locale } = guardInput(API, () => readParseInput(input));
  const state = new ParseState(id, text);
  const outer = current;
  // A parse started inside another one (only a patched built-in can do that) gets buffers of its
  // own: the outer parse's are in use.
  const suspended =
    outer === undefined ? undefined : { parts, partsUsed, firstOpens: suspendFirstOpens() };
  if (suspended !== undefined) {
    parts = [];
    partsUsed = 0;
  }
  current = state;
  beginFirstOpens(text);
  let scan;
  let duplicates: DuplicateOpen[] | undefined;
  let root: KnowledgePart[];
  try {
    scan = scanText(text, onAnchor, undefined, undefined, mdx);
    duplicates = findDuplicates();
    if (scan.tail !== undefined) parts[state.top++] = scan.tail;
    root = parts.slice(0, state.top);
  } finally {
    current = outer;
    endFirstOpens();
    releaseParts(state.top);
    if (suspended !== undefined) {
      ({ parts, partsUsed } = suspended);
      resumeFirstOpens(suspended.firstOpens);
    }
  }
  const stack = state.stack.slice(0, state.depth);
  // Duplicate IDs are found after the scan, in text order: merged into the issues found during it.
  const issues =
    duplicates === undefined
      ? state.issues
      : mergeByPlace(
          state.issues,
          duplicates.map((d) => problem.duplicateSectionId(id, d.at, d.id, d.first)),
        );

  // Issues found along the way are in text order; those found at the end are in text order too,
  // but belong earlier: merge the two lists (linear) instead of sorting.
  const late: KnowledgeIssue[] = [];
  const fence = scan.openFence;
  if (fence?.swallowed) {
    // The fence swallowed the anchors after it, closes included: report the cause, not the cascade.
    late.push(
      problem.unclosedFence(
        id,
        fence,
        fence.swallowed,
        stack.map((frame) => frame.id),
      ),
    );
  } else {
    // A near miss left open is already reported: one mistake, one issue.
    for (const frame of stack) {
      if (frame.malformed) continue;
      const issue = problem.unclosedSection(id, frame, frame.id);
      late.push(issue);
      const { line, column, id: sectionId } = frame;
      (state.pairing ??= []).push({
        issue,
        id: sectionId,
        line,
        wants: 'close',
        rebuild: (pair) => problem.unclosedSection(id, { line, column }, sectionId, pair),
      });
    }
  }
  const all = late.length === 0 ? issues : mergeByPlace(issues, late);
  // An unmatched anchor whose pair is inside a code fence: say so (error path only, a second scan).
  throwIfIssues(state.pairing === undefined ? all : explainFencedPairs(text, all, state.pairing));
  return locale === undefined
    ? { id, revision, parts: root }
    : { id, revision, locale, parts: root };
}

/** Options of `parseKnowledgeDocument`. */
export interface KnowledgeParseOptions {
  /**
   * The text is an MDX page (`.mdx`): anchors may also be written `{/* agent-section:ID *\/}` and
   * `{/* /agent-section:ID *\/}`. Default `false`: only the HTML comment form is an anchor.
   */
  readonly mdx?: boolean | undefined;
}

/**
 * The state of one parse. The anchor handler below is one module-level function reading it, not a
 * closure made per parse: V8 inlines the handler into the scanner's loop, and optimized code that
 * embedded a per-parse closure was thrown away at the next full GC ("weak objects"), then compiled
 * again on every parse (docs/performance.md).
 */
class ParseState {
  /** Keeps the class's object shape alive between parses, for the same reason. */
  static readonly keepShape = new ParseState('', '');
  readonly issues: KnowledgeIssue[] = [];
  /**
   * The open sections are `stack[0, depth)`, innermost last. A closed section's frame is reused by
   * the next section opened at its depth, so a parse allocates a frame per level, not per section.
   */
  readonly stack: Frame[] = [];
  depth = 0;
  /** How many entries of `parts` are in use. */
  top = 0;
  // How many times each ID is open on the stack, needed only to recover from a mismatched close.
  // A Map update per anchor costs as much as the scan of its body (see docs/performance.md), so the
  // counts are built from the stack at the first mismatch and kept from then on.
  openCount: Map<string, number> | undefined = undefined;
  /** Unmatched anchors, whose pair may be inside a code fence (made on error paths only). */
  pairing: PairingProblem[] | undefined = undefined;

  constructor(
    readonly id: string,
    readonly text: string,
  ) {}
}

/** The parse in progress (parsing is synchronous and the scanner calls no user code). */
let current: ParseState | undefined;

/**
 * The parts of the root and of every open section, innermost last, each from its frame's `start`: a
 * section's parts are copied out at its close, at their exact length, and the section takes their
 * place. One array kept between parses (up to `MAX_KEPT_PARTS` entries): built by `push`, each
 * section's own array grew to 17 slots, 40% of what a section-dense parse allocated
 * (docs/performance.md).
 */
let parts: KnowledgePart[] = [];
/** The most entries of `parts` in use at any point of the parse. */
let partsUsed = 0;
const MAX_KEPT_PARTS = 1 << 16;

/** After a parse that ends with `top` entries of `parts` in use: clear them all, so that it holds no text. */
function releaseParts(top: number): void {
  if (top > partsUsed) partsUsed = top;
  if (partsUsed > MAX_KEPT_PARTS) parts = [];
  else parts.fill(0 as unknown as KnowledgePart, 0, partsUsed);
  partsUsed = 0;
}

function onAnchor(
  kind: AnchorKind,
  sectionId: string,
  line: number,
  column: number,
  lineStart: number,
  lineEnd: number,
  body: string | undefined,
): void {
  const s = current!;
  const { id, issues, stack } = s;
  if (body !== undefined) parts[s.top++] = body;
  const malformed = kind === MALFORMED;
  if (malformed) {
    const found = s.text.slice(lineStart, lineEnd);
    const bad =
      found.trimStart().charCodeAt(0) === OPEN_BRACE
        ? explainMdxMalformed(found)
        : explainMalformed(found);
    issues.push(problem.malformedAnchor(id, { line, column }, found, bad));
    if (bad.kind === 0) return;
    // Pair what the author meant, so one typo does not cascade into unclosed-section reports.
    kind = bad.kind;
    sectionId = bad.id;
  }
  if (kind === OPEN) {
    // An exact anchor's ID is read where it is in the text, between `<!-- agent-section:` and ` -->`.
    if (malformed) recordOpen(0, 0, sectionId, line, column);
    else recordOpen(lineStart + 19, lineEnd - 4, undefined, line, column);
    const frame = stack[s.depth];
    if (frame === undefined) stack.push({ line, column, id: sectionId, start: s.top, malformed });
    else {
      frame.line = line;
      frame.column = column;
      frame.id = sectionId;
      frame.start = s.top;
      frame.malformed = malformed;
    }
    s.depth++;
    if (s.openCount !== undefined)
      s.openCount.set(sectionId, (s.openCount.get(sectionId) ?? 0) + 1);
    return;
  }
  if (s.depth === 0) {
    const issue = problem.unexpectedClose(id, { line, column }, sectionId);
    issues.push(issue);
    const closeId = sectionId;
    (s.pairing ??= []).push({
      issue,
      id: closeId,
      line,
      wants: 'open',
      rebuild: (pair) => problem.unexpectedClose(id, { line, column }, closeId, pair),
    });
    return;
  }
  const top = stack[s.depth - 1]!;
  if (top.id === sectionId) {
    // The common case: the close of the innermost section, its ID compared once.
    s.depth--;
    closeSection(s, top);
    if (s.openCount !== undefined) s.openCount.set(sectionId, s.openCount.get(sectionId)! - 1);
  } else closeMismatched(s, sectionId, line, column, top);
}

/** Make the section of `frame`, just closed, from its parts, and put it in their place. */
function closeSection(s: ParseState, frame: Frame): void {
  const section: KnowledgeSection = { id: frame.id, parts: parts.slice(frame.start, s.top) };
  if (s.top > partsUsed) partsUsed = s.top;
  s.top = frame.start;
  parts[s.top++] = section;
}

/** A close anchor that does not name the innermost open section (`top`): report it, and recover. */
function closeMismatched(
  s: ParseState,
  sectionId: string,
  line: number,
  column: number,
  top: Frame,
): void {
  const { stack } = s;
  const openCount = (s.openCount ??= countOpen(stack, s.depth));
  const isOpen = (openCount.get(sectionId) ?? 0) > 0;
  const issue = problem.mismatchedClose(s.id, { line, column }, sectionId, top, isOpen);
  s.issues.push(issue);
  // Recover: close down to the named section when it is open; otherwise ignore this line.
  if (!isOpen) {
    const innermost = { line: top.line, column: top.column, id: top.id };
    (s.pairing ??= []).push({
      issue,
      id: sectionId,
      line,
      wants: 'open',
      rebuild: (pair) =>
        problem.mismatchedClose(s.id, { line, column }, sectionId, innermost, false, pair),
    });
    return;
  }
  let closed: Frame;
  do {
    closed = stack[--s.depth]!;
    closeSection(s, closed);
    openCount.set(closed.id, openCount.get(closed.id)! - 1);
  } while (closed.id !== sectionId);
}

/** How many times each ID is open on `stack[0, depth)`. */
function countOpen(stack: readonly Frame[], depth: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let k = 0; k < depth; k++) counts.set(stack[k]!.id, (counts.get(stack[k]!.id) ?? 0) + 1);
  return counts;
}

/** Merge two lists of issues, each in text order, into one in text order (stable: `a` first on ties). */
function mergeByPlace(
  a: readonly KnowledgeIssue[],
  b: readonly KnowledgeIssue[],
): KnowledgeIssue[] {
  const out: KnowledgeIssue[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (y.line! < x.line! || (y.line === x.line && y.column! < x.column!)) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
