import type { KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';
import { guardInput, throwIfIssues } from '../internal/guard.js';
import type { KnowledgeDocument, KnowledgeParseInput, KnowledgePart, KnowledgeSection } from '../types.js';
import { explainMalformed } from './explainMalformed.js';
import { beginFirstOpens, endFirstOpens, firstOpen } from './firstOpens.js';
import * as problem from './parseIssues.js';
import { readParseInput } from './readParseInput.js';
import { type AnchorKind, MALFORMED, OPEN, scanText } from './scanText.js';

const API = 'parseKnowledgeDocument';

/**
 * An open section: where its open anchor is (for related places in issues), its ID, its parts, and
 * whether that anchor was a near miss paired as meant (already reported, so never reported unclosed).
 */
interface Frame extends KnowledgePosition {
  readonly id: string;
  readonly parts: KnowledgePart[];
  readonly malformed: boolean;
}

/**
 * Parse Markdown with paired `<!-- agent-section:ID -->` … `<!-- /agent-section:ID -->` anchor lines
 * into a document tree. One linear pass; lines inside code (fenced or indented, as CommonMark sees it:
 * in list items and block quotes too) are body text, so a document can show the anchor syntax in an
 * example. It reads no file and computes no revision.
 *
 * @param input - `{ id, revision, text, locale? }`: non-empty `id` and `revision`, Markdown `text`.
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
export function parseKnowledgeDocument(input: KnowledgeParseInput): KnowledgeDocument {
  const { id, revision, text, locale } = guardInput(API, () => readParseInput(input));
  const state = new ParseState(id, text);
  const outer = current;
  current = state;
  beginFirstOpens(text);
  let scan;
  try {
    scan = scanText(text, onAnchor);
  } finally {
    current = outer;
    endFirstOpens();
  }
  const { issues, stack, root } = state;
  let { parts } = state;
  if (scan.tail !== undefined) parts.push(scan.tail);

  // Issues found along the way are in text order; those found at the end are in text order too,
  // but belong earlier: merge the two lists (linear) instead of sorting.
  const late: KnowledgeIssue[] = [];
  const fence = scan.openFence;
  if (fence?.swallowed) {
    // The fence swallowed the anchors after it, closes included: report the cause, not the cascade.
    late.push(problem.unclosedFence(id, fence, fence.swallowed, stack.map((frame) => frame.id)));
  } else {
    // A near miss left open is already reported: one mistake, one issue.
    for (const frame of stack) if (!frame.malformed) late.push(problem.unclosedSection(id, frame, frame.id));
  }
  throwIfIssues(late.length === 0 ? issues : mergeByPlace(issues, late));
  return locale === undefined ? { id, revision, parts: root } : { id, revision, locale, parts: root };
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
  readonly root: KnowledgePart[] = [];
  readonly stack: Frame[] = [];
  // How many times each ID is open on the stack, needed only to recover from a mismatched close.
  // A Map update per anchor costs as much as the scan of its body (see docs/performance.md), so the
  // counts are built from the stack at the first mismatch and kept from then on.
  openCount: Map<string, number> | undefined = undefined;
  parts: KnowledgePart[];

  constructor(
    readonly id: string,
    readonly text: string,
  ) {
    this.parts = this.root;
  }
}

/** The parse in progress (parsing is synchronous and the scanner calls no user code). */
let current: ParseState | undefined;

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
  if (body !== undefined) s.parts.push(body);
  const malformed = kind === MALFORMED;
  if (malformed) {
    const found = s.text.slice(lineStart, lineEnd);
    const bad = explainMalformed(found);
    issues.push(problem.malformedAnchor(id, { line, column }, found, bad));
    if (bad.kind === 0) return;
    // Pair what the author meant, so one typo does not cascade into unclosed-section reports.
    kind = bad.kind;
    sectionId = bad.id;
  }
  if (kind === OPEN) {
    const section: KnowledgeSection = { id: sectionId, parts: [] };
    s.parts.push(section);
    const parts = section.parts as KnowledgePart[];
    s.parts = parts;
    const frame: Frame = { line, column, id: sectionId, parts, malformed };
    // An exact anchor's ID is read where it is in the text, between `<!-- agent-section:` and ` -->`.
    const first = malformed ? firstOpen(0, 0, sectionId, line, column) : firstOpen(lineStart + 19, lineEnd - 4, undefined, line, column);
    if (first !== undefined) issues.push(problem.duplicateSectionId(id, frame, sectionId, first));
    stack.push(frame);
    if (s.openCount !== undefined) s.openCount.set(sectionId, (s.openCount.get(sectionId) ?? 0) + 1);
    return;
  }
  const top = stack[stack.length - 1];
  if (top === undefined) {
    issues.push(problem.unexpectedClose(id, { line, column }, sectionId));
    return;
  }
  if (top.id === sectionId) {
    // The common case: the close of the innermost section, its ID compared once.
    stack.pop();
    if (s.openCount !== undefined) s.openCount.set(sectionId, s.openCount.get(sectionId)! - 1);
  } else closeMismatched(s, sectionId, line, column, top);
  s.parts = stack.length > 0 ? stack[stack.length - 1]!.parts : s.root;
}

/** A close anchor that does not name the innermost open section (`top`): report it, and recover. */
function closeMismatched(s: ParseState, sectionId: string, line: number, column: number, top: Frame): void {
  const { stack } = s;
  const openCount = (s.openCount ??= countOpen(stack));
  const isOpen = (openCount.get(sectionId) ?? 0) > 0;
  s.issues.push(problem.mismatchedClose(s.id, { line, column }, sectionId, top, isOpen));
  // Recover: close down to the named section when it is open; otherwise ignore this line.
  if (!isOpen) return;
  let closed: Frame;
  do {
    closed = stack.pop()!;
    openCount.set(closed.id, openCount.get(closed.id)! - 1);
  } while (closed.id !== sectionId);
}

/** How many times each ID is open on `stack`. */
function countOpen(stack: readonly Frame[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const frame of stack) counts.set(frame.id, (counts.get(frame.id) ?? 0) + 1);
  return counts;
}

/** Merge two lists of issues, each in text order, into one in text order (stable: `a` first on ties). */
function mergeByPlace(a: readonly KnowledgeIssue[], b: readonly KnowledgeIssue[]): KnowledgeIssue[] {
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
