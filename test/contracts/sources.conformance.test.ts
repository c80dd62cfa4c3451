/**
 * The `KnowledgeSource` conformance suite (./knowledgeSource.contract.ts) on every source the package
 * has, each over the bundled example knowledge and compared with `createCatalogSource` over the same
 * input: the catalog source itself, the HTTP client over the handler (in process, and over a real
 * loopback server), the command line's `liveSource`, and exploration's gated methods.
 */
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { startExploration } from '../../src/agent/exploration/index.js';
import type { CatalogSourceOptions, KnowledgeSource } from '../../src/agent/index.js';
import { liveSource } from '../../src/cli/folder.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import { exampleCatalog, exampleSourceOptions } from '../helpers/exampleKnowledge.js';
import { runKnowledgeSourceConformance } from './knowledgeSource.contract.js';

/** A fresh catalog source over the example knowledge: the reference, and what the subjects wrap. */
const example = (extra: CatalogSourceOptions = {}): KnowledgeSource =>
  createCatalogSource(exampleCatalog(), exampleSourceOptions(extra));
/** The same knowledge at another revision, whose cursors are stale for the sources above. */
const otherRevision = (): KnowledgeSource => example({ revision: 41 });

runKnowledgeSourceConformance({
  name: 'createCatalogSource',
  newSource: () => example(),
  reference: () => example(),
  otherRevision,
});

const BASE_PATH = '/kb/v1';
/** What the handler passes its source: the reference is called with it too. */
const HANDLER_CONTEXT = {
  actionBase: `${BASE_PATH}/knowledge-bases/example`,
  knowledgeBaseId: 'example',
};
const handler = () =>
  createKnowledgeHandler({
    basePath: BASE_PATH,
    access: () => ({ knowledgeBases: { example: example() } }),
  });

// The client restarts a stale cursor once (without it) and marks that page `cursorRestarted: true`,
// as `docs/http.md` says a remote source should, where the catalog source answers STALE_CURSOR.
const CLIENT_RESTARTS_STALE_CURSORS =
  'the HTTP client restarts a stale cursor and marks the page `cursorRestarted` (by design, docs/http.md)';

runKnowledgeSourceConformance({
  name: 'createKnowledgeClient over createKnowledgeHandler (in-process fetch)',
  newSource: () => {
    const h = handler();
    return createKnowledgeClient({
      baseUrl: `http://kb.test${HANDLER_CONTEXT.actionBase}`,
      fetch: (request) => h(request),
    });
  },
  reference: () => example(),
  referenceContext: HANDLER_CONTEXT,
  skip: { staleCursors: CLIENT_RESTARTS_STALE_CURSORS },
});

let served: ServedKnowledge | undefined;
runKnowledgeSourceConformance({
  name: 'createKnowledgeClient over serveKnowledge (node:http on 127.0.0.1)',
  newSource: async () => {
    served = await serveKnowledge({ handler: handler() });
    return createKnowledgeClient({ baseUrl: `${served.url}${HANDLER_CONTEXT.actionBase}` });
  },
  reference: () => example(),
  referenceContext: HANDLER_CONTEXT,
  skip: { staleCursors: CLIENT_RESTARTS_STALE_CURSORS },
  close: async () => served?.close(),
});

runKnowledgeSourceConformance({
  name: 'liveSource (the command line’s source that follows reloads)',
  newSource: () => {
    const current = example();
    return liveSource(() => current);
  },
  reference: () => example(),
  otherRevision,
});

runKnowledgeSourceConformance({
  name: 'exploration’s gated methods (listTree, getFile, readRelated, expandGraph)',
  newSource: async () => {
    const session = startExploration(example(), {
      question: 'How do agents read anchored Markdown?',
    });
    await session.search();
    return session as unknown as KnowledgeSource;
  },
  reference: () => example(),
  otherRevision,
  // search and read are the session's own calls, with budgets and evidence (test/agent/exploration-*).
  methods: ['listTree', 'getFile', 'readRelated', 'expandGraph'],
});
