/**
 * Tiny stand-ins for the file table and relation table, so the search engine can be tested alone:
 * pages from Markdown texts, paths and tags given inline, relationships given as a map.
 */
import { defineKnowledgeCatalog, type KnowledgeCatalog, parseKnowledgeDocument } from '../../../src/index.js';
import type { FileTable, PageRecord, RelationRecord, RelationTable, SearchRequest } from '../../../src/agent/internal/model.js';

/** One test page. */
export interface TestPage {
  readonly id: string;
  readonly text: string;
  readonly title?: string;
  readonly description?: string | null;
  readonly tags?: readonly string[];
  readonly path?: string;
}

/** A catalog, a fake file table (pages only, in path order) and a relation table. */
export interface SearchFixture {
  readonly catalog: KnowledgeCatalog;
  readonly table: FileTable;
  readonly relations: RelationTable;
}

/**
 * Build a fixture.
 *
 * @param pages - the pages.
 * @param links - relationships by file ID (defaults to none).
 */
export function searchFixture(pages: readonly TestPage[], links: Record<string, readonly Partial<RelationRecord>[]> = {}): SearchFixture {
  const catalog = defineKnowledgeCatalog(pages.map((p) => parseKnowledgeDocument({ id: p.id, revision: 'r1', text: p.text })));
  const records: PageRecord[] = pages
    .map((p) => ({
      kind: 'page' as const,
      fileId: p.id,
      path: p.path ?? `pages/${p.id}.md`,
      title: p.title ?? p.id,
      description: p.description ?? null,
      frontmatter: p.tags === undefined ? {} : { tags: [...p.tags] },
      tags: p.tags ?? [],
      revision: 'r1',
      locale: null,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const table: FileTable = {
    activeContentRevision: 'rev',
    pages: records,
    files: records,
    byId: (id) => records.find((r) => r.fileId === id),
    byPath: (path) => records.find((r) => r.path === path),
    directory: () => undefined,
    children: () => undefined,
    closestIds: () => [],
    closestPaths: () => [],
  };
  const relations = new Map(
    Object.entries(links).map(([id, list]) => [
      id,
      list.map((r) => ({ fileId: r.fileId!, relationType: r.relationType ?? 'links_to', direction: r.direction ?? 'outgoing', weight: r.weight ?? 1, reason: r.reason ?? 'test', sectionId: r.sectionId ?? null })),
    ]),
  );
  return { catalog, table, relations };
}

/** A search request with the spec's defaults. */
export function searchRequest(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { query, mode: 'hybrid', graphDepth: 1, graphFanout: 10, rerank: false, signal: undefined, ...extra };
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
    text: ['# 配送说明', '', '我们使用顺丰快递配送，通常两个工作日内送达。偏远地区可能需要更长时间。'].join('\n'),
  },
  {
    id: 'ja-guide',
    title: 'ご利用ガイド',
    text: ['# ご利用ガイド', '', 'アカウントを作成してから、プランを選んでください。カタカナのテストです。'].join('\n'),
  },
];
