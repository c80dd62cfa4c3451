/** Which lines are code: as the scanner sees them, and as remark-parse (the CommonMark oracle) does. */
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { scanText } from '../../src/parse/scanText.js';

const remark = unified().use(remarkParse);

/**
 * Lines (1-based) that hold something other than spaces, tabs and `>`, by the scanner's line rule.
 * Only these are compared: the others can hold no anchor and no fence, and CommonMark gives a
 * trailing blank line (`>` alone, in a block quote) to an indented code block or not by what follows it.
 */
function contentLines(text: string): Set<number> {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
  const out = new Set<number>();
  lines.forEach((l, i) => {
    if (/[^ \t>]/.test(l)) out.add(i + 1);
  });
  return out;
}

/** The content lines (see above) the scanner treats as code. */
export function scannerCodeLines(text: string): number[] {
  const content = contentLines(text);
  const lines: number[] = [];
  scanText(
    text,
    () => undefined,
    (line) => {
      if (content.has(line)) lines.push(line);
    },
  );
  return lines;
}

/** The content lines (see above) inside remark-parse's `code` nodes, fenced or indented, at any depth. */
export function remarkCodeLines(text: string): number[] {
  const content = contentLines(text);
  const lines = new Set<number>();
  const stack: {
    type: string;
    children?: unknown[];
    position?: { start: { line: number }; end: { line: number } };
  }[] = [remark.parse(text) as never];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'code' && node.position) {
      // A fence ended by its container can end at column 1 of the next line: that line is not in it.
      const { start, end } = node.position as {
        start: { line: number };
        end: { line: number; column: number };
      };
      const last = end.column === 1 && end.line > start.line ? end.line - 1 : end.line;
      for (let l = start.line; l <= last; l++) if (content.has(l)) lines.add(l);
    }
    if (node.children) stack.push(...(node.children as never[]));
  }
  return [...lines].sort((a, b) => a - b);
}
