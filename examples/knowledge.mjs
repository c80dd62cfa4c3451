// The app-side template for Knowledge Kit (an app's `knowledge.mjs`): read a folder of anchored
// Markdown explicitly, compute each revision, parse, compile the catalog once, check the task map at
// startup, read snapshots for a generation step and hand the same snapshots to a review step, and
// grow by building a new catalog. Run it with `npm run example`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { defineKnowledgeCatalog, isKnowledgeError, parseKnowledgeDocument } from 'knowledge-kit';

const folder = new URL('./knowledge/', import.meta.url);

// 1. Read the controlled source explicitly. The library reads no file and computes no revision.
async function loadDocuments() {
  const manifest = JSON.parse(await readFile(new URL('manifest.json', folder), 'utf8'));
  const documents = [];
  for (const entry of manifest.documents) {
    const text = await readFile(new URL(entry.file, folder), 'utf8');
    // The revision is the app's: a hash of the content and the metadata that shapes it.
    const revision = `sha256:${createHash('sha256')
      .update(JSON.stringify({ id: entry.id, locale: entry.locale, text }))
      .digest('hex')
      .slice(0, 16)}`;
    documents.push(parseKnowledgeDocument({ id: entry.id, revision, locale: entry.locale, text }));
  }
  return documents;
}

// 2. The task map: which evidence each task may read. Checked against the catalog at startup.
const tasks = {
  'explain-anchor-syntax': {
    documentId: 'anchored-markdown',
    selection: { mode: 'subtree', sectionIds: ['anchors'] },
  },
  'answer-read-modes-zh': {
    documentId: 'knowledge-kit-guide',
    selection: { mode: 'self', sectionIds: ['reads', 'reads.max-chars'] },
  },
  'review-versioning-zh': {
    documentId: 'knowledge-kit-guide',
    selection: { mode: 'subtree', sectionIds: ['versions'] },
    maxChars: 400,
  },
};

function checkTasks(catalog) {
  const problems = [];
  for (const [task, request] of Object.entries(tasks)) {
    try {
      catalog.assertSelection(request);
    } catch (error) {
      if (!isKnowledgeError(error)) throw error;
      problems.push(`${task}: ${error.message}`);
    }
  }
  if (problems.length > 0)
    throw new Error(`task map does not match the catalog:\n${problems.join('\n')}`);
}

// 3. Generation and review receive the same snapshot: review never re-reads "the latest" text.
function generate(snapshot) {
  const firstLine = snapshot.content
    .split('\n')
    .find((line) => line.trim() !== '' && !line.startsWith('#'));
  return { answer: `According to the evidence: ${firstLine}`, cites: snapshot.id };
}

function review(draft, snapshot) {
  const quoted = draft.answer.replace('According to the evidence: ', '');
  return draft.cites === snapshot.id && snapshot.content.includes(quoted)
    ? 'grounded'
    : 'NOT grounded';
}

function outline(catalog) {
  const lines = [];
  for (const id of catalog.ids) {
    const doc = catalog.document(id);
    lines.push(
      `${id} (${doc.locale ?? 'no locale'}, ${doc.revision}), ${catalog.sectionIds(id).length} sections`,
    );
    const walk = (parts, depth) => {
      for (const part of parts) {
        if (typeof part === 'string') continue;
        lines.push(`${'  '.repeat(depth)}- ${part.id}`);
        walk(part.parts, depth + 1);
      }
    };
    walk(doc.parts, 1);
  }
  return lines.join('\n');
}

const heading = (title) => console.log(`\n=== ${title} ===`);

// Startup: build once, check references, then serve reads.
let catalog = defineKnowledgeCatalog(await loadDocuments(), { maxChars: 4000 });
checkTasks(catalog);

heading('Catalog outline');
console.log(outline(catalog));
console.log(`task map: ${Object.keys(tasks).length} tasks checked against the catalog`);

heading('Snapshots');
const snapshots = {};
for (const [task, request] of Object.entries(tasks)) {
  const snapshot = catalog.read(request);
  snapshots[task] = snapshot;
  console.log(
    `\n[${task}] ${snapshot.selection.mode} ${JSON.stringify(snapshot.selection.sectionIds ?? [])}, ${[...snapshot.content].length} chars`,
  );
  console.log(`id: ${snapshot.id}`);
  console.log(
    snapshot.content
      .split('\n')
      .slice(0, 4)
      .map((line) => `  | ${line}`)
      .join('\n'),
  );
}

heading('Generation and review share one snapshot');
const evidence = snapshots['explain-anchor-syntax'];
const draft = generate(evidence);
console.log(`draft: ${draft.answer}`);
console.log(
  `review: ${review(draft, evidence)} (cites ${draft.cites === evidence.id ? 'the same snapshot id' : 'another id'})`,
);

heading('maxChars throws instead of cutting');
try {
  catalog.read({
    documentId: 'knowledge-kit-guide',
    selection: { mode: 'document' },
    maxChars: 200,
  });
} catch (error) {
  if (!isKnowledgeError(error)) throw error;
  const [issue] = error.issues;
  console.log(`${error.code}: actual ${issue.actual}, limit ${issue.limit}`);
  console.log(error.message);
}

heading('A parse error, with its place');
const draftText = [
  '<!-- agent-section:faq -->',
  '- Can I return an opened item?',
  '  <!-- agent-section:faq.returns -->',
  'Yes, within 30 days.',
  '<!-- /agent-section:faq -->',
].join('\n');
try {
  parseKnowledgeDocument({ id: 'faq-draft', revision: 'draft-1', text: draftText });
} catch (error) {
  if (!isKnowledgeError(error)) throw error;
  for (const issue of error.issues) console.log(`${issue.line}:${issue.column} ${issue.code}`);
  console.log(error.issues[0].message);
}

heading('Growth: build a new catalog and swap the reference');
// An approved addition (reviewed text with a real source) becomes a document; the old catalog is untouched.
const approved = parseKnowledgeDocument({
  id: 'trust-boundaries',
  revision: 'approved-2026-11-29',
  locale: 'en',
  text: '<!-- agent-section:client-input -->\nPassing `assertSelection` does not make client input trusted: unknown fields, identities and file paths from a client are still parsed and authorized by the app.\n<!-- /agent-section:client-input -->\n',
});
const before = catalog;
catalog = defineKnowledgeCatalog([...before.ids.map((id) => before.document(id)), approved], {
  maxChars: 4000,
});
checkTasks(catalog);
console.log(`before: ${before.ids.join(', ')}`);
console.log(`after:  ${catalog.ids.join(', ')}`);
const reread = catalog.read(tasks['explain-anchor-syntax']);
console.log(`same revision and selection give the same snapshot id: ${reread.id === evidence.id}`);
