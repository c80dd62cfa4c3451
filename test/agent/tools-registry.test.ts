/**
 * The registry derives what was declared by hand before it: the tool definitions' JSON (names,
 * texts, schemas), the HTTP routes' query rules, the route list of the 404 answer and the source
 * methods stay byte-identical. The golden files were written from the code before the registry.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missingSourceMethod } from '../../src/agent/tools/sourceMethods.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { readInput } from '../../src/agent/source/readInput.js';
import { openScope } from '../../src/agent/source/callScope.js';
import {
  KNOWLEDGE_TOOL_NAMES,
  KNOWLEDGE_TOOLS,
  knowledgeTools,
} from '../../src/agent/tools/index.js';
import { liveSource } from '../../src/cli/folder.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { ROUTE_PARAMS } from '../../src/http/params.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { SOURCE_METHODS } from '../helpers/fakeSource.js';

const golden = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as unknown;

/** A source whose every method answers `{ method }`, to see which one a call reached. */
function echoSource(): KnowledgeSource {
  const source: Record<string, unknown> = {};
  for (const method of SOURCE_METHODS)
    source[method] = async (input: unknown) => ({ method, input });
  return source as unknown as KnowledgeSource;
}

describe('the tool registry', () => {
  it('lists the six tools in the seed order, with their methods', () => {
    expect(KNOWLEDGE_TOOL_NAMES).toEqual(KNOWLEDGE_TOOLS.map((tool) => tool.name));
    expect(KNOWLEDGE_TOOL_NAMES).toEqual([
      'search_files',
      'read_file',
      'list_tree',
      'get_file',
      'read_related',
      'expand_graph',
    ]);
    expect(KNOWLEDGE_TOOLS.map((tool) => tool.method)).toEqual([
      'searchFiles',
      'readFile',
      'listTree',
      'getFile',
      'readRelated',
      'expandGraph',
    ]);
    // The interface's order (list_tree first), so a missing-method message names the same one as before.
    const missing: string[] = [];
    const partial: Record<string, () => void> = {};
    for (let method = missingSourceMethod(partial); method !== undefined;) {
      missing.push(method);
      partial[method] = () => undefined;
      method = missingSourceMethod(partial);
    }
    expect(missing).toEqual([
      'listTree',
      'getFile',
      'readFile',
      'readRelated',
      'expandGraph',
      'searchFiles',
    ]);
  });

  it('gives the same tool definitions, byte for byte, as the hand-written schemas and texts did', () => {
    const defs = knowledgeTools(echoSource()).map(({ execute: _, ...definition }) => definition);
    expect(`${JSON.stringify(defs, null, 2)}\n`).toBe(
      readFileSync(new URL('fixtures/golden/tool-definitions.json', import.meta.url), 'utf8'),
    );
  });

  it('gives the same query rules for every HTTP route', () => {
    expect(JSON.parse(JSON.stringify(ROUTE_PARAMS))).toEqual(
      golden('../http/fixtures/route-params.json'),
    );
  });

  it('derives the source rules from the same declaration as the schema', () => {
    for (const tool of KNOWLEDGE_TOOLS) {
      const properties = tool.inputSchema['properties'] as Record<string, unknown>;
      expect(Object.keys(tool.rules)).toEqual(Object.keys(properties));
      for (const [name, arg] of Object.entries(tool.args)) {
        expect(properties[name]).toBe(arg.schema);
        expect(tool.rules[name]).toBe(arg.rule);
      }
    }
  });

  it('checks a trimmed text argument after every other field, and returns it trimmed', () => {
    const { rules } = KNOWLEDGE_TOOLS[0];
    const scope = openScope('search_files', undefined, { actionBase: '', knowledgeBaseId: '' });
    expect(readInput(scope, { query: '  q  ' }, rules)).toEqual({ query: 'q' });
    expect(() => readInput(scope, { query: ' ', mode: 'nope' }, rules)).toThrow(/`mode` must be/);
    expect(() => readInput(scope, { query: 'x'.repeat(2001) }, rules)).toThrow(
      '`search_files`: `query` must be 1 to 2000 characters after trimming, not 2001. Send the complete standalone question, shortened.',
    );
  });

  it('lists the routes in the 404 answer as the spec does', async () => {
    const handler = createKnowledgeHandler({ basePath: '/v2', access: () => null });
    const body = (await (await handler(new Request('http://x.test/v2/elsewhere'))).json()) as {
      error: { message: string };
    };
    expect(body.error.message).toBe(
      'No route "/v2/elsewhere". Routes: /v2/knowledge-bases, then /tree, /files/{fileId}, /files/{fileId}/content, /files/content?path=, /files/{fileId}/related, /graph/expand?fileId=, /search?query=, /versions, /versions/diff?from=&to= under a knowledge base.',
    );
  });

  it('routes each path to its tool, with path and query arguments as its input', async () => {
    const source = echoSource();
    const handler = createKnowledgeHandler({ access: () => ({ knowledgeBases: { kb: source } }) });
    const reached = async (path: string) =>
      (await (await handler(new Request(`http://x.test/knowledge-bases/kb${path}`))).json()) as {
        method: string;
        input: unknown;
      };
    expect(await reached('/tree?limit=2')).toEqual({ method: 'listTree', input: { limit: 2 } });
    expect(await reached('/files/content?path=index.md')).toEqual({
      method: 'readFile',
      input: { path: 'index.md' },
    });
    expect(await reached('/files/a')).toEqual({ method: 'getFile', input: { fileId: 'a' } });
    expect(await reached('/files/a/content?mode=self&sectionIds=s,t')).toEqual({
      method: 'readFile',
      input: { mode: 'self', sectionIds: ['s', 't'], fileId: 'a' },
    });
    expect(await reached('/files/a/related?limit=3')).toEqual({
      method: 'readRelated',
      input: { limit: 3, fileId: 'a' },
    });
    expect(await reached('/graph/expand?fileId=a&depth=2')).toEqual({
      method: 'expandGraph',
      input: { fileId: 'a', depth: 2 },
    });
    expect(await reached('/search?query=q&rerank=true')).toEqual({
      method: 'searchFiles',
      input: { query: 'q', rerank: true },
    });
  });

  it('makes liveSource forward every method of the registry to the current source', async () => {
    const catalog = defineKnowledgeCatalog([
      parseKnowledgeDocument({ id: 'a', revision: 'r', text: '# A\n\nalpha\n' }),
    ]);
    const live = liveSource(() => echoSource());
    for (const method of SOURCE_METHODS) {
      const call = live[method] as unknown as (input: unknown) => Promise<{ method: string }>;
      expect((await call({})).method).toBe(method);
    }
    const real = liveSource(() => createCatalogSource(catalog));
    await expect(real.warm?.()).resolves.toBeUndefined();
  });
});
