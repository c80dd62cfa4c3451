import type { KnowledgeDocument, KnowledgePart } from '../../types.js';
import { advanceCodePoints, countCodePoints } from '../../shared/codePoints.js';
import { pageText, readsAsMdx } from '../../markdown/pageText.js';
import { CUT, WHITESPACE_RUN } from './makeExcerpt.js';

/**
 * The start of a document in source order (its text parts, pre-order, as a document read returns them,
 * each as the page's text: `pageText`, without dialect markup), whitespace-collapsed, at most `maxChars` code points with a final `…` when cut. Walks only as far
 * as needed (an explicit stack), and collapses at most a bounded start of each text part.
 *
 * @param document - the compiled document.
 * @param maxChars - largest result, in code points.
 * @param mdxPath - whether the page's path ends in `.mdx` (see `readsAsMdx`).
 * @returns the excerpt, `''` for a document without text.
 */
export function documentLead(
  document: KnowledgeDocument,
  maxChars: number,
  mdxPath = false,
): string {
  const first = document.parts[0];
  const mdx = readsAsMdx(mdxPath, typeof first === 'string' ? first : '');
  const pieces: string[] = [];
  const want = maxChars * 2 + 2;
  let length = 0;
  let cut = false;
  const stack: KnowledgePart[] = [...document.parts].reverse();
  while (stack.length > 0) {
    if (length > want) {
      cut = true;
      break;
    }
    const part = stack.pop()!;
    if (typeof part === 'string') {
      const own = leadText(part, mdx, want * 2);
      const end = advanceCodePoints(own, 0, want * 2);
      if (end < own.length) cut = true;
      const piece = own.slice(0, end).replace(WHITESPACE_RUN, ' ').trim();
      if (piece.length === 0) continue;
      pieces.push(piece);
      length += piece.length + 1;
    } else {
      for (let i = part.parts.length - 1; i >= 0; i--) stack.push(part.parts[i]!);
    }
  }
  const text = pieces.join(' ');
  if (!cut && countCodePoints(text) <= maxChars) return text;
  if (maxChars < 1) return '';
  let end = advanceCodePoints(text, 0, maxChars - 1);
  const space = text.lastIndexOf(' ', end);
  if (end < text.length && text.charCodeAt(end) !== 32 && space > end - 16 && space > 0)
    end = space;
  return text.slice(0, end).trimEnd() + CUT;
}

/**
 * The page text of `part` as far as a lead of `points` code points needs it: a long `.md` part is scanned
 * only up to the first blank line past four times that (a blank line ends every paragraph, so no
 * inline markup runs over the cut, and block structure there depends only on the lines before), and
 * whole when that start, once its markup is gone, is not longer than `points`. Whatever is returned
 * begins as the whole part's page text does, and is longer than `points` unless it is all of it.
 */
export function leadText(part: string, mdx: boolean, points: number): string {
  const limit = points * 4;
  // Not in MDX: a JSX element or expression may run over blank lines there.
  if (!mdx && part.length > limit) {
    const blank = part.indexOf('\n\n', limit);
    if (blank !== -1) {
      const head = pageText(part.slice(0, blank + 1), mdx);
      if (advanceCodePoints(head, 0, points) < head.length) return head;
    }
  }
  return pageText(part, mdx);
}
