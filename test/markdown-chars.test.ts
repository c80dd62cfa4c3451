/**
 * The character codes of the Markdown grammar are defined once, in `src/markdown/chars.ts`: each
 * constant is the character its TSDoc names, and no other file of `src/` declares a constant of the
 * same name again (it imports it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as chars from '../src/markdown/chars.js';

const src = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'src');
const charsFile = join(src, 'markdown', 'chars.ts');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The numeric constants `chars.ts` exports, by name. */
const codes: [string, number][] = Object.entries(chars as Record<string, unknown>).flatMap(
  ([name, value]) => (typeof value === 'number' ? [[name, value] as [string, number]] : []),
);

/** How the TSDoc writes the characters that have no glyph of their own. */
const ESCAPES: Readonly<Record<string, string>> = {
  '\\t': '\t',
  '\\n': '\n',
  '\\r': '\r',
  '\\\\': '\\',
};

describe('chars', () => {
  it('each constant is the character its TSDoc shows (`x`)', () => {
    const text = readFileSync(charsFile, 'utf8');
    const documented = [
      ...text.matchAll(/\/\*\* [^*]*\(`+ ?(.+?) ?`+[,)][^*]*\*\/\nexport const (\w+) = /g),
    ];
    expect(documented.length).toBeGreaterThan(30);
    for (const [, shown, name] of documented) {
      const value = (chars as Record<string, unknown>)[name!];
      expect(String.fromCharCode(value as number), name).toBe(ESCAPES[shown!] ?? shown);
    }
    expect(chars.SPACE).toBe(' '.charCodeAt(0));
    expect(chars.UPPER_A).toBe('A'.charCodeAt(0));
    expect(chars.LOWER_Z).toBe('z'.charCodeAt(0));
    expect(chars.BOM).toBe(0xfeff);
  });

  it('every exported constant has TSDoc', () => {
    const text = readFileSync(charsFile, 'utf8');
    for (const [name] of codes)
      expect(text, name).toMatch(new RegExp(`\\*/\\nexport const ${name} = `));
  });

  it('no other file of src/ declares one of its constants again', () => {
    const names = new Set(codes.map(([name]) => name));
    const again: string[] = [];
    for (const file of sourceFiles(src)) {
      if (file === charsFile) continue;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/^\s*(?:export )?const ([A-Z_]+) = (?:0x[\da-f]+|\d+);/gim))
        if (names.has(match[1]!)) again.push(`${relative(src, file)}: ${match[0].trim()}`);
    }
    expect(again).toEqual([]);
  });
});
