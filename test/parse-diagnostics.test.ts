// Issue 20 item 4: anchor mistakes that were silent or explained wrongly. Each is one issue, at the
// line the author must edit, with the fix written out.
import { describe, expect, it } from 'vitest';
import { formatKnowledgeDocument, parseKnowledgeDocument } from '../src/index.js';
import { catchKnowledgeError, expectKnowledgeError } from './helpers/knowledgeError.js';

const parse = (text: string) => parseKnowledgeDocument({ id: 'guide', revision: 'r1', text });
const lines = (...l: string[]) => l.join('\n');

describe('a near-miss keyword or comment opener is one MALFORMED_ANCHOR with the fix', () => {
  const cases: [line: string, reason: string, fix: string][] = [
    ['<!-- agent-secton:cause -->', 'keyword `agent-secton`', '<!-- agent-section:cause -->'],
    ['<!-- agent_section:cause -->', 'keyword `agent_section`', '<!-- agent-section:cause -->'],
    ['<!-- agent-sections:cause -->', 'keyword `agent-sections`', '<!-- agent-section:cause -->'],
    ['<!-- agent section:cause -->', 'keyword `agent section`', '<!-- agent-section:cause -->'],
    ['<!-- agnet-section:cause -->', 'keyword `agnet-section`', '<!-- agent-section:cause -->'],
    ['<!-- AGENT_SECTION:cause -->', 'keyword `AGENT_SECTION`', '<!-- agent-section:cause -->'],
    [
      '<-- agent-section:cause -->',
      'starts with `<--`, not `<!--`',
      '<!-- agent-section:cause -->',
    ],
    [
      '<!- agent-section:cause -->',
      'starts with `<!-`, not `<!--`',
      '<!-- agent-section:cause -->',
    ],
    [
      '<!— agent-section:cause -->',
      'starts with `<!—`, not `<!--`',
      '<!-- agent-section:cause -->',
    ],
  ];
  for (const [line, reason, fix] of cases) {
    const close = line.replace(/^(<[!—-]*) /, '$1 /');
    it(`${line} and its close ${close}`, () => {
      const error = catchKnowledgeError(() => parse(lines('intro', line, 'text', close)));
      // One issue per line, and pairing goes on as meant: no UNCLOSED_SECTION, no UNEXPECTED_CLOSE.
      expect(error.issues.map((i) => [i.code, i.line, i.column, i.sectionId])).toEqual([
        ['MALFORMED_ANCHOR', 2, 1, 'cause'],
        ['MALFORMED_ANCHOR', 4, 1, 'cause'],
      ]);
      expect(error.issues[0]!.message).toContain(reason);
      expect(error.issues[0]!.message).toContain(`write exactly \`${fix}\``);
      expect(error.issues[1]!.message).toContain(
        `write exactly \`${fix.replace('agent-section', '/agent-section')}\``,
      );
    });
  }

  it('a typo next to a correct close: the typo is reported, the close pairs with it', () => {
    const error = catchKnowledgeError(() =>
      parse(lines('<!-- agent-secton:cause -->', 'text', '<!-- /agent-section:cause -->')),
    );
    expect(error.issues.map((i) => [i.code, i.line])).toEqual([['MALFORMED_ANCHOR', 1]]);
    expect(error.message).toBe(
      'parseKnowledgeDocument: `guide` 1:1: malformed section anchor: its keyword `agent-secton` is not ' +
        '`agent-section`. Found `<!-- agent-secton:cause -->`; write exactly `<!-- agent-section:cause -->` ' +
        'on its own line, starting in column 1. To show anchor syntax as an example, put it inside a fenced code block.',
    );
  });

  it('inside a closed code fence it is body text, as an exact anchor is', () => {
    const text = lines('```md', '<!-- agent-secton:a -->', '<-- agent-section:a -->', '```');
    expect(parse(text).parts).toEqual([text]);
  });

  it('swallowed by an unclosed fence it is UNCLOSED_FENCE, as an exact anchor is', () => {
    expectKnowledgeError(() => parse(lines('```', '<!-- agent_section:a -->')), {
      code: 'UNCLOSED_FENCE',
      line: 1,
      related: { line: 2, column: 1 },
    });
  });

  it('formatKnowledgeDocument refuses a string part holding one, since it would not parse back', () => {
    expectKnowledgeError(
      () => formatKnowledgeDocument({ id: 'g', revision: 'r', parts: ['<!-- agent-secton:a -->'] }),
      { code: 'INVALID_INPUT' },
    );
  });

  it('ordinary comments and HTML stay body text', () => {
    const text = lines(
      '<!-- TODO: fix -->',
      '<!-- prettier-ignore -->',
      '<!-- markdownlint-disable MD033 -->',
      '<!-- section: intro -->',
      '<!-- agent: claude -->',
      '<!-- agents-sections-index:all -->',
      '<-- back',
      '<--- arrow: yes',
      '<div class="agent-section:x">',
      '<a-section:x>',
    );
    expect(parse(text).parts).toEqual([text]);
  });
});

describe('an invalid ID names the bad character and keeps the whole ID in the fix', () => {
  it('<!-- agent-section:bad id -->: a space, not a missing ` -->`', () => {
    const error = catchKnowledgeError(() =>
      parse(lines('<!-- agent-section:bad id -->', 'text', '<!-- /agent-section:bad id -->')),
    );
    // Both lines are near misses of the same ID, paired as meant.
    expect(error.issues.map((i) => [i.code, i.line, i.column, i.sectionId])).toEqual([
      ['MALFORMED_ANCHOR', 1, 1, 'bad id'],
      ['MALFORMED_ANCHOR', 3, 1, 'bad id'],
    ]);
    const [open, close] = error.issues;
    expect(open!.message).toContain('its ID `bad id` contains a space at column 23');
    expect(open!.message).not.toContain('does not end with');
    expect(open!.message).toContain('write exactly `<!-- agent-section:bad-id -->`');
    expect(close!.message).toContain('write exactly `<!-- /agent-section:bad-id -->`');
  });

  const cases: [id: string, named: string, fix: string][] = [
    ['a\tb', 'a tab at column 21', 'a-b'],
    ['über', '`ü` (U+00FC) at column 20', 'uber'],
    ['a/b c', '`/` at column 21', 'a-b-c'],
    ['zero\u200bwidth', 'the invisible character U+200B at column 24', 'zero-width'],
    ['(x)', '`(` at column 20', 'x'],
    ['配送', '`配` (U+914D) at column 20', 'ID'],
  ];
  for (const [id, named, fix] of cases) {
    it(JSON.stringify(id), () => {
      const error = catchKnowledgeError(() => parse(`<!-- agent-section:${id} -->\n`));
      const issue = error.issues[0]!;
      expect(issue).toMatchObject({ code: 'MALFORMED_ANCHOR', line: 1, column: 1, sectionId: id });
      expect(issue.message).toContain(`its ID \`${id}\` contains ${named}`);
      expect(issue.message).toContain(`write exactly \`<!-- agent-section:${fix} -->\``);
    });
  }

  it('a missing ` -->` is still named when the ID is good', () => {
    const error = catchKnowledgeError(() => parse('<!-- agent-section:cause --'));
    expect(error.issues[0]!.message).toContain('does not end with ` -->`');
    expect(error.issues[0]!.message).toContain('write exactly `<!-- agent-section:cause -->`');
  });
});

describe('an anchor inside a code fence that leaves its pair unmatched names the fence', () => {
  it('UNEXPECTED_CLOSE: the open on line 3 is inside the fence opened on line 2', () => {
    const error = expectKnowledgeError(
      () =>
        parse(
          lines(
            'intro',
            '```md',
            '<!-- agent-section:cause -->',
            '```',
            'text',
            '<!-- /agent-section:cause -->',
          ),
        ),
      { code: 'UNEXPECTED_CLOSE', line: 6, column: 1, related: { line: 3, column: 1 } },
    );
    expect(error.issues).toHaveLength(1);
    expect(error.message).toBe(
      'parseKnowledgeDocument: `guide` 6:1: `<!-- /agent-section:cause -->` closes `cause`, but no section ' +
        'is open here: its open anchor on line 3 is inside the code fence opened on line 2, so it is code, ' +
        'not an anchor. End the fence before line 3, or move the open anchor out of it.',
    );
  });

  it('MISMATCHED_CLOSE: the same, when another section is open', () => {
    const error = expectKnowledgeError(
      () =>
        parse(
          lines(
            '<!-- agent-section:outer -->',
            '~~~',
            'code',
            '<!-- agent-section:cause -->',
            '~~~',
            '<!-- /agent-section:cause -->',
            '<!-- /agent-section:outer -->',
          ),
        ),
      { code: 'MISMATCHED_CLOSE', line: 6, related: { line: 1, column: 1 } },
    );
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain(
      '`cause` is not open at all: its open anchor on line 4 is inside the code fence opened on line 2',
    );
  });

  it('UNCLOSED_SECTION: the close on line 4 is inside the fence opened on line 3', () => {
    const error = expectKnowledgeError(
      () =>
        parse(lines('<!-- agent-section:a -->', 'text', '```', '<!-- /agent-section:a -->', '```')),
      { code: 'UNCLOSED_SECTION', line: 1, related: { line: 4, column: 1 } },
    );
    expect(error.message).toContain(
      'its close anchor on line 4 is inside the code fence opened on line 3, so it is code, not an anchor. ' +
        'End the fence before line 4, or move the close anchor out of it.',
    );
  });

  it('the nearest fenced open before the close is named; other IDs are not', () => {
    const error = catchKnowledgeError(() =>
      parse(
        lines(
          '```',
          '<!-- agent-section:a -->',
          '```',
          '```',
          '<!-- agent-section:a -->',
          '<!-- agent-section:b -->',
          '```',
          '<!-- /agent-section:a -->',
          '<!-- /agent-section:c -->',
        ),
      ),
    );
    expect(error.issues.map((i) => [i.code, i.line, i.related])).toEqual([
      ['UNEXPECTED_CLOSE', 8, { line: 5, column: 1 }],
      ['UNEXPECTED_CLOSE', 9, undefined],
    ]);
    expect(error.issues[0]!.message).toContain('code fence opened on line 4');
    expect(error.issues[1]!.message).toContain('Remove it, or add `<!-- agent-section:c -->`');
  });
});
