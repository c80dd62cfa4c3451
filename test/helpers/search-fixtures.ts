/**
 * Search test fixtures: pages from Markdown texts with paths, titles and tags given inline, through the
 * real file table (`buildFileTable`); relationships from the real link scanner (`buildRelations`), or
 * given as a map when a test needs exact ones.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KnowledgeFileOptions } from '../../src/agent/types.js';
import {
  defineKnowledgeCatalog,
  type KnowledgeCatalog,
  parseKnowledgeDocument,
} from '../../src/index.js';
import { buildFileTable } from '../../src/agent/files/index.js';
import type { FileTable, RelationRecord, RelationTable } from '../../src/agent/model.js';
import { buildRelations } from '../../src/agent/relations/index.js';
import {
  createMemoryRanker,
  BM25F_DEFAULTS,
  type Ranker,
  type RankerSettings,
  type RankRequest,
  type SearchCorpus,
  searchCorpus,
} from '../../src/agent/search/index.js';

/** One test page. */
export interface TestPage {
  readonly id: string;
  readonly text: string;
  readonly title?: string;
  readonly description?: string | null;
  readonly tags?: readonly string[];
  readonly path?: string;
}

/** A catalog, its file table and a relation table. */
export interface SearchFixture {
  readonly catalog: KnowledgeCatalog;
  readonly table: FileTable;
  readonly relations: RelationTable;
}

/**
 * Build a fixture.
 *
 * @param pages - the pages.
 * @param links - exact relationships by file ID; default: those the pages' links and tags make.
 */
export function searchFixture(
  pages: readonly TestPage[],
  links?: Record<string, readonly Partial<RelationRecord>[]>,
): SearchFixture {
  const catalog = catalogOf(pages);
  const files = filesOf(pages);
  const table = buildFileTable(catalog, { files });
  if (links === undefined) return { catalog, table, relations: buildRelations(catalog, table) };
  const relations = new Map(
    Object.entries(links).map(([id, list]) => [
      id,
      list.map((r) => ({
        fileId: r.fileId!,
        relationType: r.relationType ?? 'links_to',
        direction: r.direction ?? 'outgoing',
        weight: r.weight ?? 1,
        reason: r.reason ?? 'test',
        sectionId: r.sectionId ?? null,
      })),
    ]),
  );
  return { catalog, table, relations };
}

/** The catalog of test pages (revision `r1`). */
export function catalogOf(pages: readonly TestPage[]): KnowledgeCatalog {
  return defineKnowledgeCatalog(
    pages.map((p) => parseKnowledgeDocument({ id: p.id, revision: 'r1', text: p.text })),
  );
}

/** The `files` option of a source over test pages: their paths, titles, descriptions and tags. */
export function filesOf(pages: readonly TestPage[]): Record<string, KnowledgeFileOptions> {
  return Object.fromEntries(
    pages.map((p) => [
      p.id,
      {
        ...(p.path === undefined ? {} : { path: p.path }),
        ...(p.title === undefined ? {} : { title: p.title }),
        ...(p.description === undefined || p.description === null
          ? {}
          : { description: p.description }),
        ...(p.tags === undefined ? {} : { frontmatter: { tags: [...p.tags] } }),
      },
    ]),
  );
}

/** The real corpus's folder, as a URL (`new URL(folder + '/', CORPUS_URL)`). */
export const CORPUS_URL = new URL('../../../shared/corpus/markdown/', import.meta.url);

/** The real Markdown corpus beside the repository, as a path. */
export const CORPUS_ROOT = fileURLToPath(CORPUS_URL);

/**
 * The docs-site folders of the corpus: Starlight `.mdx` (English and Chinese), VitePress (English and
 * Chinese), Vue's Chinese docs (VitePress), MkDocs Material, Svelte and Prettier's Docusaurus pages.
 */
export const DOCS_SITE_FOLDERS = [
  'withastro+starlight',
  'vuejs+vitepress',
  'vuejs-translations+docs-zh-cn',
  'squidfunk+mkdocs-material',
  'sveltejs+svelte',
  'prettier+prettier',
] as const;

/** Whether the corpus has `folder`. */
export const hasCorpusFolder = (folder: string): boolean =>
  existsSync(path.join(CORPUS_ROOT, folder));

/**
 * Up to `max` Markdown pages of one corpus folder, in path order, as test pages (`p0`, `p1`, … under
 * `pages/`), read in place.
 */
export function corpusTestPages(folder: string, max: number): TestPage[] {
  const root = path.join(CORPUS_ROOT, folder);
  const files: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(full);
      else if (e.name.endsWith('.md') || e.name.endsWith('.mdx')) files.push(full);
    }
  }
  return files
    .sort()
    .slice(0, max)
    .map((file, i) => ({
      id: `p${i}`,
      path: `pages/${path.relative(root, file).split(path.sep).join('/')}`,
      text: readFileSync(file, 'utf8'),
    }));
}

/** Fixed questions for the real corpus folders: English, Chinese, mixed, identifiers. */
export const REAL_QUERIES: readonly string[] = [
  'how do I handle errors with Result',
  'ownership and borrowing rules',
  'v-if 和 v-show 有什么区别',
  'computed vs watch 的区别',
  '组件',
  'std::fs::read_to_string',
  // A heading of several words, named whole (its key holds spaces, and is not a pair's).
  'Storing Keys with Associated Values in Hash Maps',
  '侦听器',
  // A heading named with a word on most pages left out (`vue`, `starlight`).
  'vue 侦听器',
  'starlight Sidebar',
];

/**
 * Queries made of a window of one page's own words (as questions and passages are), each with a
 * search mode.
 *
 * @param texts - the pages' texts.
 */
export function windowQueries(
  texts: readonly string[],
): fc.Arbitrary<{ readonly query: string; readonly mode: 'hybrid' | 'file' | 'graph' }> {
  return fc
    .tuple(
      fc.nat({ max: texts.length - 1 }),
      fc.nat(),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom('hybrid' as const, 'file' as const, 'graph' as const),
    )
    .map(([page, at, length, mode]) => {
      const text = texts[page]!;
      const start = text.length === 0 ? 0 : at % text.length;
      const query = text.slice(start, start + length * 6).trim() || 'x';
      return { query: query.slice(0, 2000), mode };
    });
}

/** The corpus a catalog source would give its engine over this fixture. */
export function corpusOf(fixture: SearchFixture): SearchCorpus {
  return searchCorpus(fixture.catalog, fixture.table, fixture.relations);
}

/**
 * The in-memory ranker (every candidate, unpaged) over a fixture, with settings taken as given (no
 * option checks, so a property can try an excerpt size below the public minimum).
 */
export function rankerOf(fixture: SearchFixture, settings: Partial<RankerSettings> = {}): Ranker {
  return createMemoryRanker(corpusOf(fixture), { ...BM25F_DEFAULTS, ...settings });
}

/** A search request with the spec's defaults. */
export function searchRequest(query: string, extra: Partial<RankRequest> = {}): RankRequest {
  return {
    query,
    mode: 'hybrid',
    graphDepth: 1,
    graphFanout: 10,
    rerank: false,
    signal: undefined,
    ...extra,
  };
}

/** A small English and Chinese knowledge base with sections, tags and links. */
export const SAMPLE_PAGES: readonly TestPage[] = [
  {
    id: 'billing',
    title: 'Billing and renewals',
    description: 'How invoices and renewal notices work.',
    tags: ['billing', 'renewal'],
    text: [
      '# Billing and renewals',
      '',
      'Invoices are issued on the first working day of each month.',
      '',
      '<!-- agent-section:notices -->',
      '## Renewal notices',
      '',
      'Renewal notices are sent thirty days before the subscription ends, by email to the account owner.',
      '<!-- /agent-section:notices -->',
      '',
      '<!-- agent-section:refunds -->',
      '## Refunds',
      '',
      'Refunds are paid back to the original card within ten days.',
      '<!-- /agent-section:refunds -->',
    ].join('\n'),
  },
  {
    id: 'delivery',
    title: 'Delivery',
    tags: ['shipping'],
    text: [
      '# Delivery',
      '',
      '<!-- agent-section:timing -->',
      'Orders ship within two working days. Parcels travel by courier.',
      '<!-- /agent-section:timing -->',
    ].join('\n'),
  },
  {
    id: 'zh-returns',
    title: '退货政策',
    tags: ['售后'],
    text: [
      '# 退货政策',
      '',
      '<!-- agent-section:period -->',
      '自签收之日起三十天内，商品可以无理由退货。退款将原路返回到您的支付账户。',
      '<!-- /agent-section:period -->',
      '',
      '<!-- agent-section:process -->',
      '请在订单页面点击申请退货，然后等待客服审核。',
      '<!-- /agent-section:process -->',
    ].join('\n'),
  },
  {
    id: 'zh-shipping',
    title: '配送说明',
    tags: ['配送'],
    text: [
      '# 配送说明',
      '',
      '我们使用顺丰快递配送，通常两个工作日内送达。偏远地区可能需要更长时间。',
    ].join('\n'),
  },
  {
    id: 'ja-guide',
    title: 'ご利用ガイド',
    text: [
      '# ご利用ガイド',
      '',
      'アカウントを作成してから、プランを選んでください。カタカナのテストです。',
    ].join('\n'),
  },
];
