/**
 * Search results on the docs-site folders of the real corpus (read in place; see its SOURCES.txt):
 * Starlight `.mdx` (English and Chinese), VitePress (English and Chinese), Vue's Chinese docs
 * (VitePress), MkDocs Material, Svelte and Prettier's Docusaurus pages. Every file loads with no
 * error, and for a sample of queries no title, heading or excerpt shows markup outside code: no
 * heading-ID syntax (`{#`, `{ #`, `{/*`), container or admonition marker (`:::`, `!!!`), ESM
 * statement, HTML or JSX tag, or character reference left undecoded; an excerpt starts and ends
 * between words, or says with `…` that it was cut. One load per folder.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { documentChunks } from '../../src/agent/search/catalogCorpus.js';
import { isMdxPath } from '../../src/markdown/pageText.js';
import type { KnowledgeDocument } from '../../src/types.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { CORPUS_URL, DOCS_SITE_FOLDERS } from '../helpers/search-fixtures.js';

const corpus = CORPUS_URL;
const present = existsSync(fileURLToPath(corpus));
const FOLDERS = DOCS_SITE_FOLDERS;

/** Queries sampled from what people ask docs sites, English and Chinese. */
const QUERIES = [
  'install',
  'configuration options',
  'component props',
  'badge',
  'theme customization',
  'search',
  'markdown syntax',
  'deploy',
  'plugin api',
  'code block',
  'sidebar links',
  'html',
  '配置',
  '组件',
  '安装',
];

/** Markup that no title, heading or excerpt may show outside code. */
const MARKUP: readonly (readonly [string, RegExp])[] = [
  // An ID group closes after the ID and attributes (Svelte's `{#if ...}` is text).
  [
    'heading ID',
    /\{\s*#[\w-]+(?:\s+(?:\.[\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s{}]+)))*\s*\}|\{\/\*/,
  ],
  ['container', /:::/],
  ['admonition', /(?:^|\s)(?:!!!|\?\?\?\+?)\s/],
  ['import', /\bimport\s+(?:\{|\*\s+as\s|[\w$]+\s+from\s+['"])/],
  // An HTML or JSX tag as CommonMark reads one (`Array<A | B>` is no tag).
  [
    'tag',
    /<\/?([A-Za-z][\w.-]*)(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/,
  ],
  ['reference', /(?<!\\)&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});/],
];

/**
 * What the pages write that this reading leaves as it is, on purpose: a definition's body
 * (Python-Markdown's definition lists, `:   text` then lines indented by four) is indented code to
 * CommonMark, which is never touched.
 */
const KNOWN: readonly RegExp[] = [/adding-a-git-repository\.md excerpt \(admonition\)/];

/** `.md`, `.mdx` and `.markdown` files under a folder, as the loader picks them. */
async function countPages(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => {
    if (!entry.isFile() || !/\.(?:md|mdx|markdown)$/.test(entry.name)) return false;
    const relative = `${entry.parentPath}/${entry.name}`.slice(dir.length);
    return relative.split('/').every((s) => s !== 'node_modules' && !s.startsWith('.'));
  }).length;
}

/**
 * A chunk's text whitespace-collapsed as excerpts are, with a mask: `true` where a character is in
 * code (a fenced block, a code span on its line), so a match there is the author's code.
 */
function collapsed(text: string): { readonly text: string; readonly code: readonly boolean[] } {
  const out: string[] = [];
  const code: boolean[] = [];
  let fence = '';
  let space = false;
  for (const line of text.split('\n')) {
    const marker = /^\s*(?:[-*+>]\s+|\d+[.)]\s+)*(`{3,}|~{3,})/.exec(line)?.[1];
    let inFence = fence !== '';
    if (fence === '' && marker !== undefined) {
      fence = marker;
      inFence = true;
    } else if (fence !== '' && marker !== undefined && marker[0] === fence[0]) {
      if (marker.length >= fence.length) fence = '';
    }
    let span = 0; // the open code span's backtick run length, or 0
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (/\s/.test(c)) {
        space = out.length > 0;
        continue;
      }
      if (space) {
        out.push(' ');
        code.push(inFence || span > 0);
        space = false;
      }
      let run = 0;
      while (line[i + run] === '`') run++;
      if (run > 0 && !inFence) {
        if (span === 0) span = run;
        else if (span === run) span = -run; // closes after this run
      }
      for (let k = 0; k < Math.max(run, 1); k++) {
        out.push(line[i + k]!);
        code.push(inFence || span !== 0);
      }
      if (span < 0) span = 0;
      i += Math.max(run, 1) - 1;
    }
    space = out.length > 0;
  }
  return { text: out.join(''), code };
}

/** Whether `raw` writes `tag` as text somewhere: inside a code span of its line, escaped, or as `&lt;`. */
function writtenAsText(raw: string, tag: string, name: string): boolean {
  if (raw.includes(`&lt;${name}`) || raw.includes(`&lt;/${name}`)) return true;
  for (let at = raw.indexOf(tag); at >= 0; at = raw.indexOf(tag, at + 1)) {
    const lineStart = raw.lastIndexOf('\n', at) + 1;
    const before = raw.slice(lineStart, at);
    if ((before.match(/`/g)?.length ?? 0) % 2 === 1 || before.endsWith('\\')) return true;
  }
  return false;
}

describe.skipIf(!present)('titles, headings and excerpts of search results on docs sites', () => {
  it.each(FOLDERS)(
    '%s: every file loads; no result shows markup outside code or is cut without saying so',
    async (name) => {
      const folder = new URL(`${name}/`, corpus);
      const loaded = await loadKnowledgeDirectory(folder);
      expect(loaded.documents.length).toBe(await countPages(fileURLToPath(folder)));
      const source = createCatalogSource(loaded.catalog, { files: loaded.files });
      const found: string[] = [];
      const chunksOf = new Map<string, ReturnType<typeof collapsed>[]>();
      /** A page's text as written: its text parts, sections included, in order. */
      const rawOf = (id: string): string => {
        const out: string[] = [];
        const walk = (parts: KnowledgeDocument['parts']): void => {
          for (const part of parts)
            if (typeof part === 'string') out.push(part);
            else walk(part.parts);
        };
        walk(loaded.catalog.document(id).parts);
        return out.join('\n\n');
      };
      for (const query of QUERIES) {
        const result = await source.searchFiles({ query, limit: 20 });
        for (const item of result.items) {
          const raw = rawOf(item.fileId);
          for (const [field, shown] of [
            ['title', item.title],
            ['heading', item.heading?.text ?? ''],
          ] as const) {
            for (const [mark, pattern] of MARKUP) {
              const m = pattern.exec(shown);
              if (m !== null && !(mark === 'tag' && writtenAsText(raw, m[0], m[1]!)))
                found.push(`${item.path} ${field} (${mark}) ${JSON.stringify(shown)}`);
            }
          }
          let chunks = chunksOf.get(item.fileId);
          if (chunks === undefined) {
            const document = loaded.catalog.document(item.fileId);
            chunks = documentChunks(document, isMdxPath(item.path)).map((c) => collapsed(c.text));
            chunksOf.set(item.fileId, chunks);
          }
          const excerpt = item.sourceExcerpt;
          if (excerpt === '') continue;
          const head = excerpt.startsWith('…');
          const tail = excerpt.endsWith('…') && excerpt.length > 1;
          const body = excerpt.slice(head ? 1 : 0, tail ? -1 : undefined);
          const chunk = chunks.find((c) => c.text.includes(body));
          if (chunk === undefined) {
            found.push(`${item.path} excerpt not in the page's text ${JSON.stringify(excerpt)}`);
            continue;
          }
          const at = chunk.text.indexOf(body);
          // A start or end inside a word says so with `…`.
          const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
          if (!head && wordChar(chunk.text[at - 1]) && wordChar(body[0]))
            found.push(`${item.path} excerpt starts inside a word ${JSON.stringify(excerpt)}`);
          if (!tail && wordChar(chunk.text[at + body.length]) && wordChar(body.at(-1)))
            found.push(`${item.path} excerpt ends inside a word ${JSON.stringify(excerpt)}`);
          for (const [mark, pattern] of MARKUP) {
            const global = new RegExp(pattern.source, 'g');
            for (const m of body.matchAll(global)) {
              if (chunk.code[at + m.index]) continue;
              // A tag written as text: as a reference, or escaped with a backslash (`\<script setup>`).
              if (mark === 'tag' && (raw.includes(`&lt;${m[1]}`) || body[m.index - 1] === '\\'))
                continue;
              found.push(`${item.path} excerpt (${mark}) ${JSON.stringify(m[0])} in ${excerpt}`);
            }
          }
        }
      }
      expect(found.filter((line) => !KNOWN.some((known) => known.test(line)))).toEqual([]);
    },
    60_000,
  );
});

if (!present) it.skip('the Markdown corpus is absent', () => {});
