// `npm run bench` (check part): `knowledge-kit check` beside `markdownlint-cli2` (the linter content
// repositories already run in CI) on the same folders in the same run, on several shapes of input:
//   main    10,000 files × ~10 KB = ~100 MB of anchored Markdown, about one anchor line in ten (the spec's figure)
//   sparse  few large files (1 MB each) with few anchors
//   tiny    many ~1 KB files, anchor-dense, where process start-up and per-file costs dominate
//   real    the shared corpus of real documentation, read in place (no anchors at all)
// Both tools run as child processes (`node dist/cli.js check .` and markdownlint-cli2's bin on
// `**/*.md`), each with its folder as working directory, so every time includes process start-up.
// Rounds are interleaved (check, markdownlint, check, markdownlint, …); the table shows the median of
// each and the ratio markdownlint / check.
//
//   node bench/check.mjs     (after `npx tsup --silent`: it runs the built bin)
//
// Rounds per shape: up to CHECK_BENCH_ROUNDS (default 3), but no new round once the shape has taken
// CHECK_BENCH_SHAPE_SECONDS (default 20; at least one round always runs). markdownlint-cli2 alone takes
// over two minutes per pass on the 100 MB folder on a 2-core machine, so `main` gets one round by
// default; CHECK_BENCH_SHAPE_SECONDS=Infinity runs every round everywhere (over ten minutes).
// Also CHECK_BENCH_MAIN_FILES (default 10,000; fewer only for a quick try), CHECK_BENCH_SPARSE_FILES
// (default 10), CHECK_BENCH_CORPUS (default ../shared/corpus/markdown beside the repository),
// CHECK_BENCH_SHAPES (a comma-separated subset, such as `tiny,real`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCheckFolder } from './check-corpus.mjs';
import { median, printTable, round } from './harness.mjs';

const ROUNDS = Number(process.env.CHECK_BENCH_ROUNDS ?? 3);
const SHAPE_SECONDS = Number(process.env.CHECK_BENCH_SHAPE_SECONDS ?? 20);
const SPARSE_FILES = Number(process.env.CHECK_BENCH_SPARSE_FILES ?? 10);
const MAIN_FILES = Number(process.env.CHECK_BENCH_MAIN_FILES ?? 10_000);
const CORPUS =
  process.env.CHECK_BENCH_CORPUS ??
  fileURLToPath(new URL('../../shared/corpus/markdown', import.meta.url));
const ONLY = process.env.CHECK_BENCH_SHAPES
  ? new Set(process.env.CHECK_BENCH_SHAPES.split(','))
  : undefined;
const TARGET = 10;

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'dist/cli.js');
const lintPackage = path.join(root, 'node_modules/markdownlint-cli2');
const log = (line) => console.error(line);

if (!existsSync(cli)) {
  console.error('check bench: dist/cli.js is missing; build first (`npx tsup --silent`).');
  process.exit(2);
}
const lintManifest = JSON.parse(readFileSync(path.join(lintPackage, 'package.json'), 'utf8'));
const lintBin = path.join(
  lintPackage,
  typeof lintManifest.bin === 'string' ? lintManifest.bin : lintManifest.bin['markdownlint-cli2'],
);

/** The `.md` files check reads (not dot folders, not node_modules), their bytes, and any markdownlint config in the tree. */
function survey(dir) {
  let files = 0;
  let bytes = 0;
  const configs = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (/^\.markdownlint/.test(e.name)) configs.push(p);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && e.name !== 'node_modules') stack.push(p);
      } else if (e.name.endsWith('.md')) {
        files++;
        bytes += readFileSync(p).length; // also brings the file into the page cache before any timing
      }
    }
  }
  return { files, bytes, configs };
}

const tools = {
  check: {
    command: () => [cli, 'check', '.'],
    // Valid anchors: exit 0. Other folders may legitimately have problems (exit 1); 2 is a failure.
    accept: (status, expectClean) => (expectClean ? status === 0 : status === 0 || status === 1),
    summary: (stdout) => stdout.trimEnd().split('\n').at(-1),
  },
  markdownlint: {
    // Same file set as check: markdownlint-cli2 globs with `dot: true`, so dot folders are excluded here.
    command: () => [lintBin, '**/*.md', '#**/.*/**', '#**/node_modules/**'],
    // Exit 1 means it found lint problems, which it does under its default rules; 2 is a failure.
    accept: (status) => status === 0 || status === 1,
    summary: (stdout) =>
      stdout
        .split('\n')
        .filter((l) => /^(Linting|Summary):/.test(l))
        .join('; '),
  },
};

/** One timed run of `tool` on `dir` as a child process; its lint output (stderr for markdownlint) goes to /dev/null. */
function runOnce(name, dir, expectClean) {
  const tool = tools[name];
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, tool.command(), {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', name === 'markdownlint' ? 'ignore' : 'pipe'],
    maxBuffer: 1 << 30,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.error) throw result.error;
  if (!tool.accept(result.status, expectClean)) {
    throw new Error(
      `${name} on ${dir} exited ${result.status}${result.stderr ? `: ${result.stderr.slice(0, 500)}` : ''}\n${result.stdout.slice(-500)}`,
    );
  }
  return { seconds, status: result.status, summary: tool.summary(result.stdout) };
}

/**
 * Interleaved rounds of both tools on `dir`: up to `rounds`, none started after `budget` seconds (at
 * least one). Medians, ratio, rounds run and the first summaries.
 */
function measure(label, dir, rounds, budget, expectClean) {
  const samples = { check: [], markdownlint: [] };
  const first = {};
  const start = process.hrtime.bigint();
  let r = 0;
  while (r < rounds && (r === 0 || Number(process.hrtime.bigint() - start) / 1e9 < budget)) {
    for (const name of ['check', 'markdownlint']) {
      const run = runOnce(name, dir, expectClean);
      samples[name].push(run.seconds);
      first[name] ??= run;
      log(`  ${label} round ${r + 1}: ${name} ${run.seconds.toFixed(2)} s`);
    }
    r++;
  }
  const check = median(samples.check);
  const lint = median(samples.markdownlint);
  return { check, lint, ratio: lint / check, rounds: r, first, samples };
}

const started = process.hrtime.bigint();
const temp = mkdtempSync(path.join(os.tmpdir(), 'knowledge-kit-check-bench-'));
const shapes = [];
const rows = [];
const summaries = [];
try {
  log(`check bench: generating folders under ${temp} …`);
  shapes.push(
    {
      label: 'main',
      description: `${MAIN_FILES.toLocaleString('en-US')} × ~10 KB`,
      rounds: ROUNDS,
      expectClean: true,
      dir: path.join(temp, 'main'),
      make: (dir) =>
        writeCheckFolder(dir, {
          files: MAIN_FILES,
          bytesPerFile: 10_000,
          anchorShare: 0.1,
          seed: 11,
        }),
    },
    {
      label: 'sparse',
      description: `${SPARSE_FILES} × ~1 MB`,
      rounds: ROUNDS,
      expectClean: true,
      dir: path.join(temp, 'sparse'),
      make: (dir) =>
        writeCheckFolder(dir, {
          files: SPARSE_FILES,
          bytesPerFile: 1_000_000,
          anchorShare: 0.002,
          paragraphSentences: 8,
          fanout: 3,
          seed: 23,
        }),
    },
    {
      label: 'tiny',
      description: '2,000 × ~1 KB',
      rounds: ROUNDS,
      expectClean: true,
      dir: path.join(temp, 'tiny'),
      make: (dir) =>
        writeCheckFolder(dir, {
          files: 2_000,
          bytesPerFile: 1_000,
          anchorShare: 0.2,
          fanout: 20,
          seed: 31,
        }),
    },
  );
  if (ONLY) shapes.splice(0, shapes.length, ...shapes.filter((shape) => ONLY.has(shape.label)));
  for (const shape of shapes) {
    const t = process.hrtime.bigint();
    const made = shape.make(shape.dir);
    shape.description += `, ${((made.anchors / made.lines) * 100).toFixed(1)}% anchor lines`;
    log(
      `  ${shape.label}: ${made.files} files, ${(made.bytes / 1e6).toFixed(1)} MB, ${made.anchors} anchor lines of ${made.lines}, written in ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(1)} s`,
    );
  }
  if (ONLY && !ONLY.has('real')) {
    // left out by CHECK_BENCH_SHAPES
  } else if (existsSync(CORPUS)) {
    shapes.push({
      label: 'real',
      description: `real docs, no anchors (${CORPUS})`,
      rounds: ROUNDS,
      expectClean: false,
      dir: CORPUS,
    });
  } else {
    log(
      `check bench: no real corpus at ${CORPUS} (set CHECK_BENCH_CORPUS); the real-documents shape is skipped.`,
    );
  }

  for (const shape of shapes) {
    const { files, bytes, configs } = survey(shape.dir);
    if (configs.length > 0)
      throw new Error(`a markdownlint config would change its rules: ${configs.join(', ')}`);
    log(
      `check bench: ${shape.label} (${files} files, ${(bytes / 1e6).toFixed(1)} MB), up to ${shape.rounds} rounds within ${SHAPE_SECONDS} s …`,
    );
    const m = measure(shape.label, shape.dir, shape.rounds, SHAPE_SECONDS, shape.expectClean);
    summaries.push(`${shape.label}: check exit ${m.first.check.status}: ${m.first.check.summary}`);
    summaries.push(
      `${shape.label}: markdownlint-cli2 exit ${m.first.markdownlint.status}: ${m.first.markdownlint.summary}`,
    );
    const linted = /Linting: (\d+) file/.exec(m.first.markdownlint.summary)?.[1];
    const checked = /^(\d+) files?,/.exec(m.first.check.summary)?.[1];
    if (linted !== String(files) || checked !== String(files)) {
      summaries.push(
        `${shape.label}: WARNING file counts differ: survey ${files}, check ${checked}, markdownlint ${linted}`,
      );
    }
    rows.push({
      shape: shape.label,
      input: shape.description,
      files,
      MB: round(bytes / 1e6, 1),
      rounds: m.rounds,
      'check s': round(m.check, 2),
      'markdownlint s': round(m.lint, 2),
      ratio: round(m.ratio, 1),
      [`≥${TARGET}×`]: m.ratio >= TARGET ? 'met' : 'NOT met',
    });
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

console.log(
  `\ncheck: knowledge-kit check vs markdownlint-cli2 ${lintManifest.version}, median wall time in seconds (ratio = markdownlint / check, target ≥ ${TARGET}×)`,
);
printTable(rows);
console.log('');
for (const line of summaries) console.log(line);
console.log(`
Notes: both tools run as child processes (\`node\` + the bin), so each time includes process start-up;
each runs with the folder as working directory. markdownlint-cli2 runs with its default configuration
(no config file in any folder; checked), on \`**/*.md\` without dot folders and node_modules (check's
file set); its lint messages go to /dev/null, and its exit code 1 (lint problems found) is expected.
check must exit 0 on the generated folders (their anchors are valid). Rounds are interleaved
(check, markdownlint, check, …) after the files were read once (page cache warm); up to
${ROUNDS} per shape, none started after ${SHAPE_SECONDS} s in the shape; the median of 1 round is its sample, of 2 the
slower one. ${os.cpus().length} CPUs, Node ${process.version}; whole run
${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(0)} s.`);
