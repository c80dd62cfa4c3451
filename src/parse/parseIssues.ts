/** The parser's issues, one builder per code: what went wrong, where, and how to fix it. */
import type { KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';
import type { MalformedAnchor } from './explainMalformed.js';
import type { OpenFence } from './scanText.js';

const API = 'parseKnowledgeDocument';

const where = (documentId: string, at: KnowledgePosition): string =>
  `${API}: \`${documentId}\` ${at.line}:${at.column}`;
const place = (documentId: string, at: KnowledgePosition) => ({
  documentId,
  line: at.line,
  column: at.column,
});
/**
 * Whether the parse in progress reads an MDX page: its messages then write anchors in the MDX comment
 * form (`{/* agent-section:ID *\/}`), the one a fix may add there (an HTML comment is a syntax error
 * in MDX). Set by `parseKnowledgeDocument` around one synchronous parse.
 */
let mdxForm = false;

/** Messages from now on write anchors in the MDX comment form (`true`) or the HTML one. */
export function useMdxForm(on: boolean): void {
  mdxForm = on;
}

const open = (id: string): string =>
  mdxForm ? `\`{/* agent-section:${id} */}\`` : `\`<!-- agent-section:${id} -->\``;
const close = (id: string): string =>
  mdxForm ? `\`{/* /agent-section:${id} */}\`` : `\`<!-- /agent-section:${id} -->\``;

export function malformedAnchor(
  documentId: string,
  at: KnowledgePosition,
  found: string,
  bad: MalformedAnchor,
): KnowledgeIssue {
  const shown = found.length > 80 ? `${found.slice(0, 77)}…` : found;
  return {
    code: 'MALFORMED_ANCHOR',
    ...place(documentId, at),
    ...(bad.id === '' ? {} : { sectionId: bad.id }),
    message:
      `${where(documentId, at)}: malformed section anchor: ${bad.reason}. Found \`${shown}\`; write exactly ` +
      `\`${bad.expected}\` on its own line, starting in column 1. To show anchor syntax as an example, put it inside a fenced code block.`,
  };
}

export function duplicateSectionId(
  documentId: string,
  at: KnowledgePosition,
  id: string,
  first: KnowledgePosition,
): KnowledgeIssue {
  return {
    code: 'DUPLICATE_SECTION_ID',
    ...place(documentId, at),
    sectionId: id,
    related: { line: first.line, column: first.column },
    message:
      `${where(documentId, at)}: section ID \`${id}\` is already used at ${first.line}:${first.column}; section IDs are ` +
      'unique within the whole document, not only among siblings. Rename one of the two sections and its close anchor.',
  };
}

/**
 * The pair of an unmatched anchor, found inside a fenced code block, where it is code: the anchor's
 * line and the line of the fence's opener.
 */
export interface FencedPair {
  readonly line: number;
  readonly fenceLine: number;
}

/** Why the pair in a fence does not count, and the fix. */
const inFence = (pair: FencedPair, what: string): string =>
  `its ${what} anchor on line ${pair.line} is inside the code fence opened on line ${pair.fenceLine}, so it is code, not an anchor`;
const fenceFix = (pair: FencedPair, what: string): string =>
  `End the fence before line ${pair.line}, or move the ${what} anchor out of it.`;
/**
 * The builder of an issue of a section whose pair is missing: `text(id)` says the problem and the
 * fix, after the place; when the anchor that would pair with it (an `open` or `close` one: `pair`) is
 * inside a code fence, the issue gives that anchor's place (`related`), why it does not count, and
 * that fix instead.
 */
const unpaired =
  (
    code: 'UNEXPECTED_CLOSE' | 'UNCLOSED_SECTION',
    pair: 'open' | 'close',
    text: (id: string) => readonly [problem: string, fix: string],
  ) =>
  (documentId: string, at: KnowledgePosition, id: string, fenced?: FencedPair): KnowledgeIssue => {
    const [problem, fix] = text(id);
    const lead = `${where(documentId, at)}: ${problem}`;
    return {
      code,
      ...place(documentId, at),
      sectionId: id,
      ...(fenced === undefined
        ? { message: `${lead}. ${fix}` }
        : {
            related: { line: fenced.line, column: 1 },
            message: `${lead}: ${inFence(fenced, pair)}. ${fenceFix(fenced, pair)}`,
          }),
    };
  };

/** A close anchor with no section open. */
export const unexpectedClose = unpaired('UNEXPECTED_CLOSE', 'open', (id) => [
  `${close(id)} closes \`${id}\`, but no section is open here`,
  `Remove it, or add ${open(id)} where the section starts.`,
]);

export function mismatchedClose(
  documentId: string,
  at: KnowledgePosition,
  id: string,
  innermost: KnowledgePosition & { readonly id: string },
  isOpen: boolean,
  fenced?: FencedPair,
): KnowledgeIssue {
  const { line, column } = innermost;
  const notOpen =
    fenced === undefined
      ? `, and \`${id}\` is not open at all`
      : `, and \`${id}\` is not open at all: ${inFence(fenced, 'open')}`;
  return {
    code: 'MISMATCHED_CLOSE',
    ...place(documentId, at),
    sectionId: id,
    related: { line, column },
    message:
      `${where(documentId, at)}: ${close(id)} does not match the innermost open section \`${innermost.id}\` (opened at ${line}:${column})` +
      `${isOpen ? '' : notOpen}. ` +
      (fenced === undefined
        ? `Close \`${innermost.id}\` first with ${close(innermost.id)}, or fix the IDs so that opens and closes nest.`
        : fenceFix(fenced, 'open')),
  };
}

/** An open anchor never closed. */
export const unclosedSection = unpaired('UNCLOSED_SECTION', 'close', (id) => [
  `section \`${id}\` is opened here but never closed`,
  `Add ${close(id)} on its own line where the section ends.`,
]);

export function unclosedFence(
  documentId: string,
  fence: OpenFence,
  swallowed: KnowledgePosition,
  stillOpen: readonly string[],
): KnowledgeIssue {
  const openList =
    stillOpen.length === 0
      ? ''
      : ` Sections still open: ${stillOpen.map((s) => `\`${s}\``).join(', ')}.`;
  return {
    code: 'UNCLOSED_FENCE',
    ...place(documentId, fence),
    related: { line: swallowed.line, column: swallowed.column },
    message:
      `${where(documentId, fence)}: the code fence opened here (${fence.marker}) is never closed, so the anchor line at ` +
      `${swallowed.line}:${swallowed.column} and everything after it is read as code.${openList} ${closeFenceFix(fence.marker)}`,
  };
}

/** How to close a fence opened with `marker`. */
export function closeFenceFix(marker: string): string {
  const name = marker[0] === '`' ? 'backtick' : 'tilde';
  return `Close the fence with a line of at least ${marker.length} ${name} characters (${marker}).`;
}
