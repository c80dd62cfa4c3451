import { describe, expect, it } from 'vitest';
import { parseKnowledgeDocument } from '../src/index.js';
import { catchKnowledgeError } from './helpers/knowledgeError.js';

const parse = (text: string, locale?: string) =>
  parseKnowledgeDocument({
    id: 'doc',
    revision: 'r1',
    text,
    ...(locale === undefined ? {} : { locale }),
  });

describe('parseKnowledgeDocument', () => {
  it('parses the seed example into the seed JSON', () => {
    const text = [
      '全局引言。',
      '<!-- agent-section:delivery -->',
      '本章节自身正文。',
      '<!-- agent-section:delivery.timing -->',
      '时机说明。',
      '<!-- /agent-section:delivery.timing -->',
      '<!-- /agent-section:delivery -->',
    ].join('\n');
    expect(
      parseKnowledgeDocument({
        id: 'service-guide',
        revision: 'content-version-1',
        locale: 'zh-CN',
        text,
      }),
    ).toEqual({
      id: 'service-guide',
      revision: 'content-version-1',
      locale: 'zh-CN',
      parts: [
        '全局引言。',
        {
          id: 'delivery',
          parts: ['本章节自身正文。', { id: 'delivery.timing', parts: ['时机说明。'] }],
        },
      ],
    });
  });

  it('gives empty text no parts and leaves locale out when absent', () => {
    const doc = parse('');
    expect(doc).toEqual({ id: 'doc', revision: 'r1', parts: [] });
    expect(Object.keys(doc)).toEqual(['id', 'revision', 'parts']);
    expect(
      parseKnowledgeDocument({ id: 'doc', revision: 'r1', text: '', locale: undefined }),
    ).not.toHaveProperty('locale');
  });

  it('trims leading and trailing blank lines of each run but keeps interior text exactly', () => {
    const text =
      '\n  \n\t\n  indented first\n\ninner  \n  \n\n<!-- agent-section:a -->\n\n\n<!-- /agent-section:a -->\n \n';
    expect(parse(text).parts).toEqual(['  indented first\n\ninner  ', { id: 'a', parts: [] }]);
  });

  it('omits runs that are only blank and gives an empty section parts: []', () => {
    expect(parse('<!-- agent-section:a -->\n   \n\t\n<!-- /agent-section:a -->').parts).toEqual([
      { id: 'a', parts: [] },
    ]);
  });

  it('keeps text between sibling and nested sections in order', () => {
    const text =
      'intro\n<!-- agent-section:a -->\nA1\n<!-- agent-section:b -->\nB\n<!-- /agent-section:b -->\nA2\n<!-- /agent-section:a -->\n<!-- agent-section:c -->\nC\n<!-- /agent-section:c -->\noutro';
    expect(parse(text).parts).toEqual([
      'intro',
      { id: 'a', parts: ['A1', { id: 'b', parts: ['B'] }, 'A2'] },
      { id: 'c', parts: ['C'] },
      'outro',
    ]);
  });

  it('gives a parse after a refused one nothing of it (parts are collected in an array kept between parses)', () => {
    const refused =
      '<!-- agent-section:x -->\nX1\n<!-- agent-section:y -->\nY\n<!-- agent-section:x -->\nmore';
    expect(() => parse(refused)).toThrow();
    const sections = Array.from(
      { length: 70_000 },
      (_, k) => `<!-- agent-section:s${k} -->\n<!-- /agent-section:s${k} -->`,
    );
    expect(parse(`${sections.join('\n')}\nend`).parts).toHaveLength(70_001);
    expect(parse('<!-- agent-section:a -->\nA\n<!-- /agent-section:a -->').parts).toEqual([
      { id: 'a', parts: ['A'] },
    ]);
    expect(parse('just text').parts).toEqual(['just text']);
    // Duplicates are found per parse: the IDs of the parses before do not count.
    expect(
      parse(
        '<!-- agent-section:x -->\n<!-- /agent-section:x -->\n<!-- agent-section:y -->\n<!-- /agent-section:y -->',
      ).parts,
    ).toEqual([
      { id: 'x', parts: [] },
      { id: 'y', parts: [] },
    ]);
  });

  it('gives a parse started inside another one (through a patched built-in) buffers of its own', () => {
    // The parser's buffers are kept between parses; user code can only run inside a scan through a
    // patched built-in, here `replace`, which the scan calls on the body text of a CRLF text.
    const outerText =
      'before\r\n<!-- agent-section:a -->\r\nA1\r\n<!-- agent-section:b -->\r\nB\r\n<!-- /agent-section:b -->\r\nA2\r\n<!-- /agent-section:a -->\r\nafter';
    const innerText =
      '<!-- agent-section:x -->\nX\n<!-- /agent-section:x -->\n<!-- agent-section:y -->\n<!-- /agent-section:y -->\n<!-- agent-section:x -->\n<!-- /agent-section:x -->';
    const expected = parse(outerText).parts;
    const inner: unknown[] = [];
    const replace = String.prototype.replace;
    String.prototype.replace = function (this: string, ...args: Parameters<typeof replace>) {
      try {
        inner.push(parse(innerText));
      } catch (error) {
        inner.push(
          (error as { issues: unknown[] }).issues.map(
            (issue) => (issue as { code: string; line: number }).line,
          ),
        );
      }
      return replace.apply(this, args);
    } as typeof replace;
    let parts: unknown;
    let outerDuplicates: unknown;
    try {
      parts = parse(outerText).parts;
      // The outer parse's own duplicate, recorded before the inner parses ran, is still found.
      outerDuplicates = catchKnowledgeError(() =>
        parse(`${outerText}\r\n<!-- agent-section:b -->\r\nB2\r\n<!-- /agent-section:b -->`),
      ).issues.map((issue) => [issue.code, issue.line, issue.related]);
    } finally {
      String.prototype.replace = replace;
    }
    expect(parts).toEqual(expected);
    expect(outerDuplicates).toEqual([['DUPLICATE_SECTION_ID', 10, { line: 4, column: 1 }]]);
    // Each inner parse found its duplicate `x` at line 6, first opened at line 1.
    expect(inner.length).toBeGreaterThan(0);
    for (const lines of inner) expect(lines).toEqual([6]);
  });

  it('reads LF, CRLF and lone CR as line endings and writes LF', () => {
    const lines = ['top', '<!-- agent-section:a -->', 'one', 'two', '<!-- /agent-section:a -->'];
    const expected = ['top', { id: 'a', parts: ['one\ntwo'] }];
    expect(parse(lines.join('\n')).parts).toEqual(expected);
    expect(parse(lines.join('\r\n')).parts).toEqual(expected);
    expect(parse(lines.join('\r')).parts).toEqual(expected);
    expect(parse('a\r\nb\rc\nd').parts).toEqual(['a\nb\nc\nd']);
  });

  it('ignores a leading byte order mark, and only a leading one', () => {
    expect(parse('\uFEFF<!-- agent-section:a -->\nx\n<!-- /agent-section:a -->').parts).toEqual([
      { id: 'a', parts: ['x'] },
    ]);
    expect(parse('a\n\uFEFFb').parts).toEqual(['a\n\uFEFFb']);
  });

  it('accepts every ID character and treats `.` as only a character', () => {
    const id = 'Az09_.:-x';
    expect(parse(`<!-- agent-section:${id} -->\n<!-- /agent-section:${id} -->`).parts).toEqual([
      { id, parts: [] },
    ]);
    // `a.b` is a sibling of `a`, not its child: nesting comes from anchors only.
    const text =
      '<!-- agent-section:a -->\n<!-- /agent-section:a -->\n<!-- agent-section:a.b -->\n<!-- /agent-section:a.b -->';
    expect(parse(text).parts).toEqual([
      { id: 'a', parts: [] },
      { id: 'a.b', parts: [] },
    ]);
  });

  it('treats prototype names as ordinary IDs', () => {
    const ids = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
    const text = ids
      .map((id) => `<!-- agent-section:${id} -->\n${id} text\n<!-- /agent-section:${id} -->`)
      .join('\n');
    expect(parse(text).parts).toEqual(ids.map((id) => ({ id, parts: [`${id} text`] })));
  });

  it('treats # headings as body text', () => {
    expect(parse('# Title\n\n## Sub\ntext').parts).toEqual(['# Title\n\n## Sub\ntext']);
  });

  describe('fenced code', () => {
    it('keeps anchor lines inside backtick and tilde fences as body text', () => {
      const text = [
        '```markdown',
        '<!-- agent-section:example -->',
        '<!-- /agent-section:example -->',
        '```',
        '~~~~',
        '<!-- agent-section:other -->',
        '~~~~',
      ].join('\n');
      expect(parse(text).parts).toEqual([text]);
    });

    it('closes a fence only with the same character, at least as long, indented 0-3, followed only by spaces or tabs', () => {
      const text = [
        '   ````',
        '```', // too short
        '~~~~', // other character
        '    ````', // indented 4: code line
        '```` x', // text after
        '<!-- agent-section:inside -->',
        ' `````  \t', // closes
        '<!-- agent-section:a -->',
        '<!-- /agent-section:a -->',
      ].join('\n');
      const parts = parse(text).parts;
      expect(parts).toHaveLength(2);
      expect(parts[1]).toEqual({ id: 'a', parts: [] });
    });

    it('does not open a backtick fence whose info string holds a backtick, nor one indented 4 or by a tab', () => {
      for (const opener of ['``` a`b', '    ```', '\t```', '``']) {
        const text = `${opener}\n<!-- agent-section:a -->\n<!-- /agent-section:a -->`;
        expect(parse(text).parts, opener).toEqual([opener, { id: 'a', parts: [] }]);
      }
      // A tilde fence's info string may hold backticks.
      expect(parse('~~~ a`b\n<!-- agent-section:a -->\n~~~').parts).toHaveLength(1);
    });

    it('lets an unclosed fence without anchor-like lines run to the end as text', () => {
      expect(parse('```\ncode\n\n').parts).toEqual(['```\ncode']);
    });
  });
});
