import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitHeadingId } from '../src/markdown/headingId.js';

describe('splitHeadingId: the explicit ID a docs-site heading writes', () => {
  it.each([
    ['Props {#props}', 'Props', 'props'],
    ['Props {#props .class}', 'Props', 'props'],
    ['Reference {/*reference*/}', 'Reference', 'reference'],
    ['Reference {/* reference */}', 'Reference', 'reference'],
    ['First Steps { #first-steps }', 'First Steps', 'first-steps'],
    ['Title { .big #t key=value }', 'Title', 't'],
    ['Title {#t}   ', 'Title', 't'],
    ['中文标题 {#zh-title}', '中文标题', 'zh-title'],
    ['Tabs { #tabs data-toc-label="Two words" }', 'Tabs', 'tabs'],
    ["Tabs { data-toc-label='a b' #tabs }", 'Tabs', 'tabs'],
    [
      '9.7.6 <small>March 19, 2026</small> { id="9.7.6" }',
      '9.7.6 <small>March 19, 2026</small>',
      '9.7.6',
    ],
    ['Release { id=r1 .big }', 'Release', 'r1'],
  ])('%j is text %j with ID %j', (raw, text, id) => {
    expect(splitHeadingId(raw)).toEqual({ text, id });
  });

  it.each([
    'Use {curly} braces',
    'Object {}',
    'Only a class {.c}',
    'Two ids {#a #b}',
    'Empty id {#}',
    'Escaped \\{#x}',
    'Comment {/* */}',
    'Comment {/*a b*/}',
    'Unclosed {#x',
    'Open quote { #x key="a b }',
    'Two ids { #a id="b" }',
    'Empty id attribute { id="" }',
    'Plain title',
    '',
  ])('%j keeps its text and has no ID', (raw) => {
    expect(splitHeadingId(raw)).toEqual({ text: raw.trimEnd(), id: undefined });
  });

  it('never adds text, and the text it keeps is a prefix of the heading (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ' ', '{', '}', '#', '.', '/', '*', '=', 'x') }),
        (raw) => {
          const split = splitHeadingId(raw);
          expect(raw.startsWith(split.text)).toBe(true);
          if (split.id === undefined) expect(split.text).toBe(raw.trimEnd());
          else expect(raw.includes(split.id)).toBe(true);
        },
      ),
      { seed: 3030, numRuns: 2000 },
    );
  });
});
