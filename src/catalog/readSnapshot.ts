/**
 * Builds a snapshot for a checked request: joins the precomputed strings, enforces `maxChars`,
 * freezes. Costs what it returns: the selected strings and their characters. Internal.
 */
import stringify from 'fast-json-stable-stringify';
import { countCodePoints } from '../shared/codePoints.js';
import { throwIfIssues } from '../shared/guard.js';
import type { KnowledgeSelection, KnowledgeSnapshot } from '../types.js';
import type { CheckedRequest } from './checkRequest.js';

const SEPARATOR = '\n\n';

/** The selected text: pieces joined by a blank line in request order, empty pieces skipped, trimmed. */
function selectContent(request: CheckedRequest): string {
  const { doc, mode, sections } = request;
  if (mode === 'document') return doc.texts.join(SEPARATOR).trim();
  const pieces: string[] = [];
  for (const section of sections) {
    const strings =
      mode === 'self' && section.own !== undefined
        ? section.own
        : doc.texts.slice(section.start, section.end);
    if (strings.length > 0) pieces.push(strings.join(SEPARATOR));
  }
  return pieces.join(SEPARATOR).trim();
}

/** Read `request` into a deep-frozen snapshot, throwing `MAX_CHARS_EXCEEDED` rather than cutting. */
export function readSnapshot(
  api: string,
  request: CheckedRequest,
  defaultMaxChars: number | undefined,
): KnowledgeSnapshot {
  const { doc, documentId, mode, sectionIds } = request;
  const content = selectContent(request);
  const limit = request.maxChars ?? defaultMaxChars;
  // A UTF-16 length within the limit is a code-point count within it: count only when it may be over.
  if (limit !== undefined && content.length > limit) {
    const actual = countCodePoints(content);
    if (actual > limit) {
      const from =
        request.maxChars === undefined ? "the catalog's default maxChars" : 'request.maxChars';
      throwIfIssues([
        {
          code: 'MAX_CHARS_EXCEEDED',
          ...(request.maxChars === undefined ? {} : { path: ['maxChars'] }),
          documentId,
          ...(sectionIds.length === 1 ? { sectionId: sectionIds[0]! } : {}),
          actual,
          limit,
          message:
            `${api}: the ${mode} read of \`${documentId}\`${sectionIds.length > 0 ? ` [${sectionIds.map((s) => `\`${s}\``).join(', ')}]` : ''} ` +
            `is ${actual} characters (Unicode code points, after trimming), over ${from} of ${limit}. Nothing is cut: select a smaller ` +
            "scope (fewer sections, or 'self' instead of 'subtree'), or raise maxChars if the budget really allows it.",
        },
      ]);
    }
  }
  const selection: KnowledgeSelection = Object.freeze(
    mode === 'document' ? { mode } : { mode, sectionIds: Object.freeze([...sectionIds]) },
  );
  const { revision, locale } = doc.document;
  const id = stringify({ documentId, revision, locale, selection });
  return Object.freeze(
    locale === undefined
      ? { id, documentId, selection, revision, content }
      : { id, documentId, selection, revision, locale, content },
  );
}
