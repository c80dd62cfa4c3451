import { describe, expect, it } from 'vitest';
import {
  buildFileTable,
  cutCodePoints,
  plainInline,
  renderIndexMarkdown,
  summarize,
} from '../../src/agent/files/index.js';
import { catalogOf } from '../helpers/files-catalog.js';

describe('files: titles and descriptions from the text', () => {
  it('takes the first ATX heading and the paragraph after it (English and Chinese)', () => {
    expect(
      summarize(
        'Intro line.\n\n# Renewal *policy* #\n\nRenewals happen **yearly**, see [billing](./b.md).\n\nMore.',
      ),
    ).toEqual({
      title: 'Renewal policy',
      description: 'Renewals happen yearly, see billing.',
    });
    expect(summarize('## 续费 `规则`\n\n续费每年进行一次，\n详见[账单](./b.md)。')).toEqual({
      title: '续费 规则',
      description: '续费每年进行一次， 详见账单。',
    });
  });

  it('ignores headings and paragraphs inside fenced and indented code, and definition-only paragraphs', () => {
    const text =
      '```md\n# Not a title\n\nnot a description\n```\n\n    # indented, code\n\n[ref]: ./x.md\n\n# Real\n\n[ref]: ./y.md\n\nThe *real* one, with ![an image](i.png) and <b>html</b> &amp; an\\*escape.';
    expect(summarize(text)).toEqual({
      title: 'Real',
      description: 'The real one, with an image and html & an*escape.',
    });
  });

  it('uses the first paragraph when there is no heading; nothing when there is none after the heading', () => {
    expect(summarize('Just   a\nparagraph.')).toEqual({
      title: undefined,
      description: 'Just a paragraph.',
    });
    expect(summarize('Before.\n\n# Title')).toEqual({ title: 'Title', description: undefined });
    expect(summarize('')).toEqual({ title: undefined, description: undefined });
  });

  it('cuts descriptions at 200 code points, the last being …, never splitting a surrogate pair', () => {
    const long = '😀'.repeat(250);
    const cut = summarize(`# T\n\n${long}`).description!;
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut.endsWith('😀…')).toBe(true);
    expect(cutCodePoints('😀'.repeat(200), 200)).toBe('😀'.repeat(200));
    expect(cutCodePoints('abc def', 5)).toBe('abc…');
    expect(Array.from(summarize(`# 标题\n\n${'中文'.repeat(150)}`).description!)).toHaveLength(200);
  });

  it('keeps link, image and code text; drops markup', () => {
    expect(
      plainInline('[a *b*](u "t") ![alt](i) `c  d` <span>e</span> <https://x.y> snake_case _em_'),
    ).toBe('a b alt c d e https://x.y snake_case em');
  });

  it('falls back to the document ID; options.files wins', () => {
    const table = buildFileTable(catalogOf({ plain: 'no heading here' }), {});
    expect(table.byId('plain')).toMatchObject({ title: 'plain', description: 'no heading here' });
    const empty = buildFileTable(catalogOf({ e: '' }), {});
    expect(empty.byId('e')).toMatchObject({ title: 'e', description: null });
  });
});

describe('files: index.md', () => {
  it('lists every page under a heading per directory, links percent-encoded per segment, titles escaped (golden)', () => {
    const catalog = catalogOf({
      faq: '# FAQ\n\nAnswers to common questions.',
      setup: '# Setup [beta]\n\nHow to install.',
      renew: '# 续费\n\n续费说明。',
      bare: 'x',
    });
    const table = buildFileTable(catalog, {
      files: {
        setup: { path: 'pages/guides/set up.md' },
        renew: { path: 'pages/账单/续费.md' },
        bare: { description: undefined },
      },
    });
    expect(renderIndexMarkdown(table)).toBe(
      [
        '# Index',
        '',
        'Every page of this knowledge base, by directory. This index is for discovery: read a page before using it as evidence.',
        '',
        '## pages',
        '',
        '- [bare](pages/bare.md) — x',
        '- [FAQ](pages/faq.md) — Answers to common questions.',
        '',
        '## pages/guides',
        '',
        '- [Setup \\[beta\\]](pages/guides/set%20up.md) — How to install.',
        '',
        '## pages/账单',
        '',
        '- [续费](pages/%E8%B4%A6%E5%8D%95/%E7%BB%AD%E8%B4%B9.md) — 续费说明。',
        '',
      ].join('\n'),
    );
    const parens = buildFileTable(catalogOf({ p: '# P' }), {
      files: { p: { path: "pages/a (b)!'*.md" } },
    });
    expect(renderIndexMarkdown(parens)).toContain('- [P](pages/a%20%28b%29%21%27%2A.md)\n');
    const noDescription = buildFileTable(catalogOf({ t: '# Only a title' }), {});
    expect(renderIndexMarkdown(noDescription)).toContain('- [Only a title](pages/t.md)\n');
  });
});
