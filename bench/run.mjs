// `npm run bench`: Knowledge Kit's core beside the alternatives, measured side by side in one run.
// Every contender runs in this process, interleaved round by round after a full GC; medians printed.
// `npm run -s bench -- --json` prints one JSON object instead of the tables. Timing lives here, never in
// the test suite. The corpus is generated (bench/corpus.mjs), so every run reads the same bytes.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MarkdownTextSplitter } from '@langchain/textsplitters';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { generateCorpus } from './corpus.mjs';
import { interleave, megabytes, printTable, requireGc, round, sinkValue } from './harness.mjs';

const json = process.argv.includes('--json');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SLOW_ROUNDS = Number(process.env.BENCH_SLOW_ROUNDS ?? 5); // remark-parse takes seconds a run
requireGc();
const log = (line) => {
  if (!json) console.error(line);
};

const parse = (text, id = 'bench') => parseKnowledgeDocument({ id, revision: 'r1', text });

// 1. Parse on 10 MB beside the split('\n') floor.
log('parse, 10 MB …');
const text10m = generateCorpus(10_000_000);
const parse10m = await interleave(
  {
    parseKnowledgeDocument: { run: () => parse(text10m).parts.length },
    "text.split('\\n')": { run: () => text10m.split('\n').length },
  },
  { rounds: ROUNDS },
);

// 2. Parse on 1 MB beside remark-parse and LangChain's MarkdownTextSplitter.
log('parse, 1 MB, beside remark-parse and MarkdownTextSplitter …');
const text1m = generateCorpus(1_000_000);
const remark = unified().use(remarkParse);
const splitter = new MarkdownTextSplitter({ chunkSize: 1000, chunkOverlap: 0 });
const parse1m = await interleave(
  {
    parseKnowledgeDocument: { run: () => parse(text1m).parts.length, repeat: 20 },
    'unified().use(remarkParse).parse': { run: () => remark.parse(text1m).children.length },
    'MarkdownTextSplitter.splitText': { run: () => splitter.splitText(text1m).then((chunks) => chunks.length), repeat: 5 },
  },
  { rounds: SLOW_ROUNDS, warmup: 1 },
);

// 3. defineKnowledgeCatalog beside parse, same 10 MB document.
log('defineKnowledgeCatalog, 10 MB …');
const doc10m = parse(text10m);
const compile = await interleave(
  {
    parseKnowledgeDocument: { run: () => parse(text10m).parts.length },
    defineKnowledgeCatalog: { run: () => defineKnowledgeCatalog([doc10m]).ids.length },
  },
  { rounds: ROUNDS },
);

// 4. One small `self` read in a 10 KB document and in a 10 MB document. The generator is sequential,
// so the 10 KB document is the start of the 10 MB one: the same section, the same content.
log('reads …');
const text10k = generateCorpus(10_000);
const catalog = defineKnowledgeCatalog([parse(text10k, 'small'), doc10m]);
const target = deepestSection(parse(text10k));
const request = (documentId) => ({ documentId, selection: { mode: 'self', sectionIds: [target] } });
const smallContent = catalog.read(request('small')).content;
if (smallContent !== catalog.read(request('bench')).content || smallContent.length === 0) {
  throw new Error(`bench: section ${target} should read the same non-empty content from both documents`);
}
const reads = await interleave(
  {
    'self read, 10 KB document': { run: () => catalog.read(request('small')).content.length, repeat: 20_000 },
    'self read, 10 MB document': { run: () => catalog.read(request('bench')).content.length, repeat: 20_000 },
  },
  { rounds: ROUNDS },
);
// Beside it, the floor for any API that returns the text as a new string: one flat copy of the source.
const documentRead = await interleave(
  {
    'document read, 10 MB document': { run: () => catalog.read({ documentId: 'bench', selection: { mode: 'document' } }).content.length },
    'flat copy of the 10 MB source text': { run: () => (text10m + ' ').slice(0, -1).length },
  },
  { rounds: ROUNDS },
);

// 5. Retained heap of a catalog of 200 × 50 KB documents, in a clean process.
log('retained heap …');
const heap = JSON.parse(
  execFileSync(process.execPath, ['--expose-gc', fileURLToPath(new URL('./heap.mjs', import.meta.url))], { encoding: 'utf8' }),
);

const mbps = (mb, ms) => mb / (ms / 1000);
const mb10 = megabytes(text10m);
const mb1 = megabytes(text1m);
const kk1 = parse1m.parseKnowledgeDocument.medianMs;
const figures = [
  {
    figure: "parse throughput / text.split('\\n') floor, 10 MB",
    value: parse10m["text.split('\\n')"].medianMs / parse10m.parseKnowledgeDocument.medianMs,
    target: 0.5,
    at: 'least',
  },
  { figure: 'parse throughput / remark-parse, 1 MB', value: parse1m['unified().use(remarkParse).parse'].medianMs / kk1, target: 500, at: 'least' },
  { figure: 'parse throughput / MarkdownTextSplitter, 1 MB', value: parse1m['MarkdownTextSplitter.splitText'].medianMs / kk1, target: 3, at: 'least' },
  {
    figure: 'defineKnowledgeCatalog time / parse time, 10 MB',
    value: compile.defineKnowledgeCatalog.medianMs / compile.parseKnowledgeDocument.medianMs,
    target: 1,
    at: 'most',
  },
  {
    figure: 'self read in 10 MB document / in 10 KB document',
    value: reads['self read, 10 MB document'].medianMs / reads['self read, 10 KB document'].medianMs,
    target: 2,
    at: 'most',
  },
  { figure: 'retained catalog heap / source bytes (UTF-16)', value: heap.retainedPerSourceByte, target: 2, at: 'most' },
].map((f) => ({ ...f, value: round(f.value, f.value >= 100 ? 0 : 2), met: f.at === 'least' ? f.value >= f.target : f.value <= f.target }));
// Measured beside the targets, without one of their own.
const context = [
  {
    figure: 'document read of 10 MB / one flat copy of its source',
    value: round(documentRead['document read, 10 MB document'].medianMs / documentRead['flat copy of the 10 MB source text'].medianMs),
  },
  { figure: 'catalog heap beyond the source text / source bytes', value: round(heap.structurePerSourceByte) },
];

const timing = (group, mb) =>
  Object.fromEntries(
    Object.entries(group).map(([name, r]) => [
      name,
      { medianMs: round(r.medianMs, 4), minMs: round(r.minMs, 4), samples: r.samples, ...(mb ? { mbPerSecond: round(mbps(mb, r.medianMs), 1) } : {}) },
    ]),
  );
const report = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  corpus: {
    '10 MB': { utf8Megabytes: round(mb10), utf16Units: text10m.length, lines: text10m.split('\n').length, sections: catalog.sectionIds('bench').length },
    '1 MB': { utf8Megabytes: round(mb1), utf16Units: text1m.length },
    '10 KB': { utf8Bytes: Buffer.byteLength(text10k, 'utf8'), selfReadSection: target, selfReadChars: smallContent.length },
  },
  rounds: { fast: ROUNDS, slow: SLOW_ROUNDS },
  timings: {
    parse10MB: timing(parse10m, mb10),
    parse1MB: timing(parse1m, mb1),
    compile10MB: timing(compile),
    selfRead: timing(reads),
    documentRead10MB: timing(documentRead),
  },
  heap,
  figures,
  context,
  allTargetsMet: figures.every((f) => f.met),
  sink: sinkValue(),
};

if (json) {
  console.log(JSON.stringify(report));
} else {
  console.log(`Knowledge Kit bench — ${report.node}, ${report.cpu} (${report.cores} cores); medians of ${ROUNDS} interleaved rounds (${SLOW_ROUNDS} beside remark-parse)`);
  console.log(`Corpus: ${report.corpus['10 MB'].utf8Megabytes} MB, ${report.corpus['10 MB'].lines} lines, ${report.corpus['10 MB'].sections} sections; 1 MB and 10 KB from the same generator.\n`);
  for (const [title, group] of Object.entries(report.timings)) {
    console.log(`${title}:`);
    printTable(
      Object.entries(group).map(([name, r]) => ({ contender: name, 'median ms': r.medianMs, 'min ms': r.minMs, ...(r.mbPerSecond ? { 'MB/s': r.mbPerSecond } : {}) })),
    );
    console.log('');
  }
  console.log(
    `retained heap: ${round(heap.retainedHeapBytes / 1e6, 1)} MB for ${heap.documents} documents, ${round(heap.sourceBytesUtf16 / 1e6, 1)} MB of source (UTF-16), ` +
      `of which the source text itself is ${round(heap.sourceHeapBytes / 1e6, 1)} MB\n`,
  );
  printTable([
    ...figures.map((f) => ({ figure: f.figure, value: f.value, target: `${f.at === 'least' ? '>=' : '<='} ${f.target}`, met: f.met ? 'yes' : 'MISSED' })),
    ...context.map((f) => ({ figure: f.figure, value: f.value, target: '', met: '' })),
  ]);
}

/** The ID of the first section at the greatest depth in `document`. */
function deepestSection(document) {
  let best = { id: undefined, depth: 0 };
  const stack = document.parts.map((part) => [part, 1]);
  while (stack.length > 0) {
    const [part, depth] = stack.shift();
    if (typeof part === 'string') continue;
    if (depth > best.depth) best = { id: part.id, depth };
    stack.push(...part.parts.map((child) => [child, depth + 1]));
  }
  if (best.id === undefined) throw new Error('bench: the 10 KB document has no section');
  return best.id;
}
