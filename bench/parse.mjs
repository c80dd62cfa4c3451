// `npm run bench`: parse throughput on a generated 10 MB document, beside `text.split('\n')` as the
// floor no line-oriented parser can beat. Contenders run interleaved in one process; medians printed.
// Timing lives here, never in the test suite.
import { parseKnowledgeDocument } from 'knowledge-kit';
import { generateCorpus } from './corpus.mjs';

const SIZE = 10_000_000; // bytes of UTF-8: MB here are 10^6 bytes
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const json = process.argv.includes('--json');

const text = generateCorpus(SIZE);
const megabytes = Buffer.byteLength(text, 'utf8') / 1e6;

const contenders = {
  parseKnowledgeDocument: () => parseKnowledgeDocument({ id: 'bench', revision: 'r1', text }).parts.length,
  "text.split('\\n')": () => text.split('\n').length,
};

const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
let sink = 0;
for (let round = 0; round < ROUNDS + 3; round++) {
  for (const [name, run] of Object.entries(contenders)) {
    const start = process.hrtime.bigint();
    sink += run();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (round >= 3) samples[name].push(ms); // the first rounds warm up the JIT
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => {
    const ms = median(values);
    return [name, { medianMs: Number(ms.toFixed(2)), mbPerSecond: Number((megabytes / (ms / 1000)).toFixed(1)) }];
  }),
);
const ratio = results.parseKnowledgeDocument.mbPerSecond / results["text.split('\\n')"].mbPerSecond;
const report = {
  node: process.version,
  document: { utf8Megabytes: Number(megabytes.toFixed(2)), utf16Units: text.length, lines: text.split('\n').length },
  rounds: ROUNDS,
  results,
  ratios: { parseOverSplitFloor: Number(ratio.toFixed(2)) },
  sink,
};

if (json) console.log(JSON.stringify(report));
else {
  console.log(`Parse throughput on a generated ${report.document.utf8Megabytes} MB document (${report.document.lines} lines), median of ${ROUNDS} interleaved rounds, ${process.version}`);
  console.table(Object.fromEntries(Object.entries(results).map(([name, r]) => [name, { 'median ms': r.medianMs, 'MB/s': r.mbPerSecond }])));
  console.log(`parse / split('\\n') floor: ${report.ratios.parseOverSplitFloor}`);
}
