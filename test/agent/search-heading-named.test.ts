/**
 * Which heading a search item names, and where its excerpt is cut from: the query's words naming a
 * heading take the item there; an `.mdx` page's headings are placed on the text search reads (JSX
 * removed); inline HTML and character references never show; a cut inside a long word moves to the
 * next word boundary.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { headingNamed } from '../../src/agent/search/chunkHeadings.js';
import { makeExcerpt } from '../../src/agent/search/makeExcerpt.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';

const GUIDE = `# Guide

An intro that mentions custom anchors before their own part, and other widgets.

## Custom anchors

To specify an anchor, add a suffix to the heading.

## Badges <Badge type="info" text="new" />

Badges show state &amp; more with <kbd>Ctrl</kbd>, said the quasar.
`;

// No import at its top: read as MDX for its path alone.
const NOTES = `---
title: Notes
---

Some intro <Aside type="tip">with an aside</Aside> here and more words to shift places.

## Wombat section

The wombat lives here.
`;

let dir: string;
let source: KnowledgeSource;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kk-heading-named-'));
  await writeFile(join(dir, 'guide.md'), GUIDE);
  await writeFile(join(dir, 'notes.mdx'), NOTES);
  const loaded = await loadKnowledgeDirectory(dir);
  source = createCatalogSource(loaded.catalog, { files: loaded.files });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('headingNamed', () => {
  const h = (id: string, text: string) => ({ id, text, from: 0, to: 10 });
  const headings = [
    h('guide', 'Guide'),
    h('custom-anchors', 'Custom anchors'),
    h('props', 'Props'),
  ];

  it('names the heading whose words are the query’s, or nearly (Jaccard of at least 2/3)', () => {
    expect(headingNamed(headings, ['custom', 'anchors'])?.id).toBe('custom-anchors');
    expect(headingNamed(headings, ['anchors', 'custom', 'vitepress'])?.id).toBe('custom-anchors');
    expect(headingNamed(headings, ['props'])?.id).toBe('props');
  });

  it('names none when the words are too unlike, or only function words', () => {
    expect(headingNamed(headings, ['props', 'tabs'])).toBeNull();
    expect(headingNamed(headings, ['custom'])).toBeNull();
    expect(headingNamed([h('the', 'The')], ['the'])).toBeNull();
    expect(headingNamed([], ['props'])).toBeNull();
  });
});

describe('search items on a page', () => {
  it('a query naming a heading names it, and the excerpt starts at it', async () => {
    const { items } = await source.searchFiles({ query: 'custom anchors' });
    const item = items.find((i) => i.fileId === 'guide')!;
    expect(item.heading).toEqual({ id: 'custom-anchors', text: 'Custom anchors' });
    expect(item.sourceExcerpt.startsWith('## Custom anchors To specify')).toBe(true);
  });

  it('otherwise the heading holding the match; inline HTML gone, references decoded', async () => {
    const { items } = await source.searchFiles({ query: 'quasar state' });
    const item = items.find((i) => i.fileId === 'guide')!;
    expect(item.heading).toEqual({ id: 'badges', text: 'Badges' });
    expect(item.sourceExcerpt).toBe(
      '## Badges Badges show state & more with Ctrl, said the quasar.',
    );
  });

  it('an .mdx page without an import: headings placed on the text with JSX removed', async () => {
    const { items } = await source.searchFiles({ query: 'wombat' });
    const item = items.find((i) => i.fileId === 'notes')!;
    expect(item.heading).toEqual({ id: 'wombat-section', text: 'Wombat section' });
    expect(item.sourceExcerpt).toBe('## Wombat section The wombat lives here.');
  });
});

describe('makeExcerpt cuts between words', () => {
  it('a start inside a long URL moves to the next word; an end inside a long word moves back', () => {
    const text = `Read https://example.com/a/very/long/path/to/a/page.html then the zebra term here and ${'x'.repeat(60)} end`;
    const at = text.indexOf('zebra');
    expect(makeExcerpt(text, at, at + 5, 48).startsWith('…then the zebra term')).toBe(true);
    // The cut falls 20 characters into a 40-character word: it moves back before the word.
    const prose = `zebra ${'word '.repeat(12)}last `;
    const long = `${prose}${'y'.repeat(40)} more`;
    expect(makeExcerpt(long, 0, 5, prose.length + 20)).toBe(`${prose.trimEnd()}…`);
    // CJK text has no spaces: any place between two characters is a boundary, as before.
    const zh = `${'文'.repeat(30)}斑马${'字'.repeat(60)}`;
    const cut = makeExcerpt(zh, 30, 32, 20);
    expect(cut.startsWith('…文')).toBe(true);
    expect(cut.endsWith('字…')).toBe(true);
  });
});
