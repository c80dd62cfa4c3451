// `npm run bench:host`: how much the section-dense figure of `npm run bench` depends on the state of
// the machine it runs on, measured in one process on one build. Each round times a probe (a loop of
// `indexOf('\n')` over the text: no allocation, no code of ours), then the parse and the
// `split('\n')` floor back to back, in alternating order, each after a full GC, then the probe again.
// Rounds come in bursts of 5 with a pause between, so a run sees the host change. The rounds are then
// grouped by the probe's time: "quiet" within 12% of its fastest, "busy" 25% or more above it. On a
// shared VM the probe moves by a quarter or more when something else loads the physical core, and the
// parse slows more than the floor does (docs/performance.md, "The host's state").
//
//   npm run bench:host                 80 rounds (BENCH_HOST_ROUNDS), a few lines of text
//   npm run bench:host -- --json       one JSON object
import { parseKnowledgeDocument } from 'knowledge-kit';
import { generateDenseCorpus } from './corpus.mjs';
import { median, requireGc, round } from './harness.mjs';

const json = process.argv.includes('--json');
const ROUNDS = Number(process.env.BENCH_HOST_ROUNDS ?? 80);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  throw new Error(
    `BENCH_HOST_ROUNDS must be a whole number of rounds, 1 or more; got ${JSON.stringify(process.env.BENCH_HOST_ROUNDS)}`,
  );
}
const gc = requireGc();
const text = generateDenseCorpus(10_000_000);

const parse = () => parseKnowledgeDocument({ id: 'dense', revision: 'r1', text }).parts.length;
const split = () => text.split('\n').length;
const probe = () => {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
};
let sink = 0;
const time = (run) => {
  gc();
  const start = process.hrtime.bigint();
  sink ^= run();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

for (let i = 0; i < 5; i++) [probe, parse, split].forEach(time);
const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const before = time(probe);
  let parseMs;
  let splitMs;
  if (r % 2 === 0) {
    parseMs = time(parse);
    splitMs = time(split);
  } else {
    splitMs = time(split);
    parseMs = time(parse);
  }
  rounds.push({ probeMs: (before + time(probe)) / 2, parseMs, splitMs });
  if (r % 5 === 4 && r < ROUNDS - 1) await new Promise((resolve) => setTimeout(resolve, 250));
}

const fastest = Math.min(...rounds.map((r) => r.probeMs));
const summary = (name, group) =>
  group.length === 0
    ? { state: name, rounds: 0 }
    : {
        state: name,
        rounds: group.length,
        'probe ms': round(median(group.map((r) => r.probeMs)), 1),
        'split ms': round(median(group.map((r) => r.splitMs)), 1),
        'parse ms': round(median(group.map((r) => r.parseMs)), 1),
        // The median of each round's own ratio, since both sides of a round ran in the same state
        // (`npm run bench` divides the two medians instead).
        'parse / floor': round(median(group.map((r) => r.splitMs / r.parseMs)), 3),
      };
const groups = [
  summary('all', rounds),
  summary(
    'quiet',
    rounds.filter((r) => r.probeMs < fastest * 1.12),
  ),
  summary(
    'busy',
    rounds.filter((r) => r.probeMs >= fastest * 1.25),
  ),
];

if (json)
  console.log(
    JSON.stringify({
      node: process.version,
      rounds: ROUNDS,
      fastestProbeMs: round(fastest, 2),
      groups,
      sink,
    }),
  );
else {
  console.log(
    `Section-dense 10 MB parse beside the split('\\n') floor, by the host's state; ${ROUNDS} rounds, target ≥ 0.6`,
  );
  console.log(
    `quiet: probe within 12% of this run's fastest (${round(fastest, 1)} ms); busy: 25% or more above it`,
  );
  for (const g of groups) {
    console.log(
      g.rounds === 0
        ? `${g.state.padEnd(5)}  no rounds`
        : `${g.state.padEnd(5)}  ${String(g.rounds).padStart(3)} rounds  probe ${g['probe ms']} ms  split ${g['split ms']} ms  parse ${g['parse ms']} ms  parse / floor ${g['parse / floor']}`,
    );
  }
}
