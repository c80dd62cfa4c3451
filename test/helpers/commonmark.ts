/**
 * fast-check arbitraries for Markdown whose code lines depend on CommonMark's block structure: fences
 * on list-marker lines and inside block quotes, nested lists, every kind of raw HTML block, indented
 * code, lazy continuation lines and tabs, link reference definitions and setext underlines, with
 * anchors and near misses in and around all of them.
 */
import fc from 'fast-check';
import { anchorLine, nearMissLine } from './arbitraries.js';

type Lines = string[];

const word = fc.constantFrom(
  'alpha',
  'beta',
  '中文',
  'x',
  'Text with `code`',
  'a * b',
  'see <b>bold</b>',
  '1. not a list?',
  'end.',
);

/** A paragraph line, sometimes indented (a continuation line may be indented any amount). */
const textLine = fc
  .tuple(fc.constantFrom('', '', ' ', '  ', '    ', '\t'), word)
  .map(([i, w]) => i + w);

const fenceLine = fc
  .tuple(
    fc.constantFrom('', ' ', '   ', '    ', '\t'),
    fc.constantFrom('```', '````', '~~~', '``', '~~~~~'),
    fc.constantFrom('', 'js', ' x `y`', ' '),
  )
  .map(([i, f, info]) => i + f + info);

/** A line that could be anything to a code block's body: text, an anchor, a near miss, a fence line. */
const bodyLine = fc.oneof(
  { weight: 3, arbitrary: textLine },
  { weight: 2, arbitrary: anchorLine },
  { weight: 2, arbitrary: nearMissLine },
  { weight: 2, arbitrary: fenceLine },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', '-->', '</pre>', '?>', ']]>', '>', '- item') },
);

const fence: fc.Arbitrary<Lines> = fc
  .record({
    char: fc.constantFrom('`', '~'),
    length: fc.integer({ min: 3, max: 5 }),
    indent: fc.constantFrom('', ' ', '   ', '    '),
    info: fc.constantFrom('', 'md', 'a`b'),
    body: fc.array(bodyLine, { maxLength: 4 }),
    close: fc.constantFrom('same', 'longer', 'shorter', 'indented', 'none', 'trailing'),
  })
  .map(({ char, length, indent, info, body, close }) => {
    const fenceText = char.repeat(length);
    const closer: Record<string, string[]> = {
      same: [fenceText],
      longer: [`${fenceText}${char}`],
      shorter: [char.repeat(length - 1)],
      indented: [`  ${fenceText}`],
      none: [],
      trailing: [`${fenceText} x`],
    };
    return [indent + fenceText + info, ...body, ...closer[close]!];
  });

const indentedCode: fc.Arbitrary<Lines> = fc
  .array(fc.tuple(fc.constantFrom('    ', '\t', '      ', '  \t'), bodyLine), {
    minLength: 1,
    maxLength: 3,
  })
  .map((lines) => lines.map(([i, l]) => i + l));

/** A raw HTML block of each of CommonMark's seven kinds: its start line, body lines, maybe its end. */
const htmlBlock: fc.Arbitrary<Lines> = fc
  .record({
    start: fc.constantFrom(
      '<pre>',
      '<script type="x">',
      '<STYLE>',
      '<textarea', // 1
      '<!-- comment',
      '<!-->',
      '<!-- one line -->', // 2
      '<?php', // 3
      '<!DOCTYPE html', // 4
      '<![CDATA[', // 5
      '<div>',
      '</Section>',
      '<table class="a">',
      '<p/>',
      '<hr', // 6
      '</Sandpack>',
      '<Sandpack files={x}>',
      '<x-tag a="1" b=\'2\' c=d>',
      '<a href="x"/>',
      '<span>text</span>',
      '<Foo bar', // 7 (or none)
    ),
    body: fc.array(bodyLine, { maxLength: 3 }),
    end: fc.constantFrom('', '</pre>', '-->', '?>', '>', ']]>', '</script> after', 'none'),
  })
  .map(({ start, body, end }) => [start, ...body, ...(end === 'none' ? [] : [end])]);

/**
 * Link reference definitions, which micromark reads inside a paragraph's content: whole, over several
 * lines (label, destination and title may each go on on the next line), several in a row, or
 * broken (the rest is paragraph text). After definitions alone a setext underline is paragraph text.
 */
const definition: fc.Arbitrary<Lines> = fc
  .tuple(
    fc.constantFrom(
      '[ref]: /url',
      '[ref]: /url',
      '[ref]:',
      '[re',
      '[ref]: /url "title"',
      "[ref]: /url 'ti",
      '[ref]: <a b>',
      '[ref]:/url',
      '[ref]: /u(rl',
      '[ref]: /url (t) x',
      '[]: /url',
      '[ref] : /url',
      '[a\\]]: /url',
      '[ref]: <url',
      '[ref]: /url"t"',
    ),
    fc.array(
      fc.constantFrom(
        '/url',
        'f]: /url',
        '"title"',
        "tle'",
        '(t',
        ')',
        '[b]: /v',
        'text',
        '<x>',
        "'a' b",
      ),
      { maxLength: 2 },
    ),
  )
  .map(([first, rest]) => [first, ...rest]);

/** Lines that are a setext underline after a paragraph, and paragraph text after definitions alone. */
const underline = fc.constantFrom<Lines>(['='], ['-'], ['=='], ['--'], ['  -'], ['- '], ['===']);

const leaf: fc.Arbitrary<Lines> = fc.oneof(
  { weight: 3, arbitrary: fc.array(textLine, { minLength: 1, maxLength: 3 }) },
  { weight: 3, arbitrary: fence },
  { weight: 2, arbitrary: indentedCode },
  { weight: 3, arbitrary: htmlBlock },
  { weight: 2, arbitrary: anchorLine.map((l): Lines => [l]) },
  { weight: 1, arbitrary: nearMissLine.map((l): Lines => [l]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Lines>(
      ['# Heading'],
      ['Title', '==='],
      ['Title', '---'],
      ['***'],
      ['- - -'],
      ['##'],
      ['[ref]: /url'],
    ),
  },
  { weight: 2, arbitrary: definition },
  { weight: 1, arbitrary: underline },
  { weight: 2, arbitrary: fc.constant<Lines>(['']) },
);

const listMarker = fc.constantFrom('-', '*', '+', '1.', '2)', '10.', '1)');
const afterMarker = fc.constantFrom(' ', ' ', '  ', '   ', '     ', '\t');

/** Prefix the lines of a container's content: `first` for its first line, `rest` for the others. */
function prefixLines(
  lines: Lines,
  first: string,
  rest: string,
  lazy: readonly boolean[],
  restBlank: string,
): Lines {
  return lines.map((line, i) => {
    if (i === 0) return first + line;
    if (line === '') return restBlank;
    return lazy[i % lazy.length] ? line : rest + line;
  });
}

/** Blocks and containers (list items, block quotes), nested to a small depth. */
export const blocks: fc.Arbitrary<Lines> = fc.letrec<{ blocks: Lines; block: Lines }>((tie) => ({
  blocks: fc.array(tie('block'), { maxLength: 4 }).map((list) => list.flat()),
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    {
      weight: 2,
      arbitrary: fc
        .record({
          indent: fc.constantFrom('', ' ', '  ', '   '),
          marker: listMarker,
          after: afterMarker,
          content: tie('blocks'),
          lazy: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
          extra: fc.constantFrom('', '', ' ', '  '),
          emptyFirst: fc.boolean(),
        })
        .map(({ indent, marker, after, content, lazy, extra, emptyFirst }) => {
          const width = ' '.repeat(
            indent.length +
              marker.length +
              (after === '\t' ? 1 : after.length >= 5 ? 1 : after.length),
          );
          const head = indent + marker;
          const lines = content.length === 0 ? [''] : content;
          if (emptyFirst)
            return [head, ...prefixLines(lines, width + extra, width + extra, lazy, '')];
          return prefixLines(lines, head + after, width + extra, lazy, '');
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          indent: fc.constantFrom('', ' ', '   '),
          marker: fc.constantFrom('> ', '>', '>\t', '>  '),
          content: tie('blocks'),
          lazy: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
        })
        .map(({ indent, marker, content, lazy }) => {
          const lines = content.length === 0 ? [''] : content;
          return prefixLines(
            lines,
            indent + marker,
            indent + marker,
            lazy.map((l, i) => l && i > 0),
            `${indent}>`,
          );
        }),
    },
  ),
})).blocks;

/** A Markdown document of such blocks, with one of the three line endings. */
export const commonMarkDocument = fc
  .tuple(
    fc.array(blocks, { minLength: 1, maxLength: 4 }),
    fc.constantFrom('\n', '\n', '\r\n', '\r'),
  )
  .map(([parts, eol]) => parts.flat().join(eol));
