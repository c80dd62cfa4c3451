import fc from 'fast-check';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { MALFORMED } from '../src/parse/scanText.js';
import { anchorLine, nearMissLine, proseLine } from './helpers/arbitraries.js';
import { anchorEvents } from './helpers/scan.js';

const remark = unified().use(remarkParse);
const EXACT = /^<!-- \/?agent-section:[A-Za-z0-9_.:-]+ -->$/;

/** Lines the scanner accepts as anchors (1-based). */
const scannerAnchors = (text: string): number[] =>
  anchorEvents(text).flatMap((event) => (event.kind === MALFORMED ? [] : [event.line]));

/** Lines on which CommonMark (remark) has a top-level HTML node that is exactly an anchor. */
const remarkAnchors = (text: string): number[] =>
  remark
    .parse(text)
    .children.flatMap((node) =>
      node.type === 'html' &&
      node.position!.start.line === node.position!.end.line &&
      EXACT.test(node.value)
        ? [node.position!.start.line]
        : [],
    );

/** A prose line that starts no container (list item or block quote): letters only at its start. */
const paragraphLine = proseLine.filter((l) => /^\s*[a-zA-Z\u4e00-\u9fff]/.test(l));

const fence = fc
  .record({
    char: fc.constantFrom('`', '~'),
    length: fc.integer({ min: 3, max: 6 }),
    closeLength: fc.integer({ min: 2, max: 7 }),
    indent: fc.constantFrom('', ' ', '  ', '   ', '    '),
    closeIndent: fc.constantFrom('', ' ', '   ', '    '),
    info: fc.constantFrom('', 'md', ' js x', 'a`b', '~'),
    closeTail: fc.constantFrom('', '  ', ' x'),
    body: fc.array(fc.oneof(paragraphLine, anchorLine, nearMissLine, fc.constant('')), {
      maxLength: 4,
    }),
    closed: fc.boolean(),
  })
  .map((f) => [
    f.indent + f.char.repeat(f.length) + f.info,
    ...f.body,
    ...(f.closed ? [f.closeIndent + f.char.repeat(f.closeLength) + f.closeTail] : []),
  ]);

/** A list closes at a blank line followed by an unindented paragraph; an indented fence after an open list item is inside it. */
const closeList = (lines: string[]): string[] => [...lines, '', 'after the list'];

/** Top-level Markdown blocks (containers and HTML blocks are generated in test/commonmark-code.prop.test.ts). */
const block = fc.oneof(
  fc.array(paragraphLine, { minLength: 1, maxLength: 3 }),
  proseLine.map((l) => [`# ${l}`]),
  fc
    .array(proseLine, { minLength: 1, maxLength: 3 })
    .map((items) => closeList(items.map((l, i) => (i % 2 ? `1. ${l}` : `- ${l}`)))),
  fc
    .array(proseLine, { minLength: 1, maxLength: 2 })
    .map((l) => closeList(['- item', ...l.map((x) => `  ${x.trimStart()}`)])),
  fc
    .array(paragraphLine, { minLength: 1, maxLength: 2 })
    .map((l) => ['- item', ...l, '<!-- agent-section:after-list -->']),
  fc.array(proseLine, { minLength: 1, maxLength: 2 }).map((l) => l.map((x) => `> ${x}`)),
  fc.constant(['> ```', '> <!-- agent-section:quoted -->']),
  paragraphLine.map((l) => [`    ${l}`]),
  fence,
  anchorLine.map((l) => [l]),
  nearMissLine.map((l) => [l]),
  fc.constant(['']),
);

const markdown = fc
  .tuple(fc.array(block, { maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r'))
  .map(([blocks, eol]) => blocks.flat().join(eol));

describe('fences: the scanner agrees with CommonMark (remark-parse) on which lines are anchors', () => {
  it('accepts exactly the lines remark gives as top-level one-line HTML anchors', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        expect(scannerAnchors(text)).toEqual(remarkAnchors(text));
      }),
      { numRuns: Math.max(300, fc.readConfigureGlobal().numRuns ?? 0) },
    );
  });

  it('agrees on a fence inside a list item that its item ends; differs only inside raw HTML, by the spec', () => {
    // The item ends at the unindented anchor, and its fence with it (core.md, "Code is body text").
    const listFence = '- item\n  ```\n<!-- agent-section:a -->\n```';
    expect(remarkAnchors(listFence)).toEqual([3]);
    expect(scannerAnchors(listFence)).toEqual([3]);
    // An open HTML block (here `<div>`) takes the next line in CommonMark; an exact anchor line is
    // still an anchor (the spec reads anchors as lines): the one difference left, docs/anchors.md.
    const html = '<div>\n<!-- agent-section:a -->';
    expect(remarkAnchors(html)).toEqual([]);
    expect(scannerAnchors(html)).toEqual([2]);
  });
});
