// Real Markdown (../shared/corpus/markdown beside the repository: CommonMark's own examples, language
// books, framework docs in English and Chinese): the scanner's code lines are remark-parse's, and
// anchors inserted at real block boundaries, or inside real code, come out as the spec says.
// `npm test` reads a fixed-seed share of the files; `npm run fuzz` (FC_NUM_RUNS ≥ 10,000) reads all.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { parseKnowledgeDocument } from '../src/index.js';
import { remarkCodeLines, scannerCodeLines } from './helpers/codeLines.js';

const root = fileURLToPath(new URL('../../shared/corpus/markdown', import.meta.url));
const present = existsSync(root);
const files = present
  ? readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .sort()
  : [];
const { seed = 0, numRuns = 150 } = fc.readConfigureGlobal();
const share = numRuns >= 10_000 ? 1 : 0.08;

/** mulberry32: a small seeded generator, so the share and the insertion points are repeatable. */
function random(s: number): () => number {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(seed);
const sample = files.filter(() => rand() < share);
const pick = (n: number): number => Math.floor(rand() * n);

const remark = unified().use(remarkParse);
const parse = (text: string) => parseKnowledgeDocument({ id: 'corpus', revision: 'r', text }).parts;
const blank = (line: string): boolean => /^[ \t]*$/.test(line);

/** The spec's run rule: drop leading and trailing blank lines; nothing left is no part. */
function run(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && blank(lines[a]!)) a++;
  while (b > a && blank(lines[b - 1]!)) b--;
  return a === b ? [] : [lines.slice(a, b).join('\n')];
}

type Pos = { start: { line: number }; end: { line: number } };
type Node = { type: string; position?: Pos; children?: Node[] };

function codeNodes(tree: Node): Node[] {
  const out: Node[] = [];
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'code') out.push(node);
    if (node.children) stack.push(...node.children);
  }
  return out;
}

/**
 * A corpus file's text without a leading byte order mark: the parser ignores one (some real pages
 * start with it), so the lines a test expects must not keep it either.
 */
function readCorpusText(file: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// Without the corpus the tests below are reported as skipped, under a title that says why (no test
// stands in for them: one asserting that the corpus is absent when it is absent could not fail).
describe.skipIf(!present)(
  present
    ? `real Markdown: ${sample.length} of ${files.length} files in ../shared/corpus/markdown`
    : 'real Markdown: skipped, ../shared/corpus/markdown is not beside the repository',
  () => {
    it('every file parses clean, and its code lines are exactly remark-parse’s', () => {
      expect(sample.length, 'the fixed-seed share picked no file').toBeGreaterThan(0);
      for (const file of sample) {
        const text = readCorpusText(file);
        expect(scannerCodeLines(text), file).toEqual(remarkCodeLines(text));
        expect(() => parse(text), file).not.toThrow();
      }
    });

    it('anchors around real top-level blocks make a section of exactly those lines', () => {
      let checked = 0;
      for (const file of sample) {
        const lines = readCorpusText(file).replace(/\r\n?/g, '\n').split('\n');
        const blocks = (remark.parse(lines.join('\n')) as Node).children!;
        if (blocks.length === 0) continue;
        const i = pick(blocks.length);
        const j = i + pick(Math.min(3, blocks.length - i));
        const from = blocks[i]!.position!.start.line - 1;
        const to = blocks[j]!.position!.end.line;
        const text = [
          ...lines.slice(0, from),
          '<!-- agent-section:s -->',
          ...lines.slice(from, to),
          '<!-- /agent-section:s -->',
          ...lines.slice(to),
        ].join('\n');
        const code = new Set(remarkCodeLines(text));
        if (code.has(from + 1) || code.has(to + 2)) continue; // a top-level fence left open to the end
        checked++;
        expect(scannerCodeLines(text), file).toEqual([...code]);
        expect(parse(text), file).toEqual([
          ...run(lines.slice(0, from)),
          { id: 's', parts: run(lines.slice(from, to)) },
          ...run(lines.slice(to)),
        ]);
      }
      expect(checked).toBeGreaterThan(sample.length * 0.9);
    });

    it('an anchor line inside real code, at that line’s indentation, is body text', () => {
      let checked = 0;
      for (const file of sample) {
        const lines = readCorpusText(file).replace(/\r\n?/g, '\n').split('\n');
        const candidates = codeNodes(remark.parse(lines.join('\n')) as Node).flatMap((node) => {
          const { start, end } = node.position!;
          const out: number[] = [];
          for (let l = start.line + 1; l <= end.line && end.line < lines.length; l++)
            if (!blank(lines[l - 1]!)) out.push(l);
          return out;
        });
        if (candidates.length === 0) continue;
        const at = candidates[pick(candidates.length)]! - 1;
        const prefix = /^[ \t>]*/.exec(lines[at]!)![0];
        const text = [
          ...lines.slice(0, at),
          `${prefix}<!-- agent-section:inside -->`,
          ...lines.slice(at),
        ].join('\n');
        const code = remarkCodeLines(text);
        if (!code.includes(at + 1)) continue; // the prefix did not keep the line in its container
        checked++;
        expect(scannerCodeLines(text), file).toEqual(code);
        expect(parse(text), file).toEqual(run(text.split('\n')));
      }
      expect(checked).toBeGreaterThan(0);
    });
  },
);
