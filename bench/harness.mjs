// Measurement helpers shared by the bench scripts. Timing lives here, never in the test suite.

/** `globalThis.gc`, or a loud failure: every sample starts from a collected heap. */
export function requireGc() {
  if (typeof globalThis.gc !== 'function') {
    throw new Error(
      'Run the bench with `node --expose-gc` (the npm scripts do): samples start from a collected heap.',
    );
  }
  return globalThis.gc;
}

/** The median of `values` (the upper one for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

let sink = 0;
/** Keep a result alive so the JIT cannot drop the work that made it. */
export function consume(value) {
  sink =
    (sink + (typeof value === 'number' ? value : value === undefined || value === null ? 0 : 1)) |
    0;
}
export function sinkValue() {
  return sink;
}

/**
 * Time `contenders` interleaved: every round runs each contender once, in turn, after a full GC.
 * A contender is `{ run, repeat? }`; one sample is `repeat` calls (default 1) and is recorded per
 * call. The first `warmup` rounds are not recorded. Returns per-contender median and min in ms.
 * `run` may return a promise (LangChain's splitter is async); it is awaited inside the sample.
 */
export async function interleave(contenders, { rounds, warmup = 5 }) {
  const gc = requireGc();
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const [name, { run, repeat = 1 }] of Object.entries(contenders)) {
      gc();
      const start = process.hrtime.bigint();
      for (let i = 0; i < repeat; i++) {
        const result = run();
        consume(result instanceof Promise ? await result : result);
      }
      const ms = Number(process.hrtime.bigint() - start) / 1e6 / repeat;
      if (round >= warmup) samples[name].push(ms);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [
      name,
      { medianMs: median(values), minMs: Math.min(...values), samples: values.length },
    ]),
  );
}

/** Round to `digits` significant-ish decimals for printing and JSON. */
export function round(value, digits = 2) {
  return Number(value.toFixed(digits));
}

/** UTF-8 bytes of `text`, in MB of 10^6 bytes. */
export function megabytes(text) {
  return Buffer.byteLength(text, 'utf8') / 1e6;
}

/** Print `rows` (objects with the same keys) as an aligned text table, numbers right-aligned. */
export function printTable(rows) {
  const keys = Object.keys(rows[0]);
  const cell = (v) =>
    typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 4 }) : String(v);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => cell(r[k]).length)));
  const line = (values, numeric) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const numeric = keys.map((k) => typeof rows[0][k] === 'number');
  console.log(line(keys, numeric));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows)
    console.log(
      line(
        keys.map((k) => cell(r[k])),
        numeric,
      ),
    );
}
