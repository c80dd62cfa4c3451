import fc from 'fast-check';

// Properties run with a fixed seed so CI is repeatable; `npm run fuzz` raises the run count and may
// change the seed through these variables. A failure prints the seed and path to replay it.
const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_NUM_RUNS'] ?? 150);
fc.configureGlobal({ seed, numRuns });

// `mcp` and `serve` keep a cursor key in the user's state folder: tests (and the commands they spawn,
// which inherit this environment) keep theirs in a temporary one, never in the user's.
if (process.env['KK_TEST_STATE_HOME'] === undefined) {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  process.env['KK_TEST_STATE_HOME'] = mkdtempSync(join(tmpdir(), 'kk-state-'));
}
process.env['XDG_STATE_HOME'] = process.env['KK_TEST_STATE_HOME'];
