// `npm run fuzz`: every fast-check property in test/*.prop.test.ts with many more runs than CI's
// 150, for a long soak outside CI. A fresh seed each time unless FC_SEED is set; the seed and the
// command that replays it are printed before and after. Any failure exits non-zero, and fast-check
// prints the counterexample with its seed and path.
//
//   npm run fuzz                                    100,000 runs a property, fresh seed
//   FC_SEED=123 FC_NUM_RUNS=1000000 npm run fuzz    replay a seed, or soak longer
//   npm run fuzz -- roundtrip                       only test/roundtrip.prop.test.ts
//   npm run fuzz -- frontMatter                     YAML front matter of any shape and depth
//   npm run fuzz -- walker                          folder walks: links, FIFOs, odd names (on disk,
//                                                   a sixth of the runs)
//   npm run fuzz -- hostileBundle                   static bundles with files changed at random:
//                                                   every call answers or fails with a tool error,
//                                                   nothing outside baseUrl is fetched
//   npm run fuzz -- surface                         the HTTP and MCP surface: any method, path,
//                                                   query, headers, JSON-RPC message or batch is
//                                                   answered, never 500
// In CI (plain `npx vitest run`) each runs 150 times on a fixed seed; FC_NUM_RUNS runs it longer.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const seed =
  process.env.FC_SEED ?? String((Date.now() ^ Math.floor(Math.random() * 2 ** 31)) >>> 0);
const numRuns = process.env.FC_NUM_RUNS ?? '100000';
const filter = process.argv[2] ?? '';
const replay = `FC_SEED=${seed} FC_NUM_RUNS=${numRuns} npm run fuzz${filter ? ` -- ${filter}` : ''}`;
console.log(`fuzz: seed ${seed}, ${numRuns} runs a property. Replay: ${replay}`);

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [vitest, 'run', `${filter}.prop.test`, '--testTimeout=0', '--typecheck.enabled=false'],
  { stdio: 'inherit', env: { ...process.env, FC_SEED: seed, FC_NUM_RUNS: numRuns } },
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  `fuzz: ${result.status === 0 ? 'passed' : 'FAILED'} in ${minutes} min, seed ${seed}. Replay: ${replay}`,
);
process.exitCode = result.status ?? 1;
