#!/usr/bin/env node
/**
 * The package's declarations (`dist/**\/index.d.ts`, one per `exports` entry, and the chunks they
 * share), in two steps: TypeScript writes one `.d.ts` per source file into a scratch folder, then
 * rollup with rollup-plugin-dts bundles them from the `types` file each `exports` entry names. tsup's
 * own declaration build does the same bundling but compiles `src/` once more for it, about 15 s of
 * CPU against 6 here.
 *
 * `node scripts/declarations.mjs` type-checks `src/` as it emits (what `npm run build` and packing
 * do); `--no-check` emits without checking (TypeScript's `noCheck`): the test run's build, whose own
 * type check covers `src/` and fails the run on any error. Run the bundles' build (`tsup`) first: it
 * empties `dist/`. Exits 1 with TypeScript's or rollup's output when a step fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = fileURLToPath(new URL('..', import.meta.url));
/**
 * The per-file declarations, in a temporary folder: not under `node_modules/`, whose files TypeScript's
 * resolver (and so rollup-plugin-dts) takes for a dependency's and leaves unbundled.
 */
const scratch = mkdtempSync(join(tmpdir(), 'knowledge-kit-declarations-'));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Each `exports` entry's declaration file, by its name under `dist/` without `.d.ts` (`agent/index`):
 * the bundle's entries, named as the package names them.
 */
function entries() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const names = Object.values(pkg.exports)
    .map((target) => (typeof target === 'object' ? target.types : undefined))
    .filter((file) => typeof file === 'string' && file.startsWith('./dist/'))
    .map((file) => file.slice('./dist/'.length, -'.d.ts'.length));
  return Object.fromEntries(names.map((name) => [name, join(scratch, 'out', `${name}.d.ts`)]));
}

/** Writes one `.d.ts` per file of `src/` under the scratch folder; throws with TypeScript's output. */
function emit(check) {
  const tsconfig = join(scratch, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    `${JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: join(root, 'src'),
        outDir: join(scratch, 'out'),
        noCheck: !check,
      },
      include: [join(root, 'src')],
    })}\n`,
  );
  const result = spawnSync(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
    // Every error of a broken `src/`, not the first megabyte of them.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(
      `tsc (declarations) failed (${result.error?.message ?? `exit ${result.status}`}).\n${result.stdout}${result.stderr}`,
    );
}

/**
 * Bundles the emitted declarations into `dist/`; throws with rollup's warnings as errors, before
 * writing anything (so a build that warned leaves no declarations that look up to date).
 */
async function bundle() {
  const warnings = [];
  const build = await rollup({
    input: entries(),
    plugins: [dts()],
    // Dependencies and Node's modules stay imports; only the package's own files are bundled.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    onwarn: (warning) => warnings.push(warning.message),
  });
  const options = {
    dir: join(root, 'dist'),
    format: 'es',
    entryFileNames: '[name].d.ts',
    // A shared chunk of `codes.d.ts` is `codes-<hash>.d.ts`, not `codes.d-<hash>.d.ts`.
    chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
  };
  await build.generate(options);
  if (warnings.length > 0)
    throw new Error(`rollup (declarations) warned:\n${warnings.map((w) => `- ${w}`).join('\n')}`);
  await build.write(options);
  await build.close();
}

// Stopped by a signal (Ctrl-C during a test run): the scratch folder goes too.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    rmSync(scratch, { recursive: true, force: true });
    process.exit(1);
  });

try {
  emit(!process.argv.includes('--no-check'));
  await bundle();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
