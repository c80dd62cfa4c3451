/**
 * A part costs what it returns: reading every part of a long page reads the page and finds where its
 * parts may end once, not once per part (which made reading a long page whole quadratic).
 */
import { describe, expect, it, vi } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { ReadFileOutput } from '../../src/agent/index.js';

const scans = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/markdown/partEnd.js', async (original) => {
  const real = await original<typeof import('../../src/markdown/partEnd.js')>();
  return {
    ...real,
    partBoundaries: (text: string) => {
      scans.count++;
      return real.partBoundaries(text);
    },
  };
});

describe('read_file parts cost', () => {
  it('reading every part of a long page scans it once, and again only for another selection', async () => {
    const text = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}.\n`).join('\n');
    const catalog = defineKnowledgeCatalog([
      parseKnowledgeDocument({ id: 'long', revision: '1', text }),
    ]);
    const source = createCatalogSource(catalog, { id: 'kb', maxReadChars: 100 });
    const parts: ReadFileOutput[] = [await source.readFile({ fileId: 'long' })];
    while (parts.at(-1)!.nextCursor !== null)
      parts.push(await source.readFile({ cursor: parts.at(-1)!.nextCursor }));
    expect(parts.length).toBeGreaterThan(40);
    const whole = await createCatalogSource(catalog, { id: 'kb' }).readFile({ fileId: 'long' });
    expect(parts.map((p) => p.content).join('')).toBe(whole.content);
    expect(scans.count).toBe(1);
    // Read again from the start: the kept read answers.
    await source.readFile({ fileId: 'long', maxChars: 100 });
    expect(scans.count).toBe(1);
  });
});
