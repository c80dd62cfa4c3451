/**
 * The documentation is written for people who never saw the project's internal design notes or its
 * issue tracker: README.md, docs/*.md and the examples (whose pages are served as sample knowledge and
 * quoted in the docs) name no internal design note ("seed"), no issue number, and no path outside
 * the repository (`shared/…`). A line that does fails here, with its file and line, so a doc says
 * what the design is, and why, instead of pointing where a user cannot follow.
 *
 * "seed" stays allowed where it means a random-number seed: the phrases `fixed seed(s)`, `fixed-seed`
 * and `random seed`, and any other use of the word on a line that names fast-check's seed variable
 * `FC_SEED` ("The seed is fresh unless `FC_SEED` is set").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** README.md, docs/*.md, and every text file below examples/, as paths relative to the root. */
function readFiles(): string[] {
  const out = ['README.md'];
  for (const name of readdirSync(join(root, 'docs')))
    if (name.endsWith('.md')) out.push(`docs/${name}`);
  const stack = [join(root, 'examples')];
  while (stack.length > 0) {
    const here = stack.pop()!;
    for (const entry of readdirSync(here, { withFileTypes: true })) {
      const path = join(here, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (/\.(md|mjs|js|ts|json)$/.test(entry.name))
        out.push(relative(root, path).split('\\').join('/'));
    }
  }
  return out.sort();
}

/** Random-number seeds: removed from a line before the word "seed" is looked for. */
const RANDOM_SEED = /\b(?:fixed[- ]seeds?|(?:per-process )?random seeds?)\b/gi;
const SEED = /\bseeds?\b/i;
const ISSUE = /\bissues?\s+#?\d+/i;
const OUTSIDE = /(?:\.\.\/)+shared\b|(?<![\w./-])shared\//;

/** What is wrong with a line, or `undefined`. */
function outsiderProblem(line: string): string | undefined {
  if (!line.includes('FC_SEED') && SEED.test(line.replace(RANDOM_SEED, '')))
    return 'names an internal design note ("seed"): say what the design is, and why';
  if (ISSUE.test(line)) return 'names an issue number: say what the work was';
  if (OUTSIDE.test(line)) return 'names a path outside the repository (`shared/…`)';
  return undefined;
}

describe('docs for outsiders', () => {
  it('the rule tells internal references from random-number seeds', () => {
    const flagged = [
      'Seed 002 describes how an agent should read a knowledge base',
      "the errors are the seed's shape",
      'Where the seeds were silent.',
      'the six tools of the seed (`shared/seeds/001`)',
      '### Ranking changes (issue 22)',
      'the parse work of issues 8 and 11',
      'issue #21 found forged offsets',
      'The contract is `shared/spec/postgres.md`.',
      'read in place from `../shared/corpus/markdown`',
      'the house style (shared/style.md)',
      'a fixed seed, as seed 002 says',
    ];
    const allowed = [
      'fast-check properties (fixed seed) and type tests',
      'generated folders (`bench/check-corpus.mjs`, fixed seeds: front matter)',
      'agrees with remark on a fixed-seed sample of 300 real files',
      'FNV-1a hash with a per-process random seed',
      'The seed is fresh unless `FC_SEED` is set, and is printed with the command that replays it.',
      'The first `npm run fuzz` of this code (random seed 8808) failed',
      'every code has an entry with cause, example and fix; the issue carries `file`',
      '1,000,000 issues: 3.5 s',
      'the shared frozen empties, `shared_tag` relations, src/internal/shared/ and src/internal/shared.ts',
      'seedless, seeding, linseed',
    ];
    expect(flagged.filter((line) => outsiderProblem(line) === undefined)).toEqual([]);
    expect(allowed.filter((line) => outsiderProblem(line) !== undefined)).toEqual([]);
  });

  it('README.md, docs/*.md and examples/ name no internal note, issue number or outside path', () => {
    const files = readFiles();
    expect(files).toContain('docs/decisions.md');
    expect(files).toContain('examples/knowledge/manifest.json');
    const problems: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        const problem = outsiderProblem(line);
        if (problem !== undefined) problems.push(`${file}:${i + 1}: ${problem}: ${line.trim()}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('README.md stays a front page: at most 250 lines, with history and figures in docs/performance.md', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.length).toBeLessThanOrEqual(250);
  });
});
