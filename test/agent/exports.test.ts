/// <reference types="vite/client" />
/** The public surface of `knowledge-kit/agent` and `knowledge-kit/mcp`, pinned; and the docs of every tool error code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as agent from '../../src/agent/index.js';
import * as adapters from '../../src/agent/adapters/index.js';
import * as exploration from '../../src/agent/exploration/index.js';
import * as mcp from '../../src/mcp/index.js';
import * as http from '../../src/http/index.js';
import * as httpNode from '../../src/http/node/index.js';
import * as nodeEntry from '../../src/node/index.js';
import * as core from '../../src/index.js';
import pkg from '../../package.json' with { type: 'json' };

describe('agent and MCP entries', () => {
  it('pins the export keys of `knowledge-kit/agent`', () => {
    expect(Object.keys(agent).sort()).toEqual([
      'KNOWLEDGE_TOOL_ERROR_CODES',
      'KNOWLEDGE_TOOL_ERROR_STATUS',
      'KNOWLEDGE_TOOL_NAMES',
      'KNOWLEDGE_TOOL_SCHEMAS',
      'KnowledgeToolError',
      'callKnowledgeTool',
      'createBm25fEngine',
      'createCatalogSource',
      'createStaticSource',
      'createVersionedSource',
      'diffVersions',
      'isKnowledgeToolError',
      'knowledgeTools',
      'tokenize',
    ]);
  });

  it('pins the export keys of `knowledge-kit/agent/adapters` and `knowledge-kit/agent/exploration`', () => {
    expect(Object.keys(adapters).sort()).toEqual([
      'fromAISDKEmbeddingModel',
      'fromOpenAIEmbeddings',
      'toAISDKTools',
      'toAnthropicDocument',
      'toAnthropicSearchResult',
      'toAnthropicToolResult',
      'toAnthropicTools',
      'toLangChainTools',
      'toOpenAIChatTools',
      'toOpenAIResponsesTools',
      'toStrictSchema',
    ]);
    expect(Object.keys(exploration).sort()).toEqual(['explorationTools', 'startExploration']);
    // Each name has one entry: the subpaths' values are not also in `knowledge-kit/agent`.
    for (const name of [...Object.keys(adapters), ...Object.keys(exploration)])
      expect(Object.keys(agent)).not.toContain(name);
  });

  it('pins the export keys of `knowledge-kit/mcp`', () => {
    expect(Object.keys(mcp).sort()).toEqual([
      'KNOWLEDGE_MCP_INSTRUCTIONS',
      'KNOWLEDGE_RESOURCE_MAX_CHARS',
      'KNOWLEDGE_RESOURCE_MIME_TYPE',
      'KNOWLEDGE_RESOURCE_TEMPLATE',
      'KNOWLEDGE_VERSION_RESOURCE_TEMPLATE',
      'createKnowledgeMcpServer',
      'knowledgeFileUri',
      'knowledgeMcpInstructions',
      'leanOutputSchema',
      'registerKnowledgeResources',
      'registerKnowledgeTools',
      'toCallToolResult',
    ]);
  });

  it('pins the export keys of `knowledge-kit/http` and `knowledge-kit/http/node`', () => {
    expect(Object.keys(http).sort()).toEqual([
      'createKnowledgeClient',
      'createKnowledgeHandler',
      'createMemoryRateLimiter',
    ]);
    expect(Object.keys(httpNode).sort()).toEqual([
      'KNOWLEDGE_MAX_HEADER_SIZE',
      'serveKnowledge',
      'toNodeListener',
    ]);
  });

  it('pins the export keys of `knowledge-kit/node`', () => {
    expect(Object.keys(nodeEntry).sort()).toEqual([
      'exportKnowledgeBundle',
      'exportKnowledgeDirectory',
      'exportKnowledgeVersions',
      'loadKnowledgeDirectory',
      'loadKnowledgeFiles',
      'openEmbeddingCache',
      'readBundleDirectory',
      'watchKnowledgeDirectory',
      'watchKnowledgeFiles',
    ]);
  });

  it('pins the package entries, the command and the MCP SDK as a dependency (the `mcp` command needs it)', () => {
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './agent',
      './agent/adapters',
      './agent/exploration',
      './mcp',
      './http',
      './http/node',
      './node',
      './postgres',
      './package.json',
    ]);
    expect(pkg.bin).toEqual({ 'knowledge-kit': './dist/cli.js' });
    expect(pkg.dependencies['@modelcontextprotocol/server']).toBe('2.4.0');
    // The PostgreSQL drivers are optional peers of `knowledge-kit/postgres`, never required.
    const peers = (pkg as { peerDependencies?: Record<string, string> }).peerDependencies ?? {};
    const meta = (pkg as { peerDependenciesMeta?: Record<string, { optional?: boolean }> })
      .peerDependenciesMeta;
    expect(Object.keys(peers).sort()).toEqual(['@electric-sql/pglite', 'pg']);
    for (const peer of Object.keys(peers)) expect(meta?.[peer]?.optional, peer).toBe(true);
  });

  it('keeps the core free of the agent layer, and the agent entry free of Node built-ins and test oracles', () => {
    const files = import.meta.glob('../../src/**/*.ts', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    for (const [file, source] of Object.entries(files)) {
      const text = source as string;
      const layer = [
        '/src/agent/',
        '/src/mcp/',
        '/src/http/',
        '/src/node/',
        '/src/cli/',
        '/src/postgres/',
      ].some((folder) => file.includes(folder));
      if (!layer)
        expect(text, file).not.toMatch(
          /^(import|export)[^\n]* from '[./]*(agent|mcp|http|node|cli)\//m,
        );
      // The HTTP entry runs on every Fetch runtime; only its Node adapter may use Node.
      if (file.includes('/src/http/') && !file.includes('/src/http/node/'))
        expect(text, file).not.toMatch(/^(import|export)[^\n]* from '(node:|@hono\/node-server)/m);
      if (file.includes('/src/agent/')) {
        expect(text, file).not.toMatch(/^(import|export)[^\n]* from 'node:/m);
        expect(text, file).not.toMatch(
          /^(import|export)[^\n]* from '(remark-parse|unified|ajv|@modelcontextprotocol|openai|@anthropic-ai|ai|@langchain)/m,
        );
      }
    }
    expect(Object.keys(core)).not.toContain('createCatalogSource');
  });

  it('every tool error code has an entry in docs/errors.md with cause, example and fix', () => {
    const whole = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const docs = whole.slice(whole.indexOf('\n# Agent tool errors'));
    const sections = docs.split(/^## /m).slice(1);
    expect(sections.map((s) => s.slice(0, s.indexOf('\n')).trim())).toEqual([
      ...agent.KNOWLEDGE_TOOL_ERROR_CODES,
    ]);
    for (const [i, section] of sections.entries()) {
      const code = agent.KNOWLEDGE_TOOL_ERROR_CODES[i]!;
      expect(section).toContain(`HTTP ${agent.KNOWLEDGE_TOOL_ERROR_STATUS[code]}`);
      for (const part of ['**Cause.**', '**Example.**', '**Fix.**'])
        expect(section, code).toContain(part);
    }
  });
});
