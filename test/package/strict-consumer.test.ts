/**
 * The package as a strict TypeScript app sees it: `npm pack` makes the tarball users install, it is
 * unpacked into a scratch app's `node_modules/knowledge-kit` (what `npm install` of the tarball does for
 * the package itself; its dependencies resolve from this repository's `node_modules`, where
 * `npm ci` put them), and `tsc --strict` with `skipLibCheck` off type-checks a file that imports every
 * entry, values and types, `Knowledge.*` included, under `NodeNext` and `Bundler` resolution. Under
 * `Bundler`, the check of declaration files covers the package's own (`typecheck.mjs` beside this
 * file): its dependencies' declarations, three quarters of a check's time, are checked under NodeNext.
 * `publint` and `attw` check the package's layout; neither type-checks a consumer, which is how
 * declaration errors reached users before.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { declarationsReady, staleReason } from '../../scripts/build.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const packageOnlyTsc = fileURLToPath(new URL('typecheck.mjs', import.meta.url));
const run = promisify(execFile);

/** `knowledge-kit/agent` → `agent`: an import name for each package entry but `./package.json`. */
const entries = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => ({
    specifier: key === '.' ? 'knowledge-kit' : `knowledge-kit/${key.slice(2)}`,
    name:
      key === '.' ? 'root' : key.slice(2).replace(/\W+(\w)/g, (_, c: string) => c.toUpperCase()),
  }));

/** Every type the root entry exports: each must also be a type of the `Knowledge` namespace. */
function rootTypeNames(): string[] {
  const index = readFileSync(join(root, 'src', 'index.ts'), 'utf8');
  return [...index.matchAll(/export type \{([^}]*)\}/g)].flatMap((match) =>
    match[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

/** The consumer's one file: every entry imported, each `Knowledge` type and function used. */
function consumerSource(): string {
  const types = rootTypeNames();
  return [
    ...entries.map(({ specifier, name }) => `import * as ${name} from '${specifier}';`),
    `import { Knowledge, KnowledgeError, parseKnowledgeDocument } from 'knowledge-kit';`,
    `import type { KnowledgeSnapshot } from 'knowledge-kit';`,
    ...types.map((type) => `export type Knowledge_${type} = Knowledge.${type};`),
    `const doc: Knowledge.KnowledgeDocument = Knowledge.parseKnowledgeDocument({ id: 'a', revision: 'r', text: 'x' });`,
    `const catalog: Knowledge.KnowledgeCatalog = Knowledge.defineKnowledgeCatalog([doc]);`,
    `const snapshot: KnowledgeSnapshot = catalog.read({ documentId: 'a', selection: { mode: 'document' } });`,
    `const error: Knowledge.KnowledgeError = new Knowledge.KnowledgeError([]);`,
    `const same: KnowledgeError = error;`,
    `export const used = [doc, snapshot, same, parseKnowledgeDocument, Knowledge.isKnowledgeError(error), ${entries.map(({ name }) => name).join(', ')}];`,
    '',
  ].join('\n');
}

let scratch = '';

beforeAll(async () => {
  // The test run builds the declarations beside the tests (scripts/build.mjs): the package needs them.
  await declarationsReady();
  // Under the repository's node_modules, so the package's dependencies resolve from there.
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  scratch = mkdtempSync(join(cache, 'strict-consumer-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as readonly { readonly filename: string }[];
  const installed = join(scratch, 'node_modules', 'knowledge-kit');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', [
    '-xzf',
    join(scratch, packed[0]!.filename),
    '-C',
    installed,
    '--strip-components=1',
  ]);
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'strict-app', private: true, type: 'module' }),
  );
  writeFileSync(join(scratch, 'app.ts'), consumerSource());
}, 720_000);

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

describe('a strict app compiles against the packed package', () => {
  it('packs dist/ as built from src/ as it is, declarations included', () => {
    expect(staleReason()).toBeUndefined();
  });

  it('uses every type of the root entry through the Knowledge namespace', () => {
    expect(rootTypeNames()).toContain('KnowledgeSnapshot');
    expect(readFileSync(join(scratch, 'app.ts'), 'utf8')).toContain('Knowledge.KnowledgeSnapshot;');
  });

  for (const [module, moduleResolution, checker, checked] of [
    ['NodeNext', 'NodeNext', tsc, 'every declaration file'],
    ['ESNext', 'Bundler', packageOnlyTsc, 'the package’s declaration files'],
  ] as const) {
    // Concurrent: the two compilers run side by side, one per core.
    it.concurrent(
      `tsc --strict, skipLibCheck off (${checked}), ${moduleResolution} resolution: no error`,
      async () => {
        const config = {
          compilerOptions: {
            strict: true,
            skipLibCheck: false,
            noEmit: true,
            target: 'ES2022',
            lib: ['ES2022'],
            module,
            moduleResolution,
            types: ['node'],
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
          },
          files: ['app.ts'],
        };
        writeFileSync(join(scratch, `tsconfig.${moduleResolution}.json`), JSON.stringify(config));
        let output = '';
        try {
          await run(process.execPath, [checker, '-p', `tsconfig.${moduleResolution}.json`], {
            cwd: scratch,
            encoding: 'utf8',
          });
        } catch (error) {
          output = String((error as { stdout?: string }).stdout ?? error);
        }
        expect(output).toBe('');
      },
      300_000,
    );
  }
});
