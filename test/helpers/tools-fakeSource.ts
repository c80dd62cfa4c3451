/**
 * The source of the tool and adapter tests: a catalog source over two pages (`BILLING_PAGES`), its
 * calls logged; and a source that fails the way a broken app's would.
 */
import { fakeSource, type HeardCall } from './fakeSource.js';
import { BILLING_PAGES, scenarioSource } from './scenarioSources.js';
import type { KnowledgeSource } from '../../src/agent/index.js';

/** Every call the fake received, for assertions on context pass-through. */
export type FakeSourceCall = HeardCall;

/** A fresh source over the two billing pages (`BILLING_PAGES`) and the log of its calls. */
export function createFakeSource(): {
  readonly source: KnowledgeSource;
  readonly calls: FakeSourceCall[];
} {
  const { source, control } = fakeSource({}, { base: scenarioSource(BILLING_PAGES) });
  return { source, calls: control.log };
}

/** A source whose every method throws a plain `Error` carrying a stack-like, path-leaking message. */
export function createBrokenSource(): KnowledgeSource {
  return fakeSource(
    {},
    {
      otherwise: async () => {
        throw new Error(
          'ENOENT: /srv/secret/catalog.json at Object.<anonymous> (/srv/app/index.js:1:1)',
        );
      },
    },
  ).source;
}
