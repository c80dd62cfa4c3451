/**
 * The bundled example knowledge (examples/knowledge), loaded the way examples/knowledge.mjs does it:
 * explicit reads, a revision per document, parse, compile; plus the page paths and tags of its manifest.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  defineKnowledgeCatalog,
  type KnowledgeCatalog,
  type KnowledgeDocument,
  parseKnowledgeDocument,
} from '../../src/index.js';
import type { CatalogSourceOptions, KnowledgeFileOptions } from '../../src/agent/index.js';

interface ManifestEntry {
  readonly file: string;
  readonly id: string;
  readonly locale: string;
  readonly path: string;
  readonly tags: readonly string[];
}

const folder = new URL('../../examples/knowledge/', import.meta.url);

/** The manifest's entries. */
export function exampleManifest(): readonly ManifestEntry[] {
  return (
    JSON.parse(readFileSync(new URL('manifest.json', folder), 'utf8')) as {
      documents: ManifestEntry[];
    }
  ).documents;
}

/** The example documents, parsed. */
export function exampleDocuments(): KnowledgeDocument[] {
  return exampleManifest().map((entry) => {
    const text = readFileSync(new URL(entry.file, folder), 'utf8');
    const revision = `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    return parseKnowledgeDocument({ id: entry.id, revision, locale: entry.locale, text });
  });
}

/** The example catalog. */
export function exampleCatalog(): KnowledgeCatalog {
  return defineKnowledgeCatalog(exampleDocuments());
}

/** `options.files` from the manifest: each page's path and tags. */
export function exampleFiles(): Record<string, KnowledgeFileOptions> {
  return Object.fromEntries(
    exampleManifest().map((e) => [e.id, { path: e.path, frontmatter: { tags: [...e.tags] } }]),
  );
}

/** Source options for the example knowledge, with a fixed revision so golden outputs are stable. */
export function exampleSourceOptions(extra: CatalogSourceOptions = {}): CatalogSourceOptions {
  return { id: 'example', revision: 42, files: exampleFiles(), ...extra };
}
