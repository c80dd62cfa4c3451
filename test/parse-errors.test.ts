import { describe, expect, it } from 'vitest';
import { parseKnowledgeDocument } from '../src/index.js';
import { catchKnowledgeError, expectKnowledgeError } from './helpers/knowledgeError.js';

const parse = (text: string) => parseKnowledgeDocument({ id: 'guide', revision: 'r1', text });
const lines = (...l: string[]) => l.join('\n');

describe('parseKnowledgeDocument errors', () => {
  it('UNCLOSED_SECTION at the open anchor that is never closed', () => {
    const error = expectKnowledgeError(
      () => parse(lines('intro', '<!-- agent-section:a -->', 'text')),
      {
        code: 'UNCLOSED_SECTION',
        line: 2,
        column: 1,
        documentId: 'guide',
        sectionId: 'a',
      },
    );
    expect(error.message).toContain('`guide` 2:1');
    expect(error.message).toContain('Add `<!-- /agent-section:a -->`');
  });

  it('UNEXPECTED_CLOSE at a close anchor with nothing open', () => {
    expectKnowledgeError(() => parse(lines('text', '<!-- /agent-section:a -->')), {
      code: 'UNEXPECTED_CLOSE',
      line: 2,
      column: 1,
      sectionId: 'a',
    });
  });

  it('MISMATCHED_CLOSE at the close anchor, related to the innermost open anchor', () => {
    const error = expectKnowledgeError(
      () =>
        parse(
          lines(
            '<!-- agent-section:a -->',
            '<!-- agent-section:b -->',
            '<!-- /agent-section:a -->',
          ),
        ),
      {
        code: 'MISMATCHED_CLOSE',
        line: 3,
        column: 1,
        sectionId: 'a',
        related: { line: 2, column: 1 },
      },
    );
    // Recovery closes both `b` and `a`: one mistake, one issue.
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain('(opened at 2:1)');
  });

  it('MISMATCHED_CLOSE for an ID that is not open at all skips that line and keeps pairing', () => {
    const error = catchKnowledgeError(() =>
      parse(
        lines(
          '<!-- agent-section:a -->',
          '<!-- /agent-section:zz -->',
          '<!-- /agent-section:a -->',
        ),
      ),
    );
    expect(error.issues.map((i) => [i.code, i.line])).toEqual([['MISMATCHED_CLOSE', 2]]);
    expect(error.message).toContain('`zz` is not open at all');
  });

  it('after a first mismatch, later opens and closes still decide which closes recover', () => {
    // Which IDs are open is tracked only from the first mismatch on: line 6 must see `c` as open
    // (opened after that mismatch), line 7 must see it as closed again.
    const error = catchKnowledgeError(() =>
      parse(
        lines(
          '<!-- agent-section:a -->',
          '<!-- agent-section:b -->',
          '<!-- /agent-section:x -->',
          '<!-- agent-section:c -->',
          '<!-- agent-section:d -->',
          '<!-- /agent-section:c -->',
          '<!-- /agent-section:c -->',
          '<!-- /agent-section:b -->',
          '<!-- /agent-section:a -->',
        ),
      ),
    );
    expect(error.issues.map((i) => [i.code, i.line, i.sectionId])).toEqual([
      ['MISMATCHED_CLOSE', 3, 'x'],
      ['MISMATCHED_CLOSE', 6, 'c'],
      ['MISMATCHED_CLOSE', 7, 'c'],
    ]);
    expect(error.issues[1]!.message).not.toContain('not open at all');
    expect(error.issues[2]!.message).toContain('not open at all');
  });

  it('DUPLICATE_SECTION_ID at the second open anchor, related to the first, even when not siblings', () => {
    const text = lines(
      '<!-- agent-section:a -->',
      '<!-- agent-section:x -->',
      '<!-- /agent-section:x -->',
      '<!-- /agent-section:a -->',
      '<!-- agent-section:b -->',
      '<!-- agent-section:x -->',
      '<!-- /agent-section:x -->',
      '<!-- /agent-section:b -->',
    );
    expectKnowledgeError(() => parse(text), {
      code: 'DUPLICATE_SECTION_ID',
      line: 6,
      column: 1,
      sectionId: 'x',
      related: { line: 2, column: 1 },
    });
  });

  it('a section opened twice in a row is a duplicate, and the second is left unclosed', () => {
    const error = catchKnowledgeError(() =>
      parse(
        lines('<!-- agent-section:a -->', '<!-- agent-section:a -->', '<!-- /agent-section:a -->'),
      ),
    );
    expect(error.issues.map((i) => [i.code, i.line])).toEqual([
      ['UNCLOSED_SECTION', 1],
      ['DUPLICATE_SECTION_ID', 2],
    ]);
  });

  it('UNCLOSED_FENCE at the fence opener when the open fence swallows an anchor line', () => {
    const error = expectKnowledgeError(
      () =>
        parse(lines('<!-- agent-section:a -->', '  ~~~~ js', 'code', '<!-- /agent-section:a -->')),
      { code: 'UNCLOSED_FENCE', line: 2, column: 3, related: { line: 4, column: 1 } },
    );
    expect(error.message).toContain('at least 4 tilde characters');
    // The swallowed close is why `a` looks unclosed: one mistake, one issue, which names `a`.
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain('still open: `a`');
  });

  it('UNCLOSED_FENCE also when the unclosed fence swallows only a near miss', () => {
    expectKnowledgeError(() => parse(lines('```', '<!--agent-section:a-->')), {
      code: 'UNCLOSED_FENCE',
      line: 1,
      column: 1,
      related: { line: 2, column: 1 },
    });
  });

  describe('MALFORMED_ANCHOR for near misses, never silent body text', () => {
    const cases: [string, string, number, string][] = [
      ['<!--agent-section:a -->', 'one space after `<!--`', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section:a-->', 'one space before `-->`', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section:a  -->', 'one space before `-->`', 1, '<!-- agent-section:a -->'],
      ['<!--  agent-section:a -->', 'one space after `<!--`', 1, '<!-- agent-section:a -->'],
      ['<!-- Agent-Section:a -->', 'lower case', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section: a -->', 'space inside the marker', 1, '<!-- agent-section:a -->'],
      ['<!-- / agent-section:a -->', 'space inside the marker', 1, '<!-- /agent-section:a -->'],
      ['<!-- agent-section :a -->', 'space inside the marker', 1, '<!-- agent-section:a -->'],
      ['  <!-- agent-section:a -->', 'indented by 2 characters', 3, '<!-- agent-section:a -->'],
      ['\t<!-- /agent-section:a -->', 'indented by 1 character', 2, '<!-- /agent-section:a -->'],
      ['        <!-- agent-section:a -->', 'indented by 8', 9, '<!-- agent-section:a -->'],
      ['<!-- agent-section:a --> ', 'whitespace after `-->`', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section:a -->\t', 'whitespace after `-->`', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section:a --> trailing', 'text after `-->`', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section: -->', 'ID is empty', 1, '<!-- agent-section:ID -->'],
      [
        '<!-- agent-section:día -->',
        'contains `í` (U+00ED) at column 21',
        1,
        '<!-- agent-section:dia -->',
      ],
      ['<!-- agent-section:a/b -->', 'contains `/` at column 21', 1, '<!-- agent-section:a-b -->'],
      ['<!-- agent-section:a', 'does not end with ` -->`', 1, '<!-- agent-section:a -->'],
      ['<!-- agent-section is described here -->', 'not an anchor', 1, '<!-- agent-section:ID -->'],
      ['<!-- see the AGENT-SECTION docs -->', 'not an anchor', 1, '<!-- agent-section:ID -->'],
    ];
    for (const [line, reason, column, expected] of cases) {
      it(JSON.stringify(line), () => {
        const error = catchKnowledgeError(() => parse(lines('before', line, 'after')));
        const issue = error.issues.find((i) => i.code === 'MALFORMED_ANCHOR');
        expect(issue).toMatchObject({ line: 2, column });
        expect(issue!.message).toContain(reason);
        expect(issue!.message).toContain(`write exactly \`${expected}\``);
        expect(issue!.message).toContain(`Found \`${line}\``);
      });
    }
  });

  it('an anchor indented inside a list item is malformed, and pairing continues with what was meant', () => {
    const text = lines(
      '- item',
      '  <!-- agent-section:a -->',
      '  text',
      '  <!-- /agent-section:a -->',
    );
    const error = catchKnowledgeError(() => parse(text));
    expect(error.issues.map((i) => [i.code, i.line, i.column])).toEqual([
      ['MALFORMED_ANCHOR', 2, 3],
      ['MALFORMED_ANCHOR', 4, 3],
    ]);
  });

  it('reports every problem in one error, in text order, with a summary message', () => {
    const text = lines(
      '<!-- agent-section:a -->', // 1: never closed
      '<!-- /agent-section:b -->', // 2: mismatched
      ' <!-- agent-section:c -->', // 3: malformed
      '<!-- /agent-section:c -->', // 4: closes c as meant
      '<!-- agent-section:a -->', // 5: duplicate, never closed
    );
    const error = catchKnowledgeError(() => parse(text));
    expect(error.issues.map((i) => [i.code, i.line])).toEqual([
      ['UNCLOSED_SECTION', 1],
      ['MISMATCHED_CLOSE', 2],
      ['MALFORMED_ANCHOR', 3],
      ['DUPLICATE_SECTION_ID', 5],
      ['UNCLOSED_SECTION', 5],
    ]);
    expect(error.code).toBe('UNCLOSED_SECTION');
    expect(error.message.split('\n')[0]).toBe('5 problems:');
  });

  it('lists at most 20 issues in the message and says how many more there are', () => {
    const text = Array.from({ length: 25 }, (_, i) => `<!-- /agent-section:x${i} -->`).join('\n');
    const error = catchKnowledgeError(() => parse(text));
    expect(error.issues).toHaveLength(25);
    expect(error.message).toContain('… and 5 more: see `error.issues`.');
  });

  it('INVALID_INPUT for bad arguments and unknown keys, with the key as path', () => {
    expectKnowledgeError(() => parseKnowledgeDocument(null as never), {
      code: 'INVALID_INPUT',
      path: [],
    });
    const error = expectKnowledgeError(
      () => parseKnowledgeDocument({ id: '', revision: 1, text: 2, local: 'en' } as never),
      { code: 'INVALID_INPUT', path: ['local'] },
    );
    expect(error.issues.map((i) => i.path)).toEqual([['local'], ['id'], ['revision'], ['text']]);
    expect(error.issues[0]!.message).toContain('did you mean `locale`?');
    expectKnowledgeError(
      () => parseKnowledgeDocument({ id: 'a', revision: 'r', text: '', locale: '' }),
      {
        code: 'INVALID_INPUT',
        path: ['locale'],
      },
    );
  });
});
