/** Iterative helpers for trees too deep for recursive comparison (100,000 levels). */
import type { KnowledgeDocument, KnowledgePart } from '../../src/index.js';

/** Deep equality of two documents without recursion; returns the first difference, or undefined. */
export function diffDocuments(a: KnowledgeDocument, b: KnowledgeDocument): string | undefined {
  if (a.id !== b.id || a.revision !== b.revision || a.locale !== b.locale)
    return 'document fields differ';
  if (Object.keys(a).join() !== Object.keys(b).join())
    return `document keys differ: ${Object.keys(a).join()} vs ${Object.keys(b).join()}`;
  const stack: [readonly KnowledgePart[], readonly KnowledgePart[], string][] = [
    [a.parts, b.parts, 'parts'],
  ];
  while (stack.length > 0) {
    const [x, y, path] = stack.pop()!;
    if (x.length !== y.length) return `${path}: length ${x.length} vs ${y.length}`;
    for (let i = 0; i < x.length; i++) {
      const p = x[i]!;
      const q = y[i]!;
      if (typeof p === 'string' || typeof q === 'string') {
        if (p !== q) return `${path}[${i}]: ${JSON.stringify(p)} vs ${JSON.stringify(q)}`;
        continue;
      }
      if (
        p.id !== q.id ||
        Object.keys(p).join() !== 'id,parts' ||
        Object.keys(q).join() !== 'id,parts'
      )
        return `${path}[${i}]: sections differ`;
      stack.push([p.parts, q.parts, `${path}[${i}].parts`]);
    }
  }
  return undefined;
}

/** Every object and array reachable from `root`, iteratively. */
export function everyNode(root: unknown): object[] {
  const seen: object[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    seen.push(value);
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return seen;
}

/** Text of `depth` nested sections `s0 > s1 > …`, each with one line of its own text. */
export function deepText(depth: number): string {
  const lines: string[] = [];
  for (let i = 0; i < depth; i++) lines.push(`<!-- agent-section:s${i} -->`, `text ${i}`);
  for (let i = depth - 1; i >= 0; i--) lines.push(`<!-- /agent-section:s${i} -->`);
  return `${lines.join('\n')}\n`;
}
