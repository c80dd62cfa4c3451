import { describe, expect, it } from 'vitest';
import { formatKnowledgeDocument, type KnowledgeDocument, parseKnowledgeDocument } from '../src/index.js';
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
    expect(formatKnowledgeDocument(doc([{ id: 'a', parts: [] }]))).toBe('<!-- agent-section:a -->\n<!-- /agent-section:a -->\n');
    expect(formatKnowledgeDocument(doc([]))).toBe('');
  });

  it('round-trips the seed document and text showing anchors inside fences', () => {
    const fenced = '```md\n<!-- agent-section:example -->\n<!-- /agent-section:example -->\n```';
    for (const d of [seedDocument, doc(['intro', { id: 'a', parts: [fenced, { id: 'b', parts: [] }] }])]) {
      expect(parseKnowledgeDocument({ id: d.id, revision: d.revision, ...(d.locale ? { locale: d.locale } : {}), text: formatKnowledgeDocument(d) })).toEqual(d);
    }
  });

  it('merges adjacent string parts, which is why round trips hold for parsed form only', () => {
    const text = formatKnowledgeDocument(doc(['one', 'two']));
    expect(parseKnowledgeDocument({ id: 'd', revision: 'r', text }).parts).toEqual(['one\n\ntwo']);
  });

  it('refuses a section ID a text anchor cannot hold', () => {
    const error = expectKnowledgeError(() => formatKnowledgeDocument(doc(['x', { id: 'a', parts: [{ id: 'has space', parts: [] }] }])), {
      code: 'INVALID_INPUT',
      path: ['parts', 1, 'parts', 0, 'id'],
      sectionId: 'has space',
    });
    expect(error.message).toContain('document.parts[1].parts[0].id');
  });

  it('refuses a string part holding an anchor or near-miss line outside a fence', () => {
    for (const text of ['a\n<!-- agent-section:x -->', '<!-- /agent-section:x -->', 'a\n  <!--agent-section:x-->\nb']) {
      expectKnowledgeError(() => formatKnowledgeDocument(doc([{ id: 's', parts: [text] }])), {
        code: 'INVALID_INPUT',
        path: ['parts', 0, 'parts', 0],
      });
    }
  });

  it('refuses a string part that leaves a fence open', () => {
    const error = expectKnowledgeError(() => formatKnowledgeDocument(doc(['ok', '~~~~\ncode'])), { code: 'INVALID_INPUT', path: ['parts', 1] });
    expect(error.message).toContain('at least 4 tilde characters');
  });

  it('refuses what the catalog refuses, with paths from the document', () => {
    expectKnowledgeError(() => formatKnowledgeDocument(doc([{ id: 'a', parts: [] }, { id: 'a', parts: [] }])), {
      code: 'DUPLICATE_SECTION_ID',
      path: ['parts', 1, 'id'],
    });
    expectKnowledgeError(() => formatKnowledgeDocument(doc([7])), { code: 'INVALID_INPUT', path: ['parts', 0] });
    expectKnowledgeError(() => formatKnowledgeDocument('text' as never), { code: 'INVALID_INPUT', path: [] });
  });
});
