import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKnowledgeDocument } from '../src/index.js';
import { catchKnowledgeError } from './helpers/knowledgeError.js';

const dir = new URL('./fixtures/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const goldens = readdirSync(dir).filter(
  (f) => f.endsWith('.md') && readdirSync(dir).includes(f.replace(/\.md$/, '.json')),
);

describe('golden fixtures: test/fixtures/<name>.md beside the expected <name>.json', () => {
  it('has fixtures', () => expect(goldens.length).toBeGreaterThanOrEqual(2));
  for (const file of goldens) {
    it(file, () => {
      const id = file.replace(/\.md$/, '');
      expect(parseKnowledgeDocument({ id, revision: 'fixture', text: read(file) })).toEqual(
        JSON.parse(read(`${id}.json`)),
      );
    });
  }

  it('broken.md: every problem, with its place and a message that says how to fix it', () => {
    const error = catchKnowledgeError(() =>
      parseKnowledgeDocument({ id: 'broken', revision: 'fixture', text: read('broken.md') }),
    );
    expect(
      error.issues.map(
        (i) =>
          `${i.line}:${i.column} ${i.code}${i.related ? ` (${i.related.line}:${i.related.column})` : ''}`,
      ),
    ).toEqual([
      '3:1 MALFORMED_ANCHOR',
      '8:1 MISMATCHED_CLOSE (6:1)',
      '11:3 MALFORMED_ANCHOR', // one mistake, one issue: not also UNCLOSED_SECTION
      '13:1 DUPLICATE_SECTION_ID (1:1)',
    ]);
    expect(error.message).toMatchInlineSnapshot(`
      "4 problems:
        - parseKnowledgeDocument: \`broken\` 3:1: malformed section anchor: it needs exactly one space before \`-->\`. Found \`<!-- /agent-section:intro-->\`; write exactly \`<!-- /agent-section:intro -->\` on its own line, starting in column 1. To show anchor syntax as an example, put it inside a fenced code block.
        - parseKnowledgeDocument: \`broken\` 8:1: \`<!-- /agent-section:steps -->\` does not match the innermost open section \`step.1\` (opened at 6:1). Close \`step.1\` first with \`<!-- /agent-section:step.1 -->\`, or fix the IDs so that opens and closes nest.
        - parseKnowledgeDocument: \`broken\` 11:3: malformed section anchor: it is indented by 2 characters; anchor lines start in column 1. Found \`  <!-- agent-section:in-list -->\`; write exactly \`<!-- agent-section:in-list -->\` on its own line, starting in column 1. To show anchor syntax as an example, put it inside a fenced code block.
        - parseKnowledgeDocument: \`broken\` 13:1: section ID \`intro\` is already used at 1:1; section IDs are unique within the whole document, not only among siblings. Rename one of the two sections and its close anchor."
    `);
  });
});
