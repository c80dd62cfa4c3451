import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { documentChunks, firstText } from '../../src/agent/search/catalogCorpus.js';
import { isMdxPath, readsAsMdx } from '../../src/markdown/pageText.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { CORPUS_URL, DOCS_SITE_FOLDERS } from '../helpers/search-fixtures.js';

/**
 * The docs-site folders of the real corpus (see its SOURCES.txt): Starlight `.mdx` (English and
 * Chinese), VitePress (English and Chinese), MkDocs Material, Svelte, Prettier's Docusaurus pages and
 * Vue's Chinese docs (VitePress). Each loads with no problem, and no title, description or search
 * excerpt keeps dialect syntax.
 */
const corpus = CORPUS_URL;
const present = existsSync(fileURLToPath(corpus));
const FOLDERS = DOCS_SITE_FOLDERS;

/**
 * Dialect syntax that no title, description or searched line may hold: a heading ID group
 * (`{#id}`, `{ #id .class }`; Svelte's `{#if ...}` is text), a comment (`{/*`, in MDX), container
 * and admonition markers, and in MDX an `import ` statement at a line's start.
 */
const DIALECT: readonly (readonly [string, RegExp])[] = [
  ['{#', /\{\s*#[\w-]+(?:\s+(?:\.[\w-]+|[\w-]+=[^\s{}]+))*\s*\}\s*$/],
  ['{/*', /\{\/\*/],
  [':::', /^\s*:::/],
  ['!!!', /^\s*(?::\s+)?(?:!!!|\?\?\?)\+?\s/],
];
const ESM = /^\s*import\s/;
/** A JSX component tag (an upper-case name): `<Tabs`, `</Card>`. */
const JSX_TAG = /<\/?[A-Z][A-Za-z0-9.]*[\s/>]/;

/** The dialect syntax `text` holds outside code spans, or `undefined`; JSX and ESM only in MDX. */
function dialectIn(shown: string, mdx: boolean): string | undefined {
  const text = shown.replace(/`+[^`]*`+/g, '');
  for (const [mark, pattern] of DIALECT) if (pattern.test(text)) return mark;
  if (!mdx) return undefined;
  return ESM.test(text) ? 'import ' : JSX_TAG.exec(text)?.[0];
}

/** The lines of a chunk's text outside fenced code (```` ``` ```` and `~~~` fences, any indentation). */
function linesOutsideFences(text: string): string[] {
  const kept: string[] = [];
  let fence = '';
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === '') {
      if (marker !== undefined) fence = marker;
      else kept.push(line);
    } else if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
      fence = '';
  }
  return kept;
}

/**
 * What the pages write that this reading leaves as it is, on purpose:
 * - A definition's body (Python-Markdown's definition lists, `:   text` then lines indented by
 *   four): CommonMark reads the indented lines as indented code, which is never touched.
 */
const KNOWN: readonly RegExp[] = [
  /adding-a-git-repository\.md text "    !!! note/,
  // - A type written with character references around links (`Array&lt;<a …>SidebarLink</a> |
  //   …&gt;`): its text is `Array<SidebarLink | SidebarGroup>`, as a browser shows it.
  /route-data\.mdx text ".*Array<SidebarLink \| SidebarGroup>"/,
];

/** Queries whose results' titles are checked too. */
const QUERIES = ['import component', 'tip', 'note warning', 'title', 'props', 'install'];

describe.skipIf(!present)('docs-site folders of the real corpus', () => {
  it.each(FOLDERS)(
    '%s: loads with 0 problems; titles, descriptions and excerpts hold no dialect syntax',
    async (name) => {
      const loaded = await loadKnowledgeDirectory(new URL(`${name}/`, corpus));
      expect(loaded.documents.length).toBeGreaterThan(0);
      const source = createCatalogSource(loaded.catalog, { files: loaded.files });
      const found: string[] = [];
      const mdxOf = new Map<string, boolean>();
      for (const id of loaded.catalog.ids) {
        const file = await source.getFile({ fileId: id });
        const document = loaded.catalog.document(id);
        const mdx = readsAsMdx(isMdxPath(file.path), firstText(document));
        mdxOf.set(id, mdx);
        const title = dialectIn(file.title, mdx);
        if (title !== undefined) found.push(`${file.path} title ${JSON.stringify(file.title)}`);
        const description =
          file.description === null ? undefined : dialectIn(file.description, mdx);
        if (description !== undefined)
          found.push(`${file.path} description ${JSON.stringify(file.description)}`);
        // The searched text (whence every excerpt), outside fenced code.
        for (const chunk of documentChunks(document, isMdxPath(file.path))) {
          for (const line of linesOutsideFences(chunk.text)) {
            const mark = dialectIn(line, mdx);
            if (mark !== undefined) found.push(`${file.path} text ${JSON.stringify(line)}`);
          }
        }
      }
      for (const query of QUERIES) {
        const result = await source.searchFiles({ query, limit: 50 });
        for (const item of result.items) {
          const mark = dialectIn(item.title, mdxOf.get(item.fileId) ?? false);
          if (mark !== undefined) found.push(`${item.path} title ${JSON.stringify(item.title)}`);
        }
      }
      expect(found.filter((line) => !KNOWN.some((known) => known.test(line)))).toEqual([]);
    },
    60_000,
  );

  it('Starlight .mdx pages take their titles from front matter, not their headings', async () => {
    const loaded = await loadKnowledgeDirectory(new URL('withastro+starlight/', corpus));
    const source = createCatalogSource(loaded.catalog, { files: loaded.files });
    const file = await source.getFile({ fileId: 'docs/src/content/docs/components/tabs' });
    expect(file.path).toBe('pages/docs/src/content/docs/components/tabs.mdx');
    expect(file.title).toBe('Tabs');
    const search = await source.searchFiles({ query: 'tabbed interface', limit: 3 });
    const tabs = search.items.find((item) => item.fileId === file.fileId);
    expect(tabs?.sourceExcerpt).toContain('To create a tabbed interface use the `<Tabs>`');
  });
});

if (!present) it.skip('the Markdown corpus is absent', () => {});
