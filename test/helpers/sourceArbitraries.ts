/** fast-check arbitraries for agent sources: small catalogs of linked, tagged pages in folders. */
import fc from 'fast-check';
import {
  defineKnowledgeCatalog,
  type KnowledgeCatalog,
  parseKnowledgeDocument,
} from '../../src/index.js';
import type { CatalogSourceOptions, KnowledgeFileOptions } from '../../src/agent/index.js';

const WORDS = [
  'renewal',
  'notice',
  'billing',
  'cursor',
  'revision',
  'agent',
  'search',
  '续费',
  '通知',
  '游标',
  '版本',
  '检索',
  'délai',
  'anchor',
];
const TAGS = ['billing', 'renewal', 'agents', 'search', 'faq'];
const FOLDERS = ['', 'guides/', 'guides/deep/', 'faq/'];

export interface GeneratedKnowledge {
  readonly catalog: KnowledgeCatalog;
  readonly options: CatalogSourceOptions;
  readonly ids: readonly string[];
}

const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 9 })
  .map((w) => `${w.join(' ')}.`);

/** A generated knowledge base: 1–12 pages in folders, sections up to depth 2, links between pages, tags. */
export const knowledgeBase: fc.Arbitrary<GeneratedKnowledge> = fc
  .integer({ min: 1, max: 12 })
  .chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(
        fc.record({
          folder: fc.constantFrom(...FOLDERS),
          title: sentence,
          intro: fc.option(sentence, { nil: undefined }),
          sections: fc.array(
            fc.record({ text: sentence, child: fc.option(sentence, { nil: undefined }) }),
            { maxLength: 4 },
          ),
          links: fc.array(fc.record({ to: fc.nat({ max: n - 1 }), section: fc.boolean() }), {
            maxLength: 3,
          }),
          tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
        }),
        { minLength: n, maxLength: n },
      ),
      fc.integer({ min: 1, max: 1000 }),
    ),
  )
  .map(([n, pages, revision]) => {
    const ids = Array.from({ length: n }, (_, i) => `doc-${i}`);
    const path = (i: number) => `pages/${pages[i]!.folder}${ids[i]}.md`;
    const files: Record<string, KnowledgeFileOptions> = {};
    const documents = pages.map((page, i) => {
      const lines = [`# ${page.title}`, ''];
      if (page.intro) lines.push(page.intro, '');
      page.sections.forEach((s, k) => {
        lines.push(`<!-- agent-section:s${k} -->`, s.text);
        if (s.child)
          lines.push(`<!-- agent-section:s${k}.c -->`, s.child, `<!-- /agent-section:s${k}.c -->`);
        lines.push(`<!-- /agent-section:s${k} -->`, '');
      });
      for (const link of page.links)
        lines.push(`See [page ${link.to}](/${path(link.to)}${link.section ? '#s0' : ''}).`, '');
      files[ids[i]!] = { path: path(i), frontmatter: { tags: [...page.tags] } };
      return parseKnowledgeDocument({
        id: ids[i]!,
        revision: `r${revision}-${i}`,
        locale: i % 2 ? 'zh-CN' : 'en',
        text: lines.join('\n'),
      });
    });
    return { catalog: defineKnowledgeCatalog(documents), options: { files, id: 'kb' }, ids };
  });

/** A query made of the generated vocabulary. */
export const query = fc
  .array(fc.constantFrom(...WORDS, 'zebra'), { minLength: 1, maxLength: 4 })
  .map((w) => w.join(' '));
