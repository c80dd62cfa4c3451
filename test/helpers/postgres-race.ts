/**
 * Paging on two connections while revisions come and go: the store's answer to "a cursor never mixes
 * revisions". Each edition is published in turn (`keep: 1`, so the previous revision is removed) while
 * two readers page a call; every first and second page must equal the catalog source's over that
 * edition, or the second must be `STALE_CURSOR`.
 */
import { expect } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { CatalogSourceOptions, KnowledgeSource } from '../../src/agent/index.js';
import {
  createPostgresSource,
  type KnowledgeDatabase,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../src/postgres/index.js';
import type { KnowledgeCatalog } from '../../src/types.js';
import type { TestDatabase } from './postgres-database.js';
import { timeless } from './versions.js';

/** One edition of the knowledge base. */
export interface Edition {
  readonly revision: string;
  readonly catalog: KnowledgeCatalog;
  readonly files: CatalogSourceOptions['files'];
}

/** A paged call: the first page without a cursor, the next with it. */
export type PagedCall = (
  source: KnowledgeSource,
  cursor: string | undefined,
) => Promise<{ readonly activeContentRevision: unknown; readonly nextCursor: string | null }>;

/**
 * Publish the editions in turn, six times, while two readers page `call`; drop the schema after.
 *
 * @param test - the database (its second connection is the other reader).
 * @param schema - a schema of this test's own.
 * @param editions - two editions, published alternately.
 * @param call - the paged call.
 */
export async function expectPagingDuringPublishes(
  test: TestDatabase,
  schema: string,
  editions: readonly Edition[],
  call: PagedCall,
): Promise<void> {
  // Each revision's first two pages, from the catalog source over the same input.
  const expected = new Map<unknown, unknown[]>();
  for (const edition of editions) {
    const ref = createCatalogSource(edition.catalog, {
      id: 'race',
      revision: edition.revision,
      files: edition.files,
    });
    const first = await call(ref, undefined);
    // Each source's own publishedAt is compared as a placeholder.
    expected.set(edition.revision, [timeless(first), timeless(await call(ref, first.nextCursor!))]);
  }
  const publish = (edition: Edition) =>
    publishKnowledge(test.db, { knowledgeBase: 'race', ...edition, keep: 1, schema });
  try {
    await migrateKnowledgeStore(test.db, { schema });
    await publish(editions[0]!);
    let publishing = true;
    const outcomes = { pages: 0, stale: 0 };
    const read = async (db: KnowledgeDatabase) => {
      const source = createPostgresSource(db, { knowledgeBase: 'race', schema });
      do {
        const first = await call(source, undefined);
        expect(timeless(first)).toEqual(expected.get(first.activeContentRevision)![0]);
        try {
          const second = await call(source, first.nextCursor!);
          expect(timeless(second)).toEqual(expected.get(first.activeContentRevision)![1]);
          outcomes.pages++;
        } catch (error) {
          expect(error).toMatchObject({ code: 'STALE_CURSOR' });
          outcomes.stale++;
        }
        // PGlite answers in this process: without a turn of the event loop between passes, two
        // readers can keep the publisher's timers and I/O from ever running (a hang, not a failure).
        await new Promise((resolve) => setImmediate(resolve));
      } while (publishing);
    };
    const publishes = (async () => {
      for (let round = 1; round <= 6; round++) await publish(editions[round % 2]!);
      publishing = false;
    })();
    await Promise.all([publishes, read(test.db), read(test.other())]);
    expect(outcomes.pages + outcomes.stale).toBeGreaterThan(0);
  } finally {
    await test.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}
