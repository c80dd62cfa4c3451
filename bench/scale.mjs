// `npm run bench:scale`: the core at sizes far past any test, each case in its own Node process so
// its peak memory is its own. Cases: 100,000-deep nesting through parse, compile, subtree read and
// format; a catalog of 100,000 small documents; one 100 MB document parsed, compiled and read; a
// text with a million problems, all reported.
// Each case checks what it produced; any failure (a wrong result, a throw, a crash, running out of
// memory) makes the run exit 1 with the child's output. Takes a minute or two. Not part of npm test.
//
//   npm run bench:scale                    all cases, a table
//   npm run bench:scale -- --json          one JSON object
//   npm run bench:scale -- --case deep     one case (deep | documents | large | errors)
//   npm run bench:scale -- --case gigabyte a 1 GB knowledge base (opt-in: minutes, ~4 GB of heap)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  parseKnowledgeDocument,
} from 'knowledge-kit';
import { generateCorpus } from './corpus.mjs';
import { printTable, round } from './harness.mjs';

const CASES = {
  /** 100,000 sections, each inside the one before. */
  deep: (phase) => {
    const DEPTH = 100_000;
    const text = phase('generate', () => {
      const lines = [];
      for (let i = 0; i < DEPTH; i++) lines.push(`<!-- agent-section:s${i} -->`, `text ${i}`);
      for (let i = DEPTH - 1; i >= 0; i--) lines.push(`<!-- /agent-section:s${i} -->`);
      return `${lines.join('\n')}\n`;
    });
    const doc = phase('parse', () => parseKnowledgeDocument({ id: 'deep', revision: 'r1', text }));
    const catalog = phase('compile', () => defineKnowledgeCatalog([doc]));
    check(catalog.sectionIds('deep').length === DEPTH, `${DEPTH} section IDs`);
    const whole = phase('subtree read', () =>
      catalog.read({ documentId: 'deep', selection: { mode: 'subtree', sectionIds: ['s0'] } }),
    );
    check(
      whole.content.startsWith('text 0\n\ntext 1\n\n') &&
        whole.content.endsWith(`text ${DEPTH - 1}`),
      'the subtree read holds every level',
    );
    const formatted = phase('format', () => formatKnowledgeDocument(catalog.document('deep')));
    const again = phase('parse formatted', () =>
      parseKnowledgeDocument({ id: 'deep', revision: 'r1', text: formatted }),
    );
    check(
      formatKnowledgeDocument(again) === formatted,
      'format is a fixed point after a round trip',
    );
    return { sections: DEPTH, utf16Units: text.length };
  },

  /** 100,000 documents of about 1 KB each in one catalog. */
  documents: (phase) => {
    const COUNT = 100_000;
    const { texts, catalog } = manyDocuments(phase, COUNT, 1_000);
    const reads = phase('read every document', () => {
      let chars = 0;
      for (const documentId of catalog.ids)
        chars += catalog.read({ documentId, selection: { mode: 'document' } }).content.length;
      return chars;
    });
    check(reads > 0, 'the documents read back non-empty');
    const sections = catalog.ids.reduce((sum, id) => sum + catalog.sectionIds(id).length, 0);
    return {
      documents: COUNT,
      sections,
      utf16Units: texts.reduce((sum, text) => sum + text.length, 0),
    };
  },

  /** One 100 MB document. */
  large: (phase) => {
    const text = phase('generate', () => generateCorpus(100_000_000));
    const lines = phase("text.split('\\n'), the floor, for scale", () => text.split('\n').length);
    const doc = phase('parse', () => parseKnowledgeDocument({ id: 'large', revision: 'r1', text }));
    const catalog = phase('compile', () => defineKnowledgeCatalog([doc]));
    const ids = catalog.sectionIds('large');
    const last = ids[ids.length - 1];
    const self = phase('self read, last section', () =>
      catalog.read({ documentId: 'large', selection: { mode: 'self', sectionIds: [last] } }),
    );
    check(self.content.length > 0, 'the last section reads non-empty');
    const whole = phase('document read', () =>
      catalog.read({ documentId: 'large', selection: { mode: 'document' } }),
    );
    check(whole.content.length > 0.9 * text.length, 'the whole document reads back');
    return {
      sections: ids.length,
      lines,
      utf16Units: text.length,
      utf8Megabytes: round(Buffer.byteLength(text, 'utf8') / 1e6),
    };
  },

  /** A hostile text: one million stray close anchors, every one reported. */
  errors: (phase) => {
    const COUNT = 1_000_000;
    const text = phase('generate', () => '<!-- /agent-section:x -->\n'.repeat(COUNT));
    const error = phase('parse (throws)', () => {
      try {
        parseKnowledgeDocument({ id: 'noisy', revision: 'r1', text });
      } catch (caught) {
        return caught;
      }
      return undefined;
    });
    check(
      error?.name === 'KnowledgeError' && error.issues.length === COUNT,
      `one KnowledgeError with ${COUNT} issues`,
    );
    check(error.issues[COUNT - 1].line === COUNT, 'the last issue is on the last line');
    return { issues: error.issues.length, utf16Units: text.length };
  },

  /** Opt-in (`--case gigabyte`): a 1 GB knowledge base, 1,000 documents of 1 MB. Needs ~4 GB of heap. */
  gigabyte: (phase) => {
    const COUNT = 1_000;
    const { texts, catalog } = manyDocuments(phase, COUNT, 1_000_000);
    const documentId = catalog.ids[COUNT - 1];
    const sectionId = catalog.sectionIds(documentId)[0];
    const self = phase('one self read', () =>
      catalog.read({ documentId, selection: { mode: 'self', sectionIds: [sectionId] } }),
    );
    check(self.content.length > 0, 'the read returns text');
    const utf8 = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
    return {
      documents: COUNT,
      utf8Megabytes: round(utf8 / 1e6),
      utf16Units: texts.reduce((sum, text) => sum + text.length, 0),
    };
  },
};
/** Cases run by default; the others only with `--case`. */
const DEFAULT_CASES = ['deep', 'documents', 'large', 'errors'];
/** Extra Node flags per case. */
const NODE_FLAGS = { gigabyte: ['--max-old-space-size=8192'] };

/** Generate, parse and compile `count` documents of `bytes` each, one phase each; checks the count. */
function manyDocuments(phase, count, bytes) {
  const texts = phase('generate', () =>
    Array.from({ length: count }, (_, i) => generateCorpus(bytes, i + 1)),
  );
  const docs = phase('parse', () =>
    texts.map((text, i) => parseKnowledgeDocument({ id: `doc-${i}`, revision: 'r1', text })),
  );
  const catalog = phase('compile', () => defineKnowledgeCatalog(docs));
  check(catalog.ids.length === count, `${count} documents in the catalog`);
  return { texts, catalog };
}

function check(ok, what) {
  if (!ok) throw new Error(`bench:scale check failed: ${what}`);
}

/** Child: run one case, print `{ phases, facts, peakRssMb }` as JSON on the last line. */
function runCase(name) {
  const phases = [];
  const phase = (label, fn) => {
    globalThis.gc?.(); // each phase starts from a collected heap: earlier phases' garbage is not its cost
    const start = process.hrtime.bigint();
    const result = fn();
    phases.push({
      phase: label,
      ms: round(Number(process.hrtime.bigint() - start) / 1e6, 1),
      heapUsedMb: round(process.memoryUsage().heapUsed / 1e6, 0),
    });
    return result;
  };
  const facts = CASES[name](phase);
  console.log(
    JSON.stringify({
      case: name,
      facts,
      phases,
      peakRssMb: round(process.resourceUsage().maxRSS / 1024, 0),
    }),
  );
}

const caseArg = process.argv.indexOf('--case');
if (process.argv.includes('--child')) {
  runCase(process.argv[caseArg + 1]);
} else {
  const json = process.argv.includes('--json');
  const names = caseArg >= 0 ? [process.argv[caseArg + 1]] : DEFAULT_CASES;
  const results = [];
  let failed = 0;
  for (const name of names) {
    if (!(name in CASES))
      throw new Error(
        `bench:scale: unknown case ${name}; cases are ${Object.keys(CASES).join(', ')}`,
      );
    if (!json) console.error(`${name} …`);
    const child = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        ...(NODE_FLAGS[name] ?? []),
        fileURLToPath(import.meta.url),
        '--child',
        '--case',
        name,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    const last = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !last.startsWith('{')) {
      failed++;
      console.error(
        `\nbench:scale: case ${name} FAILED (exit ${child.status}${child.signal ? `, signal ${child.signal}` : ''})\n${child.stderr}${child.stdout}`,
      );
      results.push({ case: name, failed: true, exit: child.status, signal: child.signal });
      continue;
    }
    results.push(JSON.parse(last));
  }
  if (json) console.log(JSON.stringify({ node: process.version, results, failed }));
  else {
    for (const r of results.filter((r) => !r.failed)) {
      const total = r.phases.reduce((sum, p) => sum + p.ms, 0);
      console.log(
        `\n${r.case}: ${JSON.stringify(r.facts)}; peak RSS ${r.peakRssMb} MB; ${round(total / 1000, 1)} s in all`,
      );
      printTable(
        r.phases.map((p) => ({ phase: p.phase, ms: p.ms, 'heap used after, MB': p.heapUsedMb })),
      );
    }
    console.log(
      failed === 0
        ? `\nall ${results.length} cases passed`
        : `\n${failed} of ${results.length} cases FAILED`,
    );
  }
  process.exitCode = failed === 0 ? 0 : 1;
}
