// Build a document in code, write it out as anchored Markdown with formatKnowledgeDocument, and check
// that parsing the text gives the same document back. Run it with `npm run example:format`.
import { formatKnowledgeDocument, isKnowledgeError, parseKnowledgeDocument } from 'knowledge-kit';
import { deepStrictEqual } from 'node:assert';

const document = {
  id: 'returns-policy',
  revision: 'policy-2026-11',
  locale: 'en',
  parts: [
    '# Returns policy',
    {
      id: 'returns.window',
      parts: [
        'Returns are accepted for 30 days after delivery.',
        { id: 'returns.window.exceptions', parts: ['Opened software cannot be returned.'] },
      ],
    },
    { id: 'returns.how', parts: ['Start a return from your order page.'] },
  ],
};

const text = formatKnowledgeDocument(document);
console.log(text);

const parsed = parseKnowledgeDocument({
  id: document.id,
  revision: document.revision,
  locale: document.locale,
  text,
});
deepStrictEqual(parsed, document);
console.log('round trip: parse(format(document)) equals the document');

// format refuses to write text that would parse differently.
try {
  formatKnowledgeDocument({
    id: 'bad',
    revision: 'r1',
    parts: [{ id: 'has space', parts: ['<!-- agent-section:x -->'] }],
  });
} catch (error) {
  if (!isKnowledgeError(error)) throw error;
  for (const issue of error.issues)
    console.log(`${issue.code} at ${JSON.stringify(issue.path)}: ${issue.message}`);
}
