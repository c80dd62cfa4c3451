/**
 * The HTTP handler over the bundled example knowledge, as the tests use it: one knowledge base
 * `example` (title "Example knowledge") readable with `Authorization: Bearer reader-token`, a second
 * knowledge base `private` readable only with `Bearer other-token`, mounted at `/openapi/v2` as the
 * seed lays out its URLs.
 */
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import type { KnowledgeHandler, KnowledgeHandlerOptions } from '../../src/http/types.js';
import { catalogOf } from './files-catalog.js';
import { exampleCatalog, exampleSourceOptions } from './exampleKnowledge.js';

export const BASE_PATH = '/openapi/v2';
export const READER = { authorization: 'Bearer reader-token' } as const;
export const OTHER = { authorization: 'Bearer other-token' } as const;
export const ORIGIN = 'http://kb.test';
/** `{origin}{basePath}/knowledge-bases/example`, the seed's KNOWLEDGE_BASE_URL. */
export const KB_URL = `${ORIGIN}${BASE_PATH}/knowledge-bases/example`;

let example: KnowledgeSource | undefined;
let other: KnowledgeSource | undefined;

/**
 * The example knowledge as a catalog source (ID `example`, revision 42, published at a fixed time so
 * that servers in other processes answer the same bytes), built once.
 */
export function exampleSource(): KnowledgeSource {
  return (example ??= createCatalogSource(
    exampleCatalog(),
    exampleSourceOptions({ publishedAt: '2026-01-01T00:00:00.000Z' }),
  ));
}

/** A second, small knowledge base only `other-token` may read. */
export function privateSource(): KnowledgeSource {
  return (other ??= createCatalogSource(
    catalogOf({ secret: '# Secret\n\nOnly for the other user.\n' }),
    { id: 'private', revision: 7 },
  ));
}

/** The `access` hook of the tests: bearer token → knowledge bases. */
export function exampleAccess(
  request: Request,
): KnowledgeHandlerOptions['access'] extends (r: Request) => infer R ? R : never {
  const auth = request.headers.get('authorization');
  if (auth === READER.authorization)
    return { knowledgeBases: { example: { source: exampleSource(), title: 'Example knowledge' } } };
  if (auth === OTHER.authorization) return { knowledgeBases: { private: privateSource() } };
  return null;
}

/** The handler over the example knowledge, with `overrides` on top of the defaults above. */
export function exampleHandler(overrides: Partial<KnowledgeHandlerOptions> = {}): KnowledgeHandler {
  return createKnowledgeHandler({ basePath: BASE_PATH, access: exampleAccess, ...overrides });
}
