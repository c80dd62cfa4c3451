/**
 * The layers hold: a test on the import graph of `src/` (and of the built core entries) that fails when
 * a module reaches into another layer's internals or a file imports itself back. Modelled on the MCP TypeScript SDK's
 * `test/barrelClean.test.ts`. `docs/architecture.md` draws the same layers, and each statement of it
 * that the graph can check is checked here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Every `.ts` file below `dir`, as paths relative to `src/` with `/` separators. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const here = stack.pop()!;
    for (const entry of readdirSync(here, { withFileTypes: true })) {
      const path = join(here, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.name.endsWith('.ts')) out.push(relative(src, path).split('\\').join('/'));
    }
  }
  return out.sort();
}

/**
 * The module specifiers a file imports or re-exports, as the TypeScript compiler reads them: every
 * form (type-only, side-effect only, `export … from`, dynamic `import()`), whatever the quotes.
 */
function specifiersOf(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}

/** A relative specifier resolved to a path relative to `src/` (`.js` → `.ts`). */
function resolveRelative(from: string, specifier: string): string {
  const target = join(dirname(join(src, from)), specifier).replace(/\.js$/, '.ts');
  return relative(src, target).split('\\').join('/');
}

type Layer = 'core' | 'agent' | 'mcp' | 'http' | 'http/node' | 'node' | 'postgres' | 'cli';

function layerOf(file: string): Layer {
  if (file.startsWith('http/node/')) return 'http/node';
  const top = file.split('/')[0]!;
  if (
    top === 'agent' ||
    top === 'mcp' ||
    top === 'http' ||
    top === 'node' ||
    top === 'postgres' ||
    top === 'cli'
  )
    return top;
  return 'core';
}

/**
 * The entries of each layer: the only modules another layer may import from it. Each is a package
 * entry, except `internals.ts`: the one curated barrel a layer offers the package's own upper layers
 * (the agent layer's tool registry for the transports, the folder reading for the command line).
 */
const ENTRIES: Readonly<Record<Layer, readonly string[]>> = {
  core: ['index.ts'],
  agent: [
    'agent/index.ts',
    'agent/adapters/index.ts',
    'agent/exploration/index.ts',
    'agent/internals.ts',
  ],
  mcp: ['mcp/index.ts'],
  http: ['http/index.ts', 'http/internals.ts'],
  'http/node': ['http/node/index.ts'],
  node: ['node/index.ts', 'node/internals.ts'],
  postgres: ['postgres/index.ts'],
  cli: ['cli/main.ts'],
};

/**
 * What the core offers every layer: its package entry, the files that entry re-exports (the same
 * names, imported from the file that defines them), and its two open rooms: the shared helpers and
 * the Markdown grammar. The rest of the core (the catalog's and the parser's own files) is its own.
 */
const CORE_OPEN_ROOMS = ['shared/', 'markdown/'] as const;

/** The layers each layer may use, through their entries (the core's open rooms are open to every layer). */
const USES: Readonly<Record<Layer, readonly Layer[]>> = {
  core: [],
  agent: [],
  mcp: ['agent'],
  http: ['agent', 'mcp'],
  'http/node': ['agent', 'http'],
  node: ['agent'],
  postgres: ['agent'],
  cli: ['agent', 'mcp', 'http', 'http/node', 'node', 'postgres'],
};

/** Layers that run in browsers, Deno, Bun and workers: no Node built-in. */
const PORTABLE: ReadonlySet<Layer> = new Set<Layer>(['core', 'agent', 'http', 'mcp', 'postgres']);

interface Edge {
  readonly from: string;
  readonly to: string;
}

function edges(): { readonly local: Edge[]; readonly external: Edge[] } {
  const local: Edge[] = [];
  const external: Edge[] = [];
  for (const file of sourceFiles(src)) {
    for (const specifier of specifiersOf(file)) {
      if (specifier.startsWith('.'))
        local.push({ from: file, to: resolveRelative(file, specifier) });
      else external.push({ from: file, to: specifier });
    }
  }
  return { local, external };
}

/** Why `edge` breaks the layering, or `undefined` when it holds; `coreEntry` is what `index.ts` re-exports. */
export function layerViolation(
  edge: Edge,
  coreEntry: ReadonlySet<string> = new Set(),
): string | undefined {
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  if (from === to) return undefined;
  if (to === 'core') {
    if (edge.to === 'index.ts' || coreEntry.has(edge.to)) return undefined;
    if (CORE_OPEN_ROOMS.some((room) => edge.to.startsWith(room))) return undefined;
    return `reaches into the core's own files: import index.ts (or the file it re-exports) or ${CORE_OPEN_ROOMS.join(' or ')}`;
  }
  if (!USES[from].includes(to)) return `the ${from} layer may not use the ${to} layer`;
  if (!ENTRIES[to].includes(edge.to))
    return `reaches into ${to}'s internals: import ${ENTRIES[to].join(' or ')} instead`;
  return undefined;
}

/**
 * Every import cycle of `edges`, one per strongly connected set of files (Tarjan's algorithm, with an
 * explicit stack), each as its files in path order joined by ` -> ` and closed by its first file.
 */
export function importCycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const open: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const walk: { readonly file: string; at: number }[] = [];
    const enter = (file: string) => {
      index.set(file, index.size);
      low.set(file, index.get(file)!);
      open.push(file);
      onStack.add(file);
      walk.push({ file, at: 0 });
    };
    enter(start);
    while (walk.length > 0) {
      const top = walk[walk.length - 1]!;
      const targets = next.get(top.file) ?? [];
      if (top.at < targets.length) {
        const to = targets[top.at++]!;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!));
        continue;
      }
      walk.pop();
      const parent = walk[walk.length - 1];
      if (parent !== undefined)
        low.set(parent.file, Math.min(low.get(parent.file)!, low.get(top.file)!));
      if (low.get(top.file) !== index.get(top.file)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = open.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== top.file);
      const selfLoop = targets.includes(top.file);
      if (members.length > 1 || selfLoop) {
        members.sort();
        cycles.push([...members, members[0]].join(' -> '));
      }
    }
  }
  return cycles;
}

describe('layers (docs/architecture.md)', () => {
  const { local, external } = edges();

  it('reads a real import graph', () => {
    expect(local.length).toBeGreaterThan(200);
    expect(local.some((e) => e.from === 'agent/index.ts')).toBe(true);
    for (const edge of local) expect(existsSync(join(src, edge.to)), edge.to).toBe(true);
  });

  const coreEntry = new Set(local.filter((e) => e.from === 'index.ts').map((e) => e.to));

  it('no module reaches into another layer, and each layer uses only the layers below it', () => {
    const broken = local
      .map((edge) => ({ edge, why: layerViolation(edge, coreEntry) }))
      .filter((v) => v.why !== undefined)
      .map((v) => `${v.edge.from} -> ${v.edge.to}: ${v.why}`);
    expect(broken).toEqual([]);
  });

  it('the core, agent, MCP, HTTP and PostgreSQL layers import no Node built-in', () => {
    const broken = external
      .filter((e) => PORTABLE.has(layerOf(e.from)) && e.to.startsWith('node:'))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(broken).toEqual([]);
  });

  it('no file of src imports itself back, type-only imports included', () => {
    expect(importCycles(local)).toEqual([]);
  });

  it('one internals.ts per layer, at its root and listed as its entry; "internal" names nothing else', () => {
    const all = sourceFiles(src);
    const internals = all.filter(
      (file) => file.endsWith('/internals.ts') || file === 'internals.ts',
    );
    for (const file of internals) {
      expect(ENTRIES[layerOf(file)], file).toContain(file);
      expect(file, 'at the root of its layer').toBe(
        `${layerOf(file) === 'core' ? '' : `${layerOf(file)}/`}internals.ts`,
      );
    }
    const folders = new Set(all.flatMap((file) => file.split('/').slice(0, -1)));
    expect([...folders].filter((name) => /^internals?$/.test(name))).toEqual([]);
  });

  it('the ground imports nothing above it: agent/types.ts nothing; shared/ and markdown/ only each other and errors/', () => {
    expect(local.filter((e) => e.from === 'agent/types.ts')).toEqual([]);
    const ground = ['shared/', 'markdown/', 'errors/'];
    const broken = local.filter(
      (e) =>
        (e.from.startsWith('shared/') || e.from.startsWith('markdown/')) &&
        !ground.some((room) => e.to.startsWith(room)),
    );
    expect(broken).toEqual([]);
  });

  it('every src/ and test/ path docs/architecture.md names exists', () => {
    const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const named = [...page.matchAll(/`((?:src|test)\/[^`*<>{} ]+)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('a new tool is one folder and one registry line: every tool folder has its four files, all in the registry', () => {
    const tools = join(src, 'agent/tools');
    const folders = readdirSync(tools, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'schemas')
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThanOrEqual(6);
    const registry = new Set(
      local.filter((e) => e.from === 'agent/tools/registry.ts').map((e) => e.to),
    );
    for (const folder of folders) {
      for (const file of ['definition.ts', 'run.ts', 'outputSchema.ts', 'types.ts'])
        expect(existsSync(join(tools, folder, file)), `${folder}/${file}`).toBe(true);
      expect(registry.has(`agent/tools/${folder}/definition.ts`), folder).toBe(true);
    }
  });

  it('the built portable entries pull in no Node built-in (esbuild drops the `node:` prefix), and the core only its own two packages', () => {
    const dist = join(root, 'dist');
    const bareOf = (entry: string): Set<string> => {
      const bare = new Set<string>();
      const seen = new Set<string>();
      const stack = [join(dist, entry)];
      while (stack.length > 0) {
        const file = stack.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(
          /^(?:import|export)\b[^;]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm,
        )) {
          const specifier = (m[1] ?? m[2] ?? m[3])!;
          if (specifier.startsWith('.')) stack.push(join(dirname(file), specifier));
          else bare.add(specifier);
        }
      }
      return bare;
    };
    const portable = [
      'index.js',
      'agent/index.js',
      'agent/adapters/index.js',
      'agent/exploration/index.js',
      'http/index.js',
      'mcp/index.js',
      'postgres/index.js',
    ];
    for (const entry of portable) {
      const nodeOnly = [...bareOf(entry)].filter((s) => isBuiltin(s));
      expect(nodeOnly, entry).toEqual([]);
    }
    expect([...bareOf('index.js')].sort()).toEqual(['fast-json-stable-stringify', 'leven']);
    // The walk follows chunks: the CLI's bundle reaches Node built-ins through them.
    expect([...bareOf('cli.js')].some((s) => isBuiltin(s))).toBe(true);
  });

  it('the rule itself fails on a reach into internals and on an upward use', () => {
    expect(layerViolation({ from: 'http/respond.ts', to: 'agent/source/cursor.ts' })).toMatch(
      /internals/,
    );
    expect(layerViolation({ from: 'agent/tools/x.ts', to: 'http/index.ts' })).toMatch(/may not/);
    expect(layerViolation({ from: 'http/respond.ts', to: 'agent/index.ts' })).toBeUndefined();
    expect(layerViolation({ from: 'agent/tools/x.ts', to: 'shared/show.ts' })).toBeUndefined();
    expect(layerViolation({ from: 'agent/tools/x.ts', to: 'catalog/compileDocument.ts' })).toMatch(
      /core's own files/,
    );
    expect(
      layerViolation(
        { from: 'node/x.ts', to: 'parse/parseKnowledgeDocument.ts' },
        new Set(['parse/parseKnowledgeDocument.ts']),
      ),
    ).toBeUndefined();
  });

  it('the cycle finder finds a cycle through type-only imports and passes a chain', () => {
    expect(
      importCycles([
        { from: 'agent/types.ts', to: 'agent/tools/a.ts' },
        { from: 'agent/tools/a.ts', to: 'agent/types.ts' },
        { from: 'agent/tools/b.ts', to: 'agent/types.ts' },
      ]),
    ).toEqual(['agent/tools/a.ts -> agent/types.ts -> agent/tools/a.ts']);
    expect(
      importCycles([
        { from: 'a.ts', to: 'b.ts' },
        { from: 'b.ts', to: 'c.ts' },
      ]),
    ).toEqual([]);
  });
});
