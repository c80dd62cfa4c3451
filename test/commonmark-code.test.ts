import { describe, expect, it } from 'vitest';
import { parseKnowledgeDocument } from '../src/index.js';
import { remarkCodeLines, scannerCodeLines } from './helpers/codeLines.js';
import { catchKnowledgeError } from './helpers/knowledgeError.js';

const parse = (text: string) => parseKnowledgeDocument({ id: 'doc', revision: 'r1', text });
const lines = (...l: string[]) => l.join('\n');

/** The scanner and remark-parse agree on `text`'s code lines, and they are `expected`. */
function expectCode(text: string, expected: number[]): void {
  expect(remarkCodeLines(text)).toEqual(expected);
  expect(scannerCodeLines(text)).toEqual(expected);
}

describe('code as CommonMark sees it (issue 8)', () => {
  it('reproduction 1: a fence opened on a list-marker line keeps section `a`', () => {
    const text = lines(
      '1. ```sh',
      '   npm i',
      '   ```',
      '',
      '<!-- agent-section:a -->',
      'Text',
      '<!-- /agent-section:a -->',
      '',
      '```js',
      'x',
      '```',
    );
    expectCode(text, [1, 2, 3, 9, 10, 11]);
    expect(parse(text).parts).toEqual([
      '1. ```sh\n   npm i\n   ```',
      { id: 'a', parts: ['Text'] },
      '```js\nx\n```',
    ]);
  });

  it('reproduction 1b: a fenced example after a list-marker fence stays an example', () => {
    const text = lines(
      '- ```',
      '  a',
      '  ```',
      '',
      '```',
      '<!-- agent-section:example -->',
      'Example',
      '<!-- /agent-section:example -->',
      '```',
    );
    expectCode(text, [1, 2, 3, 5, 6, 7, 8, 9]);
    expect(parse(text).parts).toEqual([text]);
  });

  it('reproduction 2: a fence line right after raw HTML belongs to the HTML block', () => {
    const text = lines(
      '<Sandpack>',
      'code',
      '</Sandpack>',
      '```',
      '<!-- agent-section:a -->',
      'Text',
      '<!-- /agent-section:a -->',
    );
    expectCode(text, []);
    expect(parse(text).parts).toEqual([
      '<Sandpack>\ncode\n</Sandpack>\n```',
      { id: 'a', parts: ['Text'] },
    ]);
  });

  describe('no fence opens inside any of the seven kinds of HTML block, until its end', () => {
    const kinds: [number, string, string][] = [
      [1, '<pre class="x">', '</pre>'],
      [2, '<!-- a comment', '-->'],
      [3, '<?php echo 1;', '?>'],
      [4, '<!DOCTYPE html', '>'],
      [5, '<![CDATA[', ']]>'],
      [6, '<div>', ''],
      [7, '<my-element a="1">', ''],
    ];
    for (const [kind, start, end] of kinds) {
      it(`kind ${kind}: ${start}`, () => {
        // Inside the block, ``` is HTML and the anchors are anchors; after its end, ``` opens a fence.
        const text = lines(
          '',
          start,
          '```',
          '<!-- agent-section:a -->',
          '<!-- /agent-section:a -->',
          end,
          '```',
          '<!-- agent-section:shown -->',
          '```',
        );
        expectCode(text, [7, 8, 9]);
        expect(parse(text).parts).toEqual([
          `${start}\n\`\`\``,
          { id: 'a', parts: [] },
          `${end}\n\`\`\`\n<!-- agent-section:shown -->\n\`\`\``.replace(/^\n/, ''),
        ]);
      });
    }
  });

  it('an exact anchor inside a raw HTML block is still an anchor (the spec reads anchors as lines)', () => {
    expect(
      parse(lines('<div>', '<!-- agent-section:a -->', 'x', '<!-- /agent-section:a -->')).parts,
    ).toEqual(['<div>', { id: 'a', parts: ['x'] }]);
  });

  describe('containers', () => {
    it('list item: a fence on the marker line closes at the item’s content indentation', () => {
      expectCode(lines('- ```', '  <!-- agent-section:a -->', '  ```', 'after'), [1, 2, 3]);
      expect(parse(lines('- ```', '  <!-- agent-section:a -->', '  ```')).parts).toEqual([
        '- ```\n  <!-- agent-section:a -->\n  ```',
      ]);
    });

    it('list item: its fence ends with the item, so the next unindented anchor is an anchor', () => {
      const text = lines(
        '- ```',
        '  code',
        '<!-- agent-section:a -->',
        'x',
        '<!-- /agent-section:a -->',
      );
      expectCode(text, [1, 2]);
      expect(parse(text).parts).toEqual(['- ```\n  code', { id: 'a', parts: ['x'] }]);
    });

    it('ordered item with wide padding, nested lists', () => {
      expectCode(
        lines('10.  ```', '     x', '     ```', '- a', '  - ```', '    y', '    ```'),
        [1, 2, 3, 5, 6, 7],
      );
    });

    it('block quote: a fence inside ends with the quote', () => {
      const text = lines(
        '> ```',
        '> <!-- agent-section:a -->',
        '<!-- agent-section:b -->',
        '<!-- /agent-section:b -->',
      );
      expectCode(text, [1, 2]);
      expect(parse(text).parts).toEqual([
        '> ```\n> <!-- agent-section:a -->',
        { id: 'b', parts: [] },
      ]);
    });

    it('lazy continuation: a paragraph line without the container prefix stays in it; a fence does not', () => {
      expectCode(lines('> a', 'lazy', '```', 'x', '```'), [3, 4, 5]);
      expectCode(lines('- a', 'lazy', '    not code'), []);
    });
  });

  describe('indented code', () => {
    it('after a blank line, four columns of indentation are code, and an anchor there is body text', () => {
      const text = lines(
        'Text',
        '',
        '    <!-- agent-section:example -->',
        '\t<!-- /agent-section:example -->',
      );
      expectCode(text, [3, 4]);
      expect(parse(text).parts).toEqual([text]);
    });

    it('right after a paragraph, an indented anchor is a continuation line and a near miss', () => {
      const error = catchKnowledgeError(() => parse(lines('Text', '    <!-- agent-section:a -->')));
      expect(error.issues.map((i) => [i.code, i.line])).toEqual([['MALFORMED_ANCHOR', 2]]);
    });

    it('inside a list item, code starts four columns past the content indentation', () => {
      expectCode(lines('- item', '', '      code', '    not code'), [3]);
    });
  });

  describe('link reference definitions (fuzz seed 8808)', () => {
    // micromark reads `[ref]: /url` as a definition inside a paragraph's "content", so what may
    // interrupt it and what continues it are a paragraph's; but a setext underline wants a paragraph
    // before it, so after definitions alone `-` or `=` is the text of a new paragraph, and an indented
    // line after it continues that paragraph instead of starting indented code.
    it('counterexample 1: `-` after a definition is paragraph text, not a heading underline', () => {
      const text = lines(
        '- <!-- agent-section:a -->',
        '[ref]: /url',
        '-',
        '    <!--agent-section:a-->',
      );
      expectCode(text, []);
      const error = catchKnowledgeError(() => parse(text));
      expect(error.issues.map((i) => [i.code, i.line])).toEqual([['MALFORMED_ANCHOR', 4]]);
    });

    it('counterexample 2: an indented `-`, then raw HTML and a near miss, all paragraph text', () => {
      const text = lines('[ref]: /url', '  -', '    <pre>', '    <!--agent-section:a-->', '');
      expectCode(text, []);
      const error = catchKnowledgeError(() => parse(text));
      expect(error.issues.map((i) => [i.code, i.line])).toEqual([['MALFORMED_ANCHOR', 4]]);
    });

    it('after definitions alone, no setext underline: `=`, `==`, `- `, in a quote or a list item', () => {
      expectCode(lines('[a]: /u', '===', '    x'), []);
      expectCode(lines('[a]: /u', '- ', '    x'), []);
      expectCode(lines('> [a]: /u', '> ==', '>     x'), []);
      expectCode(lines('- [a]: /u', '  =', '      x'), []);
      expectCode(lines('[a]: /u', '[b]: /v', '=', '    x'), []);
    });

    it('definitions over several lines: label, destination and title may each start a new line', () => {
      expectCode(lines('[a', 'b]: /u', '=', '    x'), []);
      expectCode(lines('[a]:', '/u', '=', '    x'), []);
      expectCode(lines('[a]: /u', '"t"', '-', '    x'), []);
      expectCode(lines('[a]: /u (t', ')', '=', '    x'), []);
      expectCode(lines('> [a]:', '/u', '> =', '>     x'), []); // a lazy line goes on with the definition
    });

    it('after a paragraph line, or a definition that fails, the underline makes a heading again', () => {
      expectCode(lines('[a]: /u', 'foo', '===', '    x'), [4]);
      expectCode(lines('[a]: /u "t" z', '=', '    x'), [3]);
      expectCode(lines('[a]: /u', '"t" z', '-', '    x'), [4]);
      expectCode(lines('[a]: /u', '"t', '-', '    x'), [4]); // a title left open is paragraph text
      expectCode(lines('[]: /u', '=', '    x'), [3]);
      expectCode(lines('[a]: <x', '=', '    x'), [3]);
      expectCode(lines('[a]: /u(x', '=', '    x'), [3]);
      expectCode(lines(`[${'x'.repeat(1000)}]: /u`, '=', '    x'), [3]); // a label holds at most 999 characters
    });

    it('`---` after a definition is a thematic break; a definition is interrupted as a paragraph is', () => {
      expectCode(lines('[a]: /u', '---', '    x'), [3]);
      expectCode(lines('[a]: /u', '    x'), []);
      expectCode(lines('[a]: /u', '2. x', '    y'), []);
      expectCode(lines('- [a]: /u', '==', '    x'), []);
    });
  });

  describe('a line that opens a container starts afresh (fuzz seed 8808, second run)', () => {
    // A blank line that closes an empty list item leaves the next line lazy in micromark, and indented
    // code begun on a lazy line lets an empty list item interrupt it; but a line that opens a new
    // list item or quote is not lazy, so its indented code stops an empty item as a paragraph does.
    it('counterexample 3: a sibling item after an empty one; `-` under its indented code is paragraph text', () => {
      expectCode(lines('- ', '', '-     ```', '   - ', '       ```', '   ```'), [3, 6]);
    });

    it('counterexample 4: a new list after a quote whose empty item a blank line closed', () => {
      const text = lines(
        '> -',
        '>   ',
        '-     <!-- agent-section:a -->',
        '  - -',
        '      ```',
        '    <!--agent-section:a-->',
        '    ```',
      );
      expectCode(text, [3, 5, 6, 7]);
      expect(parse(text).parts).toEqual([text]);
    });

    it('counterexamples 5 and 6: the empty item stays open through every blank line that follows', () => {
      // micromark closes the item only at the next line that is not blank, which is lazy: indented
      // code there lets an empty list item start after it.
      expectCode(lines('-', '  ', '', '    - item', '-', '    ```', '    ```'), [4, 6, 7]);
      expectCode(lines('-', '  ', '', '    ```', '> -', '      <!--agent-section:a-->'), [4, 6]);
      expectCode(lines('> -', '>', '>', '>     code', '> -', '>     ```'), [4, 6]);
      // A blank line that does not continue the quote closes the item there: the code is not lazy.
      expectCode(lines('> -', '>', '', '    code', '-', '    ```', '    ```'), [4]);
    });

    it('without a new container, the line after the closing blank line is still lazy', () => {
      // Line 3 is lazy, its code lets the empty item on line 4 start, and that item holds code.
      expectCode(lines('- ', '', '    code', '-', '      more'), [3, 5]);
    });
  });

  it('a lone near miss is one issue, not two', () => {
    const error = catchKnowledgeError(() => parse('<!--agent-section:a-->'));
    expect(error.issues.map((i) => [i.code, i.line])).toEqual([['MALFORMED_ANCHOR', 1]]);
  });

  it('a fence left open inside a list item at the end of the text still reports a swallowed anchor', () => {
    const error = catchKnowledgeError(() => parse(lines('- ```', '  <!-- agent-section:a -->')));
    expect(error.issues.map((i) => [i.code, i.line, i.column])).toEqual([['UNCLOSED_FENCE', 1, 3]]);
  });
});
