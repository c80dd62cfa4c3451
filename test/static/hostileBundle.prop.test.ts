/**
 * Fuzz target for hostile bundles (`npm run fuzz -- hostileBundle`): a valid bundle with its files
 * changed at random (page paths, ranges, outlines, shard texts, the manifest's fields, whole files
 * replaced by arbitrary JSON or text) never makes a tool call hang, throw anything but a tool error,
 * or fetch anything outside `baseUrl`.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isKnowledgeToolError } from '../../src/agent/errors/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { buildKnowledgeBundle } from '../../src/agent/static/buildKnowledgeBundle.js';
import { createStaticSource } from '../../src/agent/static/createStaticSource.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';

const BASE = 'https://bundles.test/kb/';
let files: Map<string, string>;
let paths: string[];

beforeAll(async () => {
  const bundle = await buildKnowledgeBundle(
    createCatalogSource(exampleCatalog(), exampleSourceOptions()),
    { id: 'example' },
  );
  files = new Map(bundle.files);
  paths = [...files.keys()];
});

/** A JSON value of any shape, strings that look like paths among them. */
const hostileJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('../../secret.md', '/etc/passwd', 'pages\\..\\x', 'https://evil.test/', ''),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Replace the value at a random JSON position of `text` by `value`. */
function mutateJson(text: string, pick: number, value: unknown): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const slots: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node))
      node.forEach((child, i) => {
        slots.push({ holder: node, key: i });
        walk(child);
      });
    else if (typeof node === 'object' && node !== null)
      for (const [key, child] of Object.entries(node)) {
        slots.push({ holder: node as Record<string, unknown>, key });
        walk(child);
      }
  };
  walk(parsed);
  if (slots.length === 0) return JSON.stringify(value);
  const slot = slots[pick % slots.length]!;
  (slot.holder as Record<string | number, unknown>)[slot.key] = value;
  return JSON.stringify(parsed);
}

const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('json' as const),
    file: fc.nat(),
    pick: fc.nat(),
    value: hostileJson,
  }),
  fc.record({
    kind: fc.constant('text' as const),
    file: fc.nat(),
    text: fc.string({ maxLength: 200 }),
  }),
  fc.record({ kind: fc.constant('drop' as const), file: fc.nat() }),
);

const calls = [
  ['listTree', { parentPath: 'pages' }],
  ['getFile', { fileId: 'exploration' }],
  ['readFile', { path: 'pages/anchored-markdown.md' }],
  ['readFile', { fileId: 'agent-tools', sectionIds: ['reads'] }],
  ['readRelated', { fileId: 'agent-tools' }],
  ['expandGraph', { fileId: 'agent-tools', depth: 2 }],
  ['searchFiles', { query: 'How do agents read anchored Markdown?' }],
] as const;

describe('hostile bundles', () => {
  it('every call answers or fails with a tool error, and nothing outside baseUrl is fetched', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.nat(calls.length - 1),
        async (mutations, which) => {
          const bundle = new Map(files);
          for (const m of mutations) {
            const path = paths[m.file % paths.length]!;
            if (m.kind === 'drop') bundle.delete(path);
            else if (m.kind === 'text') bundle.set(path, m.text);
            else bundle.set(path, mutateJson(bundle.get(path) ?? '{}', m.pick, m.value));
          }
          const outside: string[] = [];
          const source = createStaticSource({
            baseUrl: BASE,
            fetchTimeoutMs: 2_000,
            fetch: async (request) => {
              const url = new URL(request.url);
              if (!url.href.startsWith(BASE)) outside.push(url.href);
              const text = bundle.get(decodeURIComponent(url.pathname.slice('/kb/'.length)));
              return text === undefined ? new Response('', { status: 404 }) : new Response(text);
            },
          });
          const [method, input] = calls[which]!;
          try {
            await (source[method] as (i: unknown) => Promise<unknown>)(input);
          } catch (error) {
            if (!isKnowledgeToolError(error)) throw error;
          }
          expect(outside).toEqual([]);
        },
      ),
    );
  });
});
