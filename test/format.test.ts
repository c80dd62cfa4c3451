import { describe, expect, it } from 'vitest';
import {
  formatKnowledgeDocument,
  type KnowledgeDocument,
  parseKnowledgeDocument,
} from '../src/index.js';
import { seedDocument } from './fixtures/seed.js';
import { expectKnowledgeError } from './helpers/knowledgeError.js';

const doc = (parts: unknown[]) => ({ id: 'd', revision: 'r', parts }) as KnowledgeDocument;

describe('formatKnowledgeDocument', () => {
  it('writes sections as anchor lines and separates parts with blank lines', () => {
    expect(formatKnowledgeDocument(seedDocument)).toBe(
      [
        '全局引言。',
        '',
        '<!-- agent-section:delivery -->',
        '本章节自身正文。',
        '',
        '<!-- agent-section:delivery.timing -->',
        '时机说明。',
        '<!-- /agent-section:delivery.timing -->',
        '<!-- /agent-section:delivery -->',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty section as two lines and an empty document as empty text', () => {
    expect(formatKnowledgeDocument(doc([{ id: 'a', parts: [] }]))).toBe(
      '<!-- agent-section:a -->\n<!-- /agent-section:a -->\n',
    );
    expect(formatKnowledgeDocument(doc([]))).toBe('');
  });

  it('round-trips the seed document and text showing anchors inside fences', () => {
    const fenced = '```md\n<!-- agent-section:example -->\n<!-- /agent-section:example -->\n```';
    for (const d of [
      seedDocument,
      doc(['intro', { id: 'a', parts: [fenced, { id: 'b', parts: [] }] }]),
    ]) {
      expect(
        parseKnowledgeDocument({
          id: d.id,
          revision: d.revision,
          ...(d.locale ? { locale: d.locale } : {}),
          text: formatKnowledgeDocument(d),
        }),
      ).toEqual(d);
    }
  });

  it('merges adjacent string parts, which is why round trips hold for parsed form only', () => {
    const text = formatKnowledgeDocument(doc(['one', 'two']));
    expect(parseKnowledgeDocument({ id: 'd', revision: 'r', text }).parts).toEqual(['one\n\ntwo']);
  });

  it('refuses a section ID a text anchor cannot hold', () => {
    const error = expectKnowledgeError(
      () =>
        formatKnowledgeDocument(doc(['x', { id: 'a', parts: [{ id: 'has space', parts: [] }] }])),
      {
        code: 'INVALID_INPUT',
        path: ['parts', 1, 'parts', 0, 'id'],
        sectionId: 'has space',
      },
    );
    expect(error.message).toContain('document.parts[1].parts[0].id');
  });

  it('refuses a string part holding an anchor or near-miss line outside a fence', () => {
    for (const text of [
      'a\n<!-- agent-section:x -->',
      '<!-- /agent-section:x -->',
      'a\n  <!--agent-section:x-->\nb',
    ]) {
      expectKnowledgeError(() => formatKnowledgeDocument(doc([{ id: 's', parts: [text] }])), {
        code: 'INVALID_INPUT',
        path: ['parts', 0, 'parts', 0],
      });
    }
  });

  it('refuses a string part that leaves a fence open', () => {
    const error = expectKnowledgeError(() => formatKnowledgeDocument(doc(['ok', '~~~~\ncode'])), {
      code: 'INVALID_INPUT',
      path: ['parts', 1],
    });
    expect(error.message).toContain('at least 4 tilde characters');
  });

  it('refuses a string part that leaves a raw HTML block open, which would change how the next part parses', () => {
    // Without the check: `<pre>` stays open across the blank line, the next part's fence is not a
    // fence inside it, and its example anchor would become a live section.
    const parts = ['<pre>\nno end', '```\n<!-- agent-section:x -->\n```'];
    const error = expectKnowledgeError(() => formatKnowledgeDocument(doc(parts)), {
      code: 'INVALID_INPUT',
      path: ['parts', 0],
    });
    expect(error.message).toContain('raw HTML block open');
    for (const open of [
      '<!-- a comment',
      '<?php x',
      '<!DOCTYPE x',
      '<![CDATA[ x',
      '<script>',
      '<style>',
      '<textarea>',
    ]) {
      expectKnowledgeError(() => formatKnowledgeDocument(doc([open])), {
        code: 'INVALID_INPUT',
        path: ['parts', 0],
      });
    }
    // Closed blocks, and blocks a blank line ends (kinds 6 and 7), are fine.
    for (const closed of [
      '<pre>\nx\n</pre>',
      '<!-- c -->',
      '<div>\nx',
      '<span>\nx',
      '> <pre>\nquoted',
    ]) {
      const text = formatKnowledgeDocument(doc([closed, 'after']));
      expect(parseKnowledgeDocument({ id: 'd', revision: 'r', text }).parts).toEqual([
        `${closed}\n\nafter`,
      ]);
    }
  });

  it('refuses what the catalog refuses, with paths from the document', () => {
    expectKnowledgeError(
      () =>
        formatKnowledgeDocument(
          doc([
            { id: 'a', parts: [] },
            { id: 'a', parts: [] },
          ]),
        ),
      {
        code: 'DUPLICATE_SECTION_ID',
        path: ['parts', 1, 'id'],
      },
    );
    expectKnowledgeError(() => formatKnowledgeDocument(doc([7])), {
      code: 'INVALID_INPUT',
      path: ['parts', 0],
    });
    expectKnowledgeError(() => formatKnowledgeDocument('text' as never), {
      code: 'INVALID_INPUT',
      path: [],
    });
  });
});
