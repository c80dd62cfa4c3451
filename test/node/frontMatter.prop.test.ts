/**
 * Fuzz target (issue 21): front matter of any shape, from YAML's own punctuation (flow and block
 * collections nested at any depth, anchors and aliases, complex keys, quotes, tabs, line breaks, lone
 * surrogates). `readFrontMatter` never throws, every problem is a placed `INVALID_FRONT_MATTER` of the
 * file, and what it accepts is JSON. `npm run fuzz -- frontMatter` soaks it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KnowledgeIssue } from '../../src/index.js';
import { readFrontMatter } from '../../src/node/frontMatter.js';

/** Pieces YAML gives meaning to, and some it does not. */
const token = fc.oneof(
  fc.constantFrom(
    '[',
    ']',
    '{',
    '}',
    ',',
    ':',
    ': ',
    '- ',
    '? ',
    '&a ',
    '*a',
    '&b ',
    '*b',
    '!!str ',
    '#',
    '|',
    '>',
    '"',
    "'",
    '\\',
    '\t',
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\r',
    '---',
    '...',
    'id',
    'title',
    'tags',
    'locale',
    'x',
    '0',
    '.inf',
    'null',
    '~',
    '\ud800',
    '\udc00',
    '\u{1F600}',
    '\u2028',
    '\ufeff',
  ),
  fc.string({ maxLength: 6 }),
);

/** A nest `depth` deep of flow lists or mappings, or of indented block mappings. */
const deep = fc.oneof(
  fc.integer({ min: 1, max: 3_000 }).map((n) => `x: ${'['.repeat(n)}${']'.repeat(n)}\n`),
  fc.integer({ min: 1, max: 3_000 }).map((n) => `x: ${'{a: '.repeat(n)}1${'}'.repeat(n)}\n`),
  fc
    .integer({ min: 1, max: 3_000 })
    .map((n) => `${Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} v\n`),
  fc.integer({ min: 1, max: 200 }).map((n) => `${'- '.repeat(n)}x\n`),
);

const block = fc.oneof(
  fc.array(token, { maxLength: 40 }).map((parts) => parts.join('')),
  deep,
  fc.tuple(fc.array(token, { maxLength: 10 }), deep).map(([parts, d]) => parts.join('') + d),
);

/** A file: a front matter block (closed or not) then a body. */
const file = fc
  .tuple(block, fc.boolean(), fc.constantFrom('', '# Body\n', 'text\n---\n'))
  .map(
    ([yaml, closed, body]) =>
      `---\n${yaml}${yaml.endsWith('\n') ? '' : '\n'}${closed ? '---\n' : ''}${body}`,
  );

describe('front matter fuzz', () => {
  it('never throws; problems are placed INVALID_FRONT_MATTER issues; accepted data is JSON', () => {
    fc.assert(
      fc.property(file, (text) => {
        const issues: KnowledgeIssue[] = [];
        const front = readFrontMatter(text, 'f.md', issues);
        const lines = text.split(/\r\n|\r|\n/).length;
        for (const issue of issues) {
          expect(issue.code).toBe('INVALID_FRONT_MATTER');
          expect(issue.file).toBe('f.md');
          expect(issue.line).toBeGreaterThanOrEqual(1);
          expect(issue.line).toBeLessThanOrEqual(lines);
          expect(issue.column).toBeGreaterThanOrEqual(1);
          expect(issue.message.startsWith(`f.md:${issue.line}:${issue.column}: `)).toBe(true);
        }
        if (issues.length > 0) expect(front.data).toEqual({});
        expect(JSON.parse(JSON.stringify(front.data))).toEqual(front.data);
        expect(text.endsWith(front.body)).toBe(true);
      }),
    );
  });
});
