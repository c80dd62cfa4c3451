import { describe, expect, it } from 'vitest';
import { headingSlug, scanHeadings } from '../src/markdown/headings.js';

describe('scanHeadings: the headings of a page and their ranges', () => {
  it('finds ATX and setext headings with their depth, ID and range', () => {
    const text = 'Title\n=====\n\nintro\n\n## Install {#setup}\n\nrun it\n\nUsage\n---\n\nuse it\n';
    expect(scanHeadings(text)).toEqual([
      { id: 'title', text: 'Title', depth: 1, start: 0, end: text.length },
      { id: 'setup', text: 'Install', depth: 2, start: 20, end: 49 },
      { id: 'usage', text: 'Usage', depth: 2, start: 49, end: text.length },
    ]);
  });

  it('ends a range at the next heading of the same or a higher level only', () => {
    const text = '# A\n## B\n### C\n## D\n# E\n';
    const ranges = scanHeadings(text).map((h) => [h.id, text.slice(h.start, h.end)]);
    expect(ranges).toEqual([
      ['a', '# A\n## B\n### C\n## D\n'],
      ['b', '## B\n### C\n'],
      ['c', '### C\n'],
      ['d', '## D\n'],
      ['e', '# E\n'],
    ]);
  });

  it('skips headings inside fenced and indented code', () => {
    const text = '```md\n# not a heading\n```\n\n    # nor this\n\n# Real\n';
    expect(scanHeadings(text).map((h) => h.text)).toEqual(['Real']);
  });

  it('reads headings inside block quotes and list items, from their line', () => {
    const text = 'para\n\n> ## Quoted\n\n- # In a list\n';
    expect(scanHeadings(text).map((h) => [h.text, h.depth, h.start])).toEqual([
      ['Quoted', 2, 6],
      ['In a list', 1, 19],
    ]);
  });

  it('makes IDs unique in page order as GitHub does', () => {
    const text = '# Intro\n# Intro\n# Intro-1\n# Intro\n';
    expect(scanHeadings(text).map((h) => h.id)).toEqual([
      'intro',
      'intro-1',
      'intro-1-1',
      'intro-2',
    ]);
  });

  it('takes the explicit ID of each docs-site form, and strips it from the text', () => {
    const text = '# A {#first}\n## B {/*second*/}\n## C { #third .x }\n';
    expect(scanHeadings(text).map((h) => [h.id, h.text])).toEqual([
      ['first', 'A'],
      ['second', 'B'],
      ['third', 'C'],
    ]);
  });

  it('reduces the text with the reader given', () => {
    const text = '# Use **bold** `code`\n';
    expect(scanHeadings(text, (raw) => raw.replace(/[*`]/g, ''))[0]).toMatchObject({
      id: 'use-bold-code',
      text: 'Use bold code',
    });
  });

  it('gives an empty text no headings and a heading of symbols the ID `heading`', () => {
    expect(scanHeadings('')).toEqual([]);
    expect(scanHeadings('just text\n')).toEqual([]);
    expect(scanHeadings('# 🎉\n')[0]!.id).toBe('heading');
  });

  it('reads CRLF and CR line endings', () => {
    expect(scanHeadings('# A\r\nx\r\n## B\r\n').map((h) => [h.id, h.start, h.end])).toEqual([
      ['a', 0, 14],
      ['b', 8, 14],
    ]);
    expect(scanHeadings('# A\rx\r').map((h) => h.end)).toEqual([6]);
  });
});

describe('headingSlug: GitHub-style slugs', () => {
  it.each([
    ['Props & Events: v2.0', 'props--events-v20'],
    ['快速上手 Quick Start', '快速上手-quick-start'],
    ['snake_case-and-dash', 'snake_case-and-dash'],
    ["What's new?", 'whats-new'],
    ['Ünïcode Lëtters', 'ünïcode-lëtters'],
  ])('%j is %j', (text, slug) => {
    expect(headingSlug(text)).toBe(slug);
  });
});
