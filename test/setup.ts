import fc from 'fast-check';

// Properties run with a fixed seed so CI is repeatable; `npm run fuzz` raises the run count and may
// change the seed through these variables. A failure prints the seed and path to replay it.
const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_NUM_RUNS'] ?? 150);
fc.configureGlobal({ seed, numRuns });
