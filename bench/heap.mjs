// Retained heap of a catalog: 200 generated documents of 50 KB each, parsed and compiled, then
// everything but the catalog dropped. Run in its own process by bench/run.mjs (a clean heap), with
// `--expose-gc`. Prints one JSON object.
import { defineKnowledgeCatalog, parseKnowledgeDocument } from 'knowledge-kit';
import { generateCorpus } from './corpus.mjs';
import { requireGc } from './harness.mjs';

const DOCUMENTS = Number(process.argv[2] ?? 200);
const BYTES = Number(process.argv[3] ?? 50_000);
const gc = requireGc();
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const before = heapUsed();
let texts = Array.from({ length: DOCUMENTS }, (_, i) => generateCorpus(BYTES, 1000 + i));
const sourceBytes = texts.reduce((sum, text) => sum + text.length * 2, 0);
const withTexts = heapUsed();
let documents = texts.map((text, i) =>
  parseKnowledgeDocument({ id: `doc-${i}`, revision: 'r1', text }),
);
const catalog = defineKnowledgeCatalog(documents);
texts = undefined;
documents = undefined;
const retained = heapUsed() - before;
// Touch the catalog after the measurement so it is certainly alive through it.
const sections = catalog.ids.reduce((sum, id) => sum + catalog.sectionIds(id).length, 0);

console.log(
  JSON.stringify({
    documents: DOCUMENTS,
    utf8BytesEach: BYTES,
    sections,
    sourceBytesUtf16: sourceBytes,
    sourceHeapBytes: withTexts - before,
    retainedHeapBytes: retained,
    retainedPerSourceByte: retained / sourceBytes,
    structurePerSourceByte: (retained - (withTexts - before)) / sourceBytes,
  }),
);
