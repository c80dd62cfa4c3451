/**
 * Loose scalars: integer and boolean arguments also take their canonical strings (`"5"`, `"true"`),
 * read as the value, through every tool's `execute`; any other string stays `INVALID_ARGUMENT`.
 */
import { describe, expect, it } from 'vitest';
import { knowledgeTools, type KnowledgeToolDefinition } from '../../src/agent/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { looseBoolean, looseInteger } from '../../src/agent/internals.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';

const tools = knowledgeTools(createCatalogSource(exampleCatalog(), exampleSourceOptions()));
const tool = (name: string): KnowledgeToolDefinition => tools.find((t) => t.name === name)!;

describe('loose scalars', () => {
  it('reads only the canonical strings', () => {
    expect(['5', '0', '-3', '007', '123456789012345'].map(looseInteger)).toEqual([
      5, 0, -3, 7, 123456789012345,
    ]);
    for (const text of [
      '',
      '-',
      ' 5',
      '5 ',
      '+5',
      '5.0',
      '1e3',
      '0x10',
      '1234567890123456',
      'five',
    ])
      expect(looseInteger(text), text).toBeUndefined();
    expect(['true', 'false'].map(looseBoolean)).toEqual([true, false]);
    for (const text of ['True', 'TRUE', '1', '0', 'yes', '', ' true'])
      expect(looseBoolean(text), text).toBeUndefined();
  });

  it('gives the same result for "2" as for 2, and for "true" as for true', async () => {
    const list = tool('list_tree');
    expect(await list.execute({ limit: '2' })).toEqual(await list.execute({ limit: 2 }));
    const search = tool('search_files');
    const query = 'refund';
    expect(await search.execute({ query, limit: '3', rerank: 'false' })).toEqual(
      await search.execute({ query, limit: 3, rerank: false }),
    );
    expect(await search.execute({ query, rerank: 'true' })).toEqual(
      await search.execute({ query, rerank: true }),
    );
  });

  it('keeps null as absent for plain integer and boolean arguments', async () => {
    const search = tool('search_files');
    expect(await search.execute({ query: 'refund', limit: null, rerank: null })).toEqual(
      await search.execute({ query: 'refund' }),
    );
  });

  it('refuses any other string, and a canonical one out of range, with INVALID_ARGUMENT naming the field', async () => {
    for (const [name, args, field] of [
      ['list_tree', { limit: '2.0' }, 'limit'],
      ['list_tree', { limit: ' 2' }, 'limit'],
      ['list_tree', { limit: '0' }, 'limit'],
      ['list_tree', { limit: '201' }, 'limit'],
      ['search_files', { query: 'refund', rerank: 'yes' }, 'rerank'],
      ['search_files', { query: 'refund', rerank: 'True' }, 'rerank'],
      ['read_file', { path: 'index.md', maxChars: '-1' }, 'maxChars'],
    ] as const) {
      const result = await tool(name).execute(args);
      const what = `${name} ${JSON.stringify(args)}`;
      expect(result.isError, what).toBe(true);
      const { error } = result.structuredContent as { error: { code: string; message: string } };
      expect(error.code, what).toBe('INVALID_ARGUMENT');
      expect(error.message, what).toContain(`\`${field}\``);
    }
  });
});
