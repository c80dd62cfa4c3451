import { describe, expect, it } from 'vitest';
import {
  defineKnowledgeCatalog,
  formatKnowledgeDocument,
  parseKnowledgeDocument,
} from '../src/index.js';
import { catchKnowledgeError } from './helpers/knowledgeError.js';
import { deepText, diffDocuments } from './helpers/trees.js';

const DEPTH = 100_000;

describe('100,000-deep nesting', () => {
  it('goes through parse, compile, read and format without recursion', () => {
    const text = deepText(DEPTH);
    const doc = parseKnowledgeDocument({ id: 'deep', revision: 'r1', text });
    const catalog = defineKnowledgeCatalog([doc]);
    const ids = catalog.sectionIds('deep');
    expect(ids).toHaveLength(DEPTH);
    expect(ids[DEPTH - 1]).toBe(`s${DEPTH - 1}`);

    const inner = catalog.read({
      documentId: 'deep',
      selection: { mode: 'subtree', sectionIds: [`s${DEPTH - 2}`] },
    });
    expect(inner.content).toBe(`text ${DEPTH - 2}\n\ntext ${DEPTH - 1}`);
    const self = catalog.read({
      documentId: 'deep',
      selection: { mode: 'self', sectionIds: ['s0'] },
    });
    expect(self.content).toBe('text 0');
    const whole = catalog.read({
      documentId: 'deep',
      selection: { mode: 'subtree', sectionIds: ['s0'] },
    });
    expect(whole.content.split('\n\n')).toHaveLength(DEPTH);
    expect(catalog.read({ documentId: 'deep', selection: { mode: 'document' } }).content).toBe(
      whole.content,
    );

    const formatted = formatKnowledgeDocument(catalog.document('deep'));
    const reparsed = parseKnowledgeDocument({ id: 'deep', revision: 'r1', text: formatted });
    expect(diffDocuments(reparsed, doc)).toBeUndefined();
  });

  it('reports a quarter of a million problems in one KnowledgeError', () => {
    const count = 250_000;
    const text = '<!-- /agent-section:x -->\n'.repeat(count);
    const error = catchKnowledgeError(() =>
      parseKnowledgeDocument({ id: 'noisy', revision: 'r1', text }),
    );
    expect(error.issues).toHaveLength(count);
    expect(error.issues[count - 1]).toMatchObject({
      code: 'UNEXPECTED_CLOSE',
      line: count,
      column: 1,
    });
    expect(error.message).toContain(`${count} problems:`);
    const catalogError = catchKnowledgeError(() =>
      defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: new Array(count).fill(0) }]),
    );
    expect(catalogError.issues).toHaveLength(count);
    expect(catalogError.issues[count - 1]!.path).toEqual([0, 'parts', count - 1]);
  });

  it('reports a deep cycle and deep errors without overflowing the stack', () => {
    const text = deepText(DEPTH).replace('<!-- /agent-section:s0 -->\n', '');
    const error = catchKnowledgeError(() =>
      parseKnowledgeDocument({ id: 'deep', revision: 'r1', text }),
    );
    expect(error.issues.map((i) => [i.code, i.line])).toEqual([['UNCLOSED_SECTION', 1]]);

    // A chain 100,000 deep whose innermost section holds the outermost.
    type Section = { id: string; parts: unknown[] };
    const root: Section = { id: 'c0', parts: [] };
    let node = root;
    for (let i = 1; i < DEPTH; i++) {
      const child: Section = { id: `c${i}`, parts: [] };
      node.parts.push(child);
      node = child;
    }
    node.parts.push(root);
    const cycle = catchKnowledgeError(() =>
      defineKnowledgeCatalog([{ id: 'd', revision: 'r', parts: [root as never] }]),
    );
    expect(cycle.code).toBe('CYCLE');
    expect(cycle.issues[0]!.path).toHaveLength(1 + 2 * (DEPTH + 1));
  });
});
