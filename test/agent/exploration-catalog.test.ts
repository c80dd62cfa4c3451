/**
 * Exploration over the real catalog source on the bundled example knowledge (Chinese and English
 * pages, links, tags): the rules hold with real search results, evidence is what the source read, and
 * every exploration tool result validates against its output schema.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { explorationTools, startExploration } from '../../src/agent/exploration/index.js';
import type { KnowledgeToolDefinition } from '../../src/agent/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';

const source = createCatalogSource(exampleCatalog(), exampleSourceOptions());

describe('exploration over the example catalog', () => {
  it('a Chinese question: first search, reads, a follow-up after a new page, evidence from pages only', async () => {
    const session = startExploration(source, {
      question: '智能体的探索流程什么时候停止？',
      maxFollowUps: 1,
      maxReads: 4,
    });
    await expect(session.read({ path: 'index.md' })).rejects.toMatchObject({
      code: 'EXPLORATION_LIMIT',
    });
    const first = await session.search();
    expect(first.searchStatus).toBe('ok');
    expect(first.items[0]!.fileId).toBe('exploration');
    await expect(session.search('停止条件')).rejects.toMatchObject({
      code: 'EXPLORATION_LIMIT',
      details: { rule: 'new_page_before_follow_up' },
    });

    const index = await session.read({ path: 'index.md' });
    expect(index.file.snapshotId).toBeNull();
    const page = await session.read({ fileId: 'exploration' });
    expect(page.repeated).toBe(false);
    expect((await session.read({ path: 'pages/agents/exploration.md' })).repeated).toBe(true);
    expect(page).toEqual({
      ...(await source.readFile({ fileId: 'exploration' })),
      repeated: false,
    });

    const followUp = await session.search('探索 停止 来源');
    expect(followUp.items.map((item) => item.fileId)).toContain('exploration');
    expect(session.status).toMatchObject({
      searchesUsed: 2,
      followUpsLeft: 0,
      readsUsed: 2,
      readsLeft: 2,
      stopReason: 'budget_exhausted',
    });

    const evidence = session.evidence();
    expect(evidence.map((e) => [e.fileId, e.path])).toEqual([
      ['exploration', 'pages/agents/exploration.md'],
    ]);
    expect(evidence[0]!.snapshotId).toBe(page.file.snapshotId);
    expect(evidence[0]!.content).toBe(page.content);
  });

  it('a section read and the graph files: sections are their own evidence, graph files never are', async () => {
    const session = startExploration(source, {
      question: 'How does search treat an empty result?',
    });
    const found = await session.search();
    const hit = found.items.find((item) => item.fileId === 'agent-tools');
    expect(hit).toBeDefined();
    const related = await session.readRelated({ fileId: 'agent-tools' });
    expect(related.items.length).toBeGreaterThan(0);
    const graph = await session.expandGraph({ fileId: 'agent-tools' });
    await session.read({ path: graph.graphPaths[0]! });
    await session.read({ fileId: 'agent-tools' }, { sectionIds: ['search.empty'] });
    await session.read(
      { fileId: 'agent-tools' },
      { sectionIds: ['search.empty'], mode: 'subtree' },
    );
    expect(session.status.readsUsed).toBe(2);
    expect(session.evidence().map((e) => [e.fileId, e.selection])).toEqual([
      ['agent-tools', { mode: 'subtree', sectionIds: ['search.empty'] }],
    ]);
  });

  it('the exploration tools on the real source: every result validates against its output schema', async () => {
    const session = startExploration(source, {
      question: 'How are cursors bound to the knowledge base revision?',
    });
    const tools = Object.fromEntries(
      explorationTools(session, { prefix: 'kb_' }).map((tool) => [tool.name, tool]),
    ) as Record<string, KnowledgeToolDefinition>;
    const ajv = strictAjv();
    const call = async (name: string, input: unknown) => {
      const tool = tools[`kb_${name}`]!;
      const result = await tool.execute(input);
      if (result.isError) return result.structuredContent;
      expect(schemaErrors(ajv, tool.outputSchema, result.structuredContent), name).toBe('');
      return result.structuredContent;
    };
    const found = (await call('search_files', { query: null, limit: 2 })) as {
      items: { fileId: string }[];
      nextCursor: string | null;
    };
    expect(found.items.length).toBeGreaterThan(0);
    if (found.nextCursor !== null)
      await call('search_files', { query: null, limit: 2, cursor: found.nextCursor });
    await call('read_file', { fileId: found.items[0]!.fileId, path: null });
    await call('read_file', { path: 'index.md', fileId: null });
    await call('list_tree', { parentPath: 'pages' });
    await call('get_file', { fileId: found.items[0]!.fileId });
    await call('read_related', { fileId: found.items[0]!.fileId });
    await call('expand_graph', { fileId: found.items[0]!.fileId, depth: 2 });
    const status = (await call('exploration_status', {})) as {
      status: { searchesUsed: number; readsUsed: number };
      evidence: unknown[];
    };
    expect(status.status).toMatchObject({ searchesUsed: 1, readsUsed: 2 });
    expect(status.evidence).toHaveLength(1);
    expect(await call('read_file', { path: 'pages/nope.md' })).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });
  });
});
