/** Which lines are code: as the scanner sees them, and as remark-parse (the CommonMark oracle) does. */
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { scanText } from '../../src/parse/scanText.js';

const remark = unified().use(remarkParse);

/** Lines (1-based) that hold something other than spaces and tabs, by the scanner's line rule. */
function nonBlankLines(text: string): Set<number> {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
  const out = new Set<number>();
  lines.forEach((l, i) => {
    if (/[^ \t]/.test(l)) out.add(i + 1);
  });
  return out;
}

/**
 * The non-blank lines the scanner treats as code. Blank lines are left out on both sides: they can
 * hold no anchor, and CommonMark gives trailing blank lines to code or not by rules that do not matter here.
 */
export function scannerCodeLines(text: string): number[] {
  const lines: number[] = [];
  scanText(text, () => undefined, (line) => lines.push(line));
  return lines;
}

/** The non-blank lines inside remark-parse's `code` nodes, fenced or indented, at any depth. */
export function remarkCodeLines(text: string): number[] {
  const nonBlank = nonBlankLines(text);
  const lines = new Set<number>();
  const stack: { type: string; children?: unknown[]; position?: { start: { line: number }; end: { line: number } } }[] = [
    remark.parse(text) as never,
  ];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'code' && node.position) {
      for (let l = node.position.start.line; l <= node.position.end.line; l++) if (nonBlank.has(l)) lines.add(l);
    }
    if (node.children) stack.push(...(node.children as never[]));
  }
  return [...lines].sort((a, b) => a - b);
}
