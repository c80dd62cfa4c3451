// `npm run bench`: Knowledge Kit's core beside the alternatives, measured side by side in one run.
// Besides the bench corpus: a section-dense 10 MB document, 100,000 documents of 1 KB, and the real
// Markdown of ../shared/corpus/markdown (read in place; skipped when absent).
// Every contender runs in this process, interleaved round by round after a full GC; medians printed.
// `node --expose-gc bench/run.mjs --json` prints one JSON object instead of the tables. Timing lives here, never in
// the test suite. The corpus is generated (bench/corpus.mjs), so every run reads the same bytes.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MarkdownTextSplitter } from '@langchain/textsplitters';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { generateCorpus, generateDenseCorpus } from './corpus.mjs';
import { interleave, megabytes, printTable, requireGc, round, sinkValue } from './harness.mjs';

const json = process.argv.includes('--json');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SLOW_ROUNDS = Number(process.env.BENCH_SLOW_ROUNDS ?? 5); // remark-parse takes seconds a run
const MANY_ROUNDS = Number(process.env.BENCH_MANY_ROUNDS ?? 9); // 100,000 documents: about a second a round
const REAL_CORPUS = fileURLToPath(new URL('../../shared/corpus/markdown', import.meta.url));
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
    'MarkdownTextSplitter.splitText': {
      run: () => splitter.splitText(text1m).then((chunks) => chunks.length),
      repeat: 5,
    },
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
  throw new Error(
    `bench: section ${target} should read the same non-empty content from both documents`,
  );
}
const reads = await interleave(
  {
    'self read, 10 KB document': {
      run: () => catalog.read(request('small')).content.length,
      repeat: 20_000,
    },
    'self read, 10 MB document': {
      run: () => catalog.read(request('bench')).content.length,
      repeat: 20_000,
    },
  },
  { rounds: ROUNDS },
);
// Beside it, the floor for any API that returns the text as a new string: one flat copy of the source.
const documentRead = await interleave(
  {
    'document read, 10 MB document': {
      run: () =>
        catalog.read({ documentId: 'bench', selection: { mode: 'document' } }).content.length,
    },
    'flat copy of the 10 MB source text': { run: () => (text10m + ' ').slice(0, -1).length },
  },
  { rounds: ROUNDS },
);

// 5. The shapes real knowledge bases have. A section-dense 10 MB document (about one line in five an
// anchor, nested to depth 3, Chinese and English): parse beside the floor, compile beside parse.
log('section-dense 10 MB document …');
const textDense = generateDenseCorpus(10_000_000);
const docDense = parse(textDense, 'dense');
const dense = await interleave(
  {
    parseKnowledgeDocument: { run: () => parse(textDense, 'dense').parts.length },
    "text.split('\\n')": { run: () => textDense.split('\n').length },
    defineKnowledgeCatalog: { run: () => defineKnowledgeCatalog([docDense]).ids.length },
  },
  { rounds: ROUNDS },
);
const denseSections = defineKnowledgeCatalog([docDense]).sectionIds('dense').length;

// 6. Real Markdown nobody on this project wrote (../shared/corpus/markdown), read in place: parse of
// every file beside the floor, compile of all of them beside parse. Skipped when the folder is absent.
let real;
const realFiles = existsSync(REAL_CORPUS) ? markdownFiles(REAL_CORPUS) : [];
if (realFiles.length === 0) {
  log(`real documents: skipped, ${REAL_CORPUS} is absent`);
} else {
  log(`real documents (${realFiles.length} files) …`);
  const inputs = realFiles.map((file) => ({
    id: path.relative(REAL_CORPUS, file),
    text: readFileSync(file, 'utf8'),
  }));
  // A file the parser refuses (say, an anchor-like line in an unclosed fence) is left out and counted.
  const parsable = inputs.filter(({ id, text }) => {
    try {
      parse(text, id);
      return true;
    } catch {
      return false;
    }
  });
  const realDocs = parsable.map(({ id, text }) => parse(text, id));
  const parseAll = () => parsable.map(({ id, text }) => parse(text, id)).length;
  const splitAll = () => parsable.reduce((lines, { text }) => lines + text.split('\n').length, 0);
  const timings = await interleave(
    {
      parseKnowledgeDocument: { run: parseAll },
      "text.split('\\n')": { run: splitAll },
      defineKnowledgeCatalog: { run: () => defineKnowledgeCatalog(realDocs).ids.length },
    },
    { rounds: ROUNDS },
  );
  real = {
    timings,
    files: realFiles.length,
    refused: inputs.length - parsable.length,
    utf8Megabytes:
      parsable.reduce((sum, { text }) => sum + Buffer.byteLength(text, 'utf8'), 0) / 1e6,
    sections: realDocs.reduce(
      (sum, doc) => sum + defineKnowledgeCatalog([doc]).sectionIds(doc.id).length,
      0,
    ),
  };
}

// 7. 100,000 documents of about 1 KB each: compile beside the parse of the same documents.
log('100,000 documents of 1 KB …');
const MANY = 100_000;
const manyTexts = Array.from({ length: MANY }, (_, i) => generateCorpus(1_000, i + 1));
const manyIds = manyTexts.map((_, i) => `doc-${i}`);
const manyDocs = manyTexts.map((text, i) => parse(text, manyIds[i]));
const many = await interleave(
  {
    parseKnowledgeDocument: {
      run: () => manyTexts.map((text, i) => parse(text, manyIds[i])).length,
    },
    defineKnowledgeCatalog: { run: () => defineKnowledgeCatalog(manyDocs).ids.length },
  },
  { rounds: MANY_ROUNDS, warmup: 2 },
);
const manySections = manyDocs.reduce((sum, doc) => sum + countSections(doc), 0);
const manyMegabytes =
  manyTexts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0) / 1e6;

// 8. Retained heap of a catalog of 200 × 50 KB documents, in a clean process.
log('retained heap …');
const heap = JSON.parse(
  execFileSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(new URL('./heap.mjs', import.meta.url))],
    { encoding: 'utf8' },
  ),
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
  {
    figure: 'parse throughput / remark-parse, 1 MB',
    value: parse1m['unified().use(remarkParse).parse'].medianMs / kk1,
    target: 500,
    at: 'least',
  },
  {
    figure: 'parse throughput / MarkdownTextSplitter, 1 MB',
    value: parse1m['MarkdownTextSplitter.splitText'].medianMs / kk1,
    target: 3,
    at: 'least',
  },
  {
    figure: 'defineKnowledgeCatalog time / parse time, 10 MB',
    value: compile.defineKnowledgeCatalog.medianMs / compile.parseKnowledgeDocument.medianMs,
    target: 1,
    at: 'most',
  },
  {
    figure: 'self read in 10 MB document / in 10 KB document',
    value:
      reads['self read, 10 MB document'].medianMs / reads['self read, 10 KB document'].medianMs,
    target: 2,
    at: 'most',
  },
  {
    figure: 'retained catalog heap / source bytes (UTF-16)',
    value: heap.retainedPerSourceByte,
    target: 2,
    at: 'most',
  },
  {
    figure: "section-dense 10 MB: parse throughput / text.split('\\n') floor",
    value: dense["text.split('\\n')"].medianMs / dense.parseKnowledgeDocument.medianMs,
    target: 0.6,
    at: 'least',
  },
  {
    figure: 'section-dense 10 MB: defineKnowledgeCatalog time / parse time',
    value: dense.defineKnowledgeCatalog.medianMs / dense.parseKnowledgeDocument.medianMs,
    target: 1,
    at: 'most',
  },
  {
    figure: '100,000 × 1 KB documents: defineKnowledgeCatalog time / parse time',
    value: many.defineKnowledgeCatalog.medianMs / many.parseKnowledgeDocument.medianMs,
    target: 1,
    at: 'most',
  },
].map((f) => ({
  ...f,
  value: round(f.value, f.value >= 100 ? 0 : 2),
  met: f.at === 'least' ? f.value >= f.target : f.value <= f.target,
}));
// Measured beside the targets, without one of their own.
const context = [
  {
    figure: 'document read of 10 MB / one flat copy of its source',
    value: round(
      documentRead['document read, 10 MB document'].medianMs /
        documentRead['flat copy of the 10 MB source text'].medianMs,
    ),
  },
  {
    figure: 'catalog heap beyond the source text / source bytes',
    value: round(heap.structurePerSourceByte),
  },
  ...(real === undefined
    ? []
    : [
        {
          figure: "real Markdown files: parse throughput / text.split('\\n') floor",
          value: round(
            real.timings["text.split('\\n')"].medianMs /
              real.timings.parseKnowledgeDocument.medianMs,
          ),
        },
        {
          figure: 'real Markdown files: defineKnowledgeCatalog time / parse time',
          value: round(
            real.timings.defineKnowledgeCatalog.medianMs /
              real.timings.parseKnowledgeDocument.medianMs,
          ),
        },
      ]),
];

const timing = (group, mb) =>
  Object.fromEntries(
    Object.entries(group).map(([name, r]) => [
      name,
      {
        medianMs: round(r.medianMs, 4),
        minMs: round(r.minMs, 4),
        samples: r.samples,
        ...(mb ? { mbPerSecond: round(mbps(mb, r.medianMs), 1) } : {}),
      },
    ]),
  );
const report = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  corpus: {
    '10 MB': {
      utf8Megabytes: round(mb10),
      utf16Units: text10m.length,
      lines: text10m.split('\n').length,
      sections: catalog.sectionIds('bench').length,
    },
    '1 MB': { utf8Megabytes: round(mb1), utf16Units: text1m.length },
    '10 KB': {
      utf8Bytes: Buffer.byteLength(text10k, 'utf8'),
      selfReadSection: target,
      selfReadChars: smallContent.length,
    },
    'section-dense 10 MB': {
      utf8Megabytes: round(megabytes(textDense)),
      utf16Units: textDense.length,
      lines: textDense.split('\n').length,
      sections: denseSections,
    },
    '100,000 × 1 KB': {
      documents: MANY,
      utf8Megabytes: round(manyMegabytes),
      sections: manySections,
    },
    real:
      real === undefined
        ? { skipped: `${REAL_CORPUS} is absent` }
        : {
            files: real.files,
            refused: real.refused,
            utf8Megabytes: round(real.utf8Megabytes),
            sections: real.sections,
          },
  },
  rounds: { fast: ROUNDS, slow: SLOW_ROUNDS, manyDocuments: MANY_ROUNDS },
  timings: {
    parse10MB: timing(parse10m, mb10),
    parse1MB: timing(parse1m, mb1),
    compile10MB: timing(compile),
    selfRead: timing(reads),
    documentRead10MB: timing(documentRead),
    sectionDense10MB: timing(dense, megabytes(textDense)),
    ...(real === undefined ? {} : { realMarkdown: timing(real.timings, real.utf8Megabytes) }),
    documents100k: timing(many, manyMegabytes),
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
  console.log(
    `Knowledge Kit bench — ${report.node}, ${report.cpu} (${report.cores} cores); medians of ${ROUNDS} interleaved rounds (${SLOW_ROUNDS} beside remark-parse)`,
  );
  console.log(
    `Corpus: ${report.corpus['10 MB'].utf8Megabytes} MB, ${report.corpus['10 MB'].lines} lines, ${report.corpus['10 MB'].sections} sections; 1 MB and 10 KB from the same generator.`,
  );
  const d = report.corpus['section-dense 10 MB'];
  console.log(
    `Section-dense: ${d.utf8Megabytes} MB, ${d.lines} lines, ${d.sections} sections (${round((2 * d.sections) / d.lines)} of the lines are anchors), depth ≤ 3.`,
  );
  const m = report.corpus['100,000 × 1 KB'];
  console.log(
    `Many documents: ${m.documents} documents, ${m.utf8Megabytes} MB in all, ${m.sections} sections (medians of ${MANY_ROUNDS} rounds).`,
  );
  const r = report.corpus.real;
  console.log(
    r.skipped
      ? `Real Markdown: skipped, ${r.skipped}.\n`
      : `Real Markdown: ${r.files} files read in place, ${r.utf8Megabytes} MB, ${r.sections} sections${r.refused > 0 ? `; ${r.refused} refused by the parser, left out` : ''}.\n`,
  );
  for (const [title, group] of Object.entries(report.timings)) {
    console.log(`${title}:`);
    printTable(
      Object.entries(group).map(([name, r]) => ({
        contender: name,
        'median ms': r.medianMs,
        'min ms': r.minMs,
        ...(r.mbPerSecond ? { 'MB/s': r.mbPerSecond } : {}),
      })),
    );
    console.log('');
  }
  console.log(
    `retained heap: ${round(heap.retainedHeapBytes / 1e6, 1)} MB for ${heap.documents} documents, ${round(heap.sourceBytesUtf16 / 1e6, 1)} MB of source (UTF-16), ` +
      `of which the source text itself is ${round(heap.sourceHeapBytes / 1e6, 1)} MB\n`,
  );
  printTable([
    ...figures.map((f) => ({
      figure: f.figure,
      value: f.value,
      target: `${f.at === 'least' ? '>=' : '<='} ${f.target}`,
      met: f.met ? 'yes' : 'MISSED',
    })),
    ...context.map((f) => ({ figure: f.figure, value: f.value, target: '', met: '' })),
  ]);
}

/** Every `.md` file under `dir`, sorted, so every run reads the same files in the same order. */
function markdownFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** The number of sections in `document`. */
function countSections(document) {
  let count = 0;
  const stack = [...document.parts];
  while (stack.length > 0) {
    const part = stack.pop();
    if (typeof part === 'string') continue;
    count++;
    stack.push(...part.parts);
  }
  return count;
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
