/// <reference types="vite/client" />
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';
import * as postgresEntry from '../src/postgres/index.js';
import { KNOWLEDGE_ERROR_CODES } from '../src/errors/codes.js';
import pkg from '../package.json' with { type: 'json' };

describe('public surface', () => {
  it('pins the export keys of the `.` entry', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'Knowledge',
      'KnowledgeError',
      'defineKnowledgeCatalog',
      'formatKnowledgeDocument',
      'isKnowledgeError',
      'parseKnowledgeDocument',
    ]);
  });

  it('pins the `Knowledge` namespace: the same functions as the named exports', () => {
    expect(Object.keys(entry.Knowledge).sort()).toEqual([
      'KnowledgeError',
      'defineKnowledgeCatalog',
      'formatKnowledgeDocument',
      'isKnowledgeError',
      'parseKnowledgeDocument',
    ]);
    expect(entry.Knowledge.parseKnowledgeDocument).toBe(entry.parseKnowledgeDocument);
    expect(entry.Knowledge.defineKnowledgeCatalog).toBe(entry.defineKnowledgeCatalog);
    expect(entry.Knowledge.KnowledgeError).toBe(entry.KnowledgeError);
  });

  it('pins the export keys of `knowledge-kit/postgres`', () => {
    expect(Object.keys(postgresEntry).sort()).toEqual([
      'createPostgresSource',
      'listKnowledgeBases',
      'listKnowledgeVersions',
      'migrateKnowledgeStore',
      'publishKnowledge',
      'setDefaultKnowledgeVersion',
      'unpublishKnowledgeVersion',
    ]);
  });

  it('pins the package entry points', () => {
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
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
  });

  it('keeps Node built-ins out of the core (and of every entry but `knowledge-kit/http/node`, `knowledge-kit/node` and the command line)', () => {
    const files = import.meta.glob('../src/**/*.ts', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    expect(Object.keys(files).length).toBeGreaterThan(5);
    for (const [file, source] of Object.entries(files)) {
      if (
        file.includes('/src/http/node/') ||
        file.includes('/src/node/') ||
        file.includes('/src/cli/')
      )
        continue;
      expect(source as string, file).not.toMatch(/from '(node:|fs|path|crypto|buffer)/);
      expect(source as string, file).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    }
  });
});

/**
 * The type names of every package entry, written by hand: a type added, renamed or dropped from an
 * entry is a change of the public API, and fails here until this list says so. (The values are
 * pinned above and in `test/agent/exports.test.ts`.)
 */
const PUBLIC_TYPES: Readonly<Record<string, readonly string[]>> = {
  '.': [
    'KnowledgeCatalog',
    'KnowledgeCatalogOptions',
    'KnowledgeDocument',
    'KnowledgeErrorCode',
    'KnowledgeIssue',
    'KnowledgeParseInput',
    'KnowledgeParseOptions',
    'KnowledgePart',
    'KnowledgePosition',
    'KnowledgeReadRequest',
    'KnowledgeSection',
    'KnowledgeSelection',
    'KnowledgeSelectionMode',
    'KnowledgeSnapshot',
  ],
  './agent': [
    'ActiveContentRevision',
    'Bm25fEngineOptions',
    'BundleFetchOptions',
    'BundleManifest',
    'CatalogSourceOptions',
    'ContentRange',
    'EvidenceType',
    'ExpandGraphInput',
    'ExpandGraphOutput',
    'FileHeadingInfo',
    'FileSectionInfo',
    'GetFileInput',
    'GetFileOutput',
    'GraphRelationship',
    'JsonObject',
    'JsonSchema',
    'JsonValue',
    'KnowledgeBundleOptions',
    'KnowledgeCallContext',
    'KnowledgeEmbedder',
    'KnowledgeEmbeddingCache',
    'KnowledgeFileKind',
    'KnowledgeFileOptions',
    'KnowledgeFileState',
    'KnowledgeFileStatusOptions',
    'KnowledgeGeneratedOutputStatus',
    'KnowledgeLinkRoot',
    'KnowledgePageChange',
    'KnowledgePartChanges',
    'KnowledgeReadActions',
    'KnowledgeReranker',
    'KnowledgeSource',
    'KnowledgeToolAnnotations',
    'KnowledgeToolCallOptions',
    'KnowledgeToolDefinition',
    'KnowledgeToolErrorBody',
    'KnowledgeToolErrorCode',
    'KnowledgeToolErrorOptions',
    'KnowledgeToolName',
    'KnowledgeToolResult',
    'KnowledgeToolSchemas',
    'KnowledgeToolsOptions',
    'KnowledgeUnavailableFile',
    'KnowledgeVersionDiff',
    'KnowledgeVersionInfo',
    'KnowledgeWarmContext',
    'ListTreeInput',
    'ListTreeOutput',
    'MatchedField',
    'NextAction',
    'ReadFileInput',
    'ReadFileOutput',
    'ReadFileRecord',
    'ReadHeading',
    'ReadRelatedInput',
    'ReadRelatedOutput',
    'ReadSelection',
    'RelatedItem',
    'RelationDirection',
    'RelationType',
    'RerankerSafeCode',
    'SearchAnswer',
    'SearchChunk',
    'SearchChunkHeading',
    'SearchCorpus',
    'SearchCorpusPage',
    'SearchEngine',
    'SearchEngineFactory',
    'SearchFilesInput',
    'SearchFilesOutput',
    'SearchFilter',
    'SearchFilterName',
    'SearchHit',
    'SearchHitHeading',
    'SearchItem',
    'SearchMode',
    'SearchRelation',
    'SearchRequest',
    'SearchWarmProgress',
    'SemanticSafeCode',
    'StageStatus',
    'StaticBundleRead',
    'StaticSourceOptions',
    'TreeDirectoryItem',
    'TreeFileItem',
    'VersionedKnowledgeSource',
    'VersionedSourceOptions',
  ],
  './agent/adapters': [
    'AISDKEmbedMany',
    'AISDKEmbeddingOptions',
    'AISDKTool',
    'AISDKToolsOptions',
    'AnthropicDocumentBlock',
    'AnthropicSearchResultBlock',
    'AnthropicToolParam',
    'AnthropicToolResultBlock',
    'CitableFile',
    'LangChainToolConfig',
    'LangChainToolFactory',
    'OpenAIChatFunctionTool',
    'OpenAIEmbeddingsClient',
    'OpenAIEmbeddingsOptions',
    'OpenAIResponsesFunctionTool',
    'OpenAIToolsOptions',
    'ToolParametersSchema',
  ],
  './agent/exploration': [
    'ExplorationEvidence',
    'ExplorationOptions',
    'ExplorationReadOptions',
    'ExplorationReadOutput',
    'ExplorationReadTarget',
    'ExplorationSearchOptions',
    'ExplorationSession',
    'ExplorationStatus',
    'ExplorationStopReason',
    'ExplorationToolsOptions',
  ],
  './mcp': [
    'KnowledgeMcpServerOptions',
    'KnowledgeMcpText',
    'KnowledgeMcpToolOptions',
    'KnowledgeResourcesOptions',
  ],
  './http': [
    'KnowledgeAccess',
    'KnowledgeBaseEntry',
    'KnowledgeBaseGrants',
    'KnowledgeClient',
    'KnowledgeClientOptions',
    'KnowledgeCorsOptions',
    'KnowledgeHandler',
    'KnowledgeHandlerLimits',
    'KnowledgeHandlerMcpOptions',
    'KnowledgeHandlerOptions',
    'KnowledgeOperation',
    'KnowledgeRateLimit',
    'KnowledgeVersionList',
    'MemoryRateLimiterOptions',
    'RateLimitDecision',
    'RateLimitRequestInfo',
  ],
  './http/node': [
    'NodeListenerOptions',
    'NodeRequestListener',
    'ServeKnowledgeOptions',
    'ServedKnowledge',
  ],
  './node': [
    'EmbeddingCacheOptions',
    'ExportKnowledgeBundleOptions',
    'ExportKnowledgeDirectoryOptions',
    'ExportedKnowledgeBundle',
    'ExportedKnowledgeVersions',
    'FileEmbeddingCache',
    'KnowledgeDirectoryChange',
    'KnowledgeDirectoryWatcher',
    'KnowledgeFileLoadStatus',
    'KnowledgeFilesChange',
    'KnowledgeFilesWatcher',
    'LoadKnowledgeDirectoryOptions',
    'LoadedKnowledgeDirectory',
    'LoadedKnowledgeFiles',
    'WatchKnowledgeDirectoryOptions',
  ],
  './postgres': [
    'KnowledgeDatabase',
    'KnowledgeQueryResult',
    'KnowledgeStoreMigration',
    'KnowledgeStoreOptions',
    'ListKnowledgeVersionsOptions',
    'PostgresSourceOptions',
    'PublishKnowledgeOptions',
    'PublishedKnowledge',
    'SetDefaultKnowledgeVersionOptions',
    'StoredKnowledgeBase',
    'StoredKnowledgeVersion',
    'UnpublishKnowledgeVersionOptions',
    'UnpublishedKnowledgeVersion',
  ],
};

/**
 * The names each package entry exports as a type only (interfaces and type aliases; a class is a
 * value and pinned with the values), read by the TypeScript compiler from the entry's source file.
 */
function typeNamesOfEntries(): Record<string, string[]> {
  const root = new URL('../', import.meta.url);
  const entries = Object.entries(pkg.exports).flatMap(([key, target]) =>
    typeof target === 'string'
      ? []
      : [[key, target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')] as const],
  );
  const config = ts.readConfigFile(new URL('tsconfig.json', root).pathname, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root.pathname);
  const program = ts.createProgram(
    entries.map(([, file]) => new URL(file, root).pathname),
    options,
  );
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [key, file] of entries) {
    const source = program.getSourceFile(new URL(file, root).pathname);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${key}: no module at ${file}`);
    out[key] = checker
      .getExportsOfModule(module)
      .filter((symbol) => {
        const target =
          symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return (target.flags & ts.SymbolFlags.Value) === 0;
      })
      .map((symbol) => symbol.name)
      .sort();
  }
  return out;
}

describe('public type names', () => {
  it('pins the type names of every package entry', { timeout: 120_000 }, () => {
    expect(typeNamesOfEntries()).toEqual(PUBLIC_TYPES);
  });

  it('`knowledge-kit/agent` exports of the static bundle format only what public functions take or return', () => {
    // `createStaticSource({ read })` and `readBundleDirectory` (a `StaticBundleRead`), the reading
    // limits of `createStaticSource`'s options (`BundleFetchOptions`), what
    // `exportKnowledgeBundle` takes (`KnowledgeBundleOptions`) and returns (`BundleManifest`).
    const bundleTypes = PUBLIC_TYPES['./agent']!.filter((name) => /Bundle|Manifest/.test(name));
    expect(bundleTypes).toEqual([
      'BundleFetchOptions',
      'BundleManifest',
      'KnowledgeBundleOptions',
      'StaticBundleRead',
    ]);
    const api = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    for (const name of bundleTypes) expect(api).toContain(`\`${name}\``);
  });
});

describe('KnowledgeError', () => {
  it('carries name, code, frozen issues and cause; isKnowledgeError guards it', () => {
    const cause = new Error('root');
    const error = new entry.KnowledgeError(
      [{ code: 'CYCLE', message: 'm', path: [0], related: { line: 1, column: 2 } }],
      { cause },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('KnowledgeError');
    expect(error.code).toBe('CYCLE');
    expect(error.message).toBe('m');
    expect(error.cause).toBe(cause);
    expect(Object.isFrozen(error.issues)).toBe(true);
    expect(Object.isFrozen(error.issues[0])).toBe(true);
    expect(Object.isFrozen(error.issues[0]!.path)).toBe(true);
    expect(Object.isFrozen(error.issues[0]!.related)).toBe(true);
    expect(entry.isKnowledgeError(error)).toBe(true);
    for (const other of [
      new Error('x'),
      { name: 'KnowledgeError', code: 'CYCLE' },
      null,
      'KnowledgeError',
    ]) {
      expect(entry.isKnowledgeError(other)).toBe(false);
    }
    expect(() => new entry.KnowledgeError([])).toThrow(TypeError);
  });

  it('every code is UPPER_SNAKE_CASE and has an entry in docs/errors.md with cause, example and fix', () => {
    const whole = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
    // The agent's tool errors follow under their own top-level heading (test/agent/exports.test.ts).
    const docs = whole.slice(0, whole.indexOf('\n# Agent tool errors'));
    const sections = docs.split(/^## /m).slice(1);
    const documented = sections.map((s) => s.slice(0, s.indexOf('\n')).replace(/`/g, '').trim());
    expect(documented).toEqual([...KNOWLEDGE_ERROR_CODES]);
    for (const section of sections) {
      expect(section).toMatch(/^[A-Z_`]+\n/);
      expect(section).toContain('**Cause.**');
      expect(section).toContain('**Example.**');
      expect(section).toContain('**Fix.**');
    }
  });
});
