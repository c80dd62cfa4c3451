import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKnowledgeDocument } from '../src/index.js';
import { loadKnowledgeDirectory } from '../src/node/index.js';
import { expectKnowledgeError } from './helpers/knowledgeError.js';

const lines = (...l: string[]) => l.join('\n');
const parseMdx = (text: string) =>
  parseKnowledgeDocument({ id: 'guide', revision: 'r1', text }, { mdx: true });
const parseMd = (text: string) => parseKnowledgeDocument({ id: 'guide', revision: 'r1', text });

describe('MDX comment anchors', () => {
  it('in MDX, {/* agent-section:ID */} … {/* /agent-section:ID */} is an anchor pair', () => {
    const doc = parseMdx(
      lines('Intro.', '{/* agent-section:a */}', 'Body.', '{/* /agent-section:a */}', 'End.'),
    );
    expect(doc.parts).toEqual(['Intro.', { id: 'a', parts: ['Body.'] }, 'End.']);
  });

  it('in MDX, both forms pair with each other, and nest', () => {
    const doc = parseMdx(
      lines(
        '<!-- agent-section:a -->',
        '{/* agent-section:b */}',
        'B.',
        '<!-- /agent-section:b -->',
        '{/* /agent-section:a */}',
      ),
    );
    expect(doc.parts).toEqual([{ id: 'a', parts: [{ id: 'b', parts: ['B.'] }] }]);
  });

  it('in Markdown (.md), the MDX form is body text', () => {
    const text = lines('{/* agent-section:a */}', 'Body.', '{/* /agent-section:a */}');
    expect(parseMd(text).parts).toEqual([text]);
  });

  it('inside fenced code, the MDX form is body text', () => {
    const text = lines('```mdx', '{/* agent-section:a */}', '```');
    expect(parseMdx(text).parts).toEqual([text]);
  });

  it('MALFORMED_ANCHOR at a near miss of the MDX form: spacing, keyword, ID, indentation', () => {
    const spacing = expectKnowledgeError(
      () => parseMdx(lines('Intro.', '{/*agent-section:a*/}', 'x', '{/* /agent-section:a */}')),
      { code: 'MALFORMED_ANCHOR', line: 2, column: 1, sectionId: 'a' },
    );
    expect(spacing.message).toContain('write exactly `{/* agent-section:a */}`');
    expect(spacing.message).toContain('one space after `{/*`');
    const keyword = expectKnowledgeError(
      () => parseMdx(lines('{/* agent-secton:a */}', 'x', '{/* /agent-section:a */}')),
      { code: 'MALFORMED_ANCHOR', line: 1, column: 1, sectionId: 'a' },
    );
    expect(keyword.message).toContain('its keyword `agent-secton` is not `agent-section`');
    const id = expectKnowledgeError(() => parseMdx('{/* agent-section:día */}\n'), {
      code: 'MALFORMED_ANCHOR',
      line: 1,
      column: 1,
    });
    expect(id.message).toContain('`{/* agent-section:dia */}`');
    expectKnowledgeError(() => parseMdx('Text\n  {/* /agent-section:a */}\n'), {
      code: 'MALFORMED_ANCHOR',
      line: 2,
      column: 3,
    });
  });

  it('UNCLOSED_SECTION and UNEXPECTED_CLOSE at MDX anchors, with their places', () => {
    const unclosed = expectKnowledgeError(
      () => parseMdx(lines('intro', '{/* agent-section:a */}', 'text')),
      { code: 'UNCLOSED_SECTION', line: 2, column: 1, sectionId: 'a' },
    );
    // The fix is written in the form an MDX page can hold.
    expect(unclosed.message).toContain('Add `{/* /agent-section:a */}`');
    const markdown = expectKnowledgeError(
      () => parseMd(lines('intro', '<!-- agent-section:a -->', 'text')),
      { code: 'UNCLOSED_SECTION', line: 2 },
    );
    expect(markdown.message).toContain('Add `<!-- /agent-section:a -->`');
    expectKnowledgeError(() => parseMdx(lines('text', '{/* /agent-section:b */}')), {
      code: 'UNEXPECTED_CLOSE',
      line: 2,
      column: 1,
      sectionId: 'b',
    });
  });

  it('the folder loader reads the MDX form in .mdx files only, and reports its near misses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kk-mdx-anchors-'));
    try {
      const anchored = lines(
        '# A',
        '',
        '{/* agent-section:a */}',
        'Body.',
        '{/* /agent-section:a */}',
      );
      await writeFile(join(dir, 'a.mdx'), anchored);
      await writeFile(join(dir, 'b.md'), anchored);
      const loaded = await loadKnowledgeDirectory(dir);
      expect(loaded.catalog.document('a').parts).toEqual(['# A', { id: 'a', parts: ['Body.'] }]);
      expect(loaded.catalog.document('b').parts).toEqual([anchored]);
      await writeFile(join(dir, 'c.mdx'), lines('{/* agent-section:c*/}', 'x'));
      const error = await loadKnowledgeDirectory(dir).catch((e: unknown) => e);
      expect(error).toMatchObject({
        issues: [expect.objectContaining({ code: 'MALFORMED_ANCHOR', file: 'c.mdx', line: 1 })],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
