// What the core keeps alive: a catalog holds its own frozen copies, not the caller's input, and the
// parser's buffers kept between parses hold nothing of a parse once it returns.
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../src/index.js';
import { isCollected } from './helpers/gc.js';

const text =
  '<!-- agent-section:a -->\nA\n<!-- agent-section:b -->\nB\n<!-- /agent-section:b -->\n<!-- /agent-section:a -->\nafter\n';
const parse = () => parseKnowledgeDocument({ id: 'doc', revision: 'r1', text });

describe('retention', () => {
  it('a catalog does not keep the documents it was built from', async () => {
    // Built in a function of its own, so that only the catalog and the weak references leave it.
    const build = () => {
      const documents = [parse()];
      return {
        catalog: defineKnowledgeCatalog(documents),
        list: new WeakRef(documents),
        document: new WeakRef(documents[0]!),
      };
    };
    const { catalog, list, document } = build();
    expect(await isCollected(list)).toBe(true);
    expect(await isCollected(document)).toBe(true);
    expect(
      catalog.read({ documentId: 'doc', selection: { mode: 'self', sectionIds: ['b'] } }).content,
    ).toBe('B');
  });

  it('a parse keeps nothing of its tree once the caller drops it', async () => {
    const parseAndDrop = () => {
      const doc = parse();
      const section = doc.parts[0] as object;
      return { doc: new WeakRef(doc), section: new WeakRef(section) };
    };
    const refs = parseAndDrop();
    expect(await isCollected(refs.doc)).toBe(true);
    expect(await isCollected(refs.section)).toBe(true);
    // Nor is a refused parse's error.
    const refusedAndDrop = () => {
      let kept: WeakRef<object> | undefined;
      try {
        parseKnowledgeDocument({
          id: 'doc',
          revision: 'r1',
          text: `${text}<!-- agent-section:c -->\n<!-- agent-section:d -->\nD\n<!-- /agent-section:d -->\n`,
        });
      } catch (error) {
        kept = new WeakRef(error as object);
      }
      return kept!;
    };
    expect(await isCollected(refusedAndDrop())).toBe(true);
  });
});
