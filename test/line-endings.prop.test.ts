// Line endings mixed in one text: whatever the mix of LF, CRLF and lone CR, and wherever the first
// CR is, the result is that of the same lines joined by LF.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnowledgeError, type KnowledgeSection, parseKnowledgeDocument } from '../src/index.js';
import { anchorLine, nearMissLine, proseLine } from './helpers/arbitraries.js';

const parse = (text: string) => parseKnowledgeDocument({ id: 'doc', revision: 'r1', text });

/** The parse, or what its error says, per issue: code, place and section. */
function outcome(text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof KnowledgeError)) throw error;
    return error.issues.map(({ code, line, column, sectionId }) => ({
      code,
      line,
      column,
      sectionId,
    }));
  }
}

/** Lines with no line break inside: anchors, near misses, prose, fences and blank lines. */
const lines = fc.array(
  fc.oneof(
    anchorLine,
    nearMissLine,
    proseLine,
    fc.constantFrom('```', '~~~', '', '- item', '    indented', '<!--', '-->'),
  ),
  { maxLength: 30 },
);
const ending = fc.constantFrom('\n', '\r\n', '\r');

/** `lines` joined by `endings` in turn (the last one after the last line too). */
const join = (parts: readonly string[], endings: readonly string[]) =>
  parts.map((line, k) => line + endings[k % endings.length]).join('');

/** A valid section of `size` lines of prose. */
const section = (id: string, size: number) => [
  `<!-- agent-section:${id} -->`,
  ...Array.from({ length: size }, (_, k) => `Line ${k} of ${id}, 中文也有。`),
  `<!-- /agent-section:${id} -->`,
];

describe('mixed line endings', () => {
  it('parse as the same lines joined by LF', () => {
    fc.assert(
      fc.property(lines, fc.array(ending, { minLength: 1, maxLength: 5 }), (parts, endings) => {
        expect(outcome(join(parts, endings))).toEqual(outcome(join(parts, ['\n'])));
      }),
    );
  });

  it('are read as such when the first CR comes late in a long text, or in its last line', () => {
    const many = [...section('a', 3000), ...section('b', 4000), 'tail'];
    const lf = join(many, ['\n']);
    expect(lf.length).toBeGreaterThan(100_000);
    const expected = parse(lf);
    for (const at of [1, 2000, 3004, many.length - 2, many.length - 1]) {
      for (const eol of ['\r\n', '\r']) {
        const text = many.map((line, k) => line + (k === at ? eol : '\n')).join('');
        expect(parse(text)).toEqual(expected);
      }
    }
    // A lone CR inside a line splits it: here, an anchor line that would otherwise be body text.
    const split = many
      .map((line, k) =>
        k === 2000 ? `${line}\r<!-- agent-section:c -->\r<!-- /agent-section:c -->` : line,
      )
      .join('\n');
    const sectionA = parse(split).parts[0] as KnowledgeSection;
    expect(sectionA.parts).toContainEqual({ id: 'c', parts: [] });
  });
});
