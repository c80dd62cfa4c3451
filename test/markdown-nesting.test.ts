/**
 * Nesting depth costs no more than its bytes (issue 21 item 5): the parse time per byte of deeply
 * nested lists and block quotes, beside that of the same list items not nested, through both
 * consumers of the block scanner. A ratio of medians over interleaved rounds, never a time.
 */
import { describe, expect, it } from 'vitest';
import { scanLinks } from '../src/agent/relations/index.js';
import { parseKnowledgeDocument } from '../src/index.js';

const SIZE = 200_000;
const ROUNDS = 7;

/** Lines from `line(i)` joined until the text holds `SIZE` characters. */
function fill(line: (i: number) => string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < SIZE; i++) {
    const next = line(i);
    lines.push(next);
    size += next.length + 1;
  }
  return lines.join('\n');
}

/** A list 2,000 deep on one line, then runs of 200 blank lines, each followed by a line inside it. */
function blankLinesInDeepList(): string {
  const depth = 2_000;
  const lines = [`${'- '.repeat(depth)}x`];
  let size = lines[0]!.length;
  while (size < SIZE) {
    for (let k = 0; k < 200; k++) lines.push('');
    lines.push(`${'  '.repeat(depth)}[y](/y)`);
    size += 201 + 2 * depth + 7;
  }
  return lines.join('\n');
}

const nested: Record<string, string> = {
  'a list nested by tabs, one level a line': fill((i) => `${'\t'.repeat(i)}- x`),
  'a list nested by spaces, one level a line': fill((i) => `${'  '.repeat(i)}- [x](/x)`),
  'blank lines inside a list 2,000 deep': blankLinesInDeepList(),
  'block quotes up to 1,000 deep': fill((i) => `${'>'.repeat(i % 1_000)} x`),
};
/** The same kind of lines, not nested: a flat list. */
const flat = fill(() => '- [x](/x)');

const consumers: Record<string, (text: string) => unknown> = {
  'the anchor parser': (text) => parseKnowledgeDocument({ id: 'd', revision: 'r', text }),
  'the link scanner': (text) => scanLinks(text),
};

function perByte(run: (text: string) => unknown, text: string): number {
  const start = performance.now();
  run(text);
  return (performance.now() - start) / text.length;
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;

describe('nesting depth: parse time per byte within 3× of a flat list of the same size', () => {
  for (const [consumer, run] of Object.entries(consumers)) {
    for (const [shape, text] of Object.entries(nested)) {
      it(`${consumer}: ${shape}`, () => {
        expect(text.length).toBeGreaterThanOrEqual(SIZE);
        run(text); // warm up both
        run(flat);
        const deep: number[] = [];
        const shallow: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          deep.push(perByte(run, text));
          shallow.push(perByte(run, flat));
        }
        expect(median(deep) / median(shallow)).toBeLessThan(3);
      });
    }
  }
});
