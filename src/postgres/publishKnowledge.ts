import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import {
  checkOptions,
  positiveInteger,
  string,
  withMethod,
  type OptionCheck,
} from '../shared/checkOptions.js';
import {
  buildChunks,
  buildFileTable,
  buildRelations,
  buildVectors,
  chunkPlace,
  computeSectionSizes,
  embeddingCacheCheck,
  searchCorpus,
  linkRootProblem,
  readLinkRoot,
} from '../agent/internals.js';
import type {
  ActiveContentRevision,
  KnowledgeEmbedder,
  KnowledgeEmbeddingCache,
  SearchCorpus,
} from '../agent/index.js';
import { isCatalogLike, isPlainObject } from '../shared/values.js';
import { deriveRows, writeDerived } from './derived.js';
import { buildSearchRows, writeSearchRows } from './searchRows.js';
import { knowledgeBaseProblem } from './knowledgeBaseId.js';
import { schemaOf } from './schema.js';
import { checkDatabase, inTransaction } from './session.js';
import { ensureVectorTable, writeVectors, type StoredVector } from './vectors.js';
import {
  DEFAULT_KEEP,
  lockKnowledgeBase,
  makeDefault,
  pruneRevisions,
  readVersions,
  syncDefault,
  versionLabel,
  versionsSentence,
} from './versions.js';
import { DEFAULT_VERSION_LABEL } from '../agent/internals.js';
import type { KnowledgeDatabase, PublishedKnowledge, PublishKnowledgeOptions } from './types.js';

const API = 'publishKnowledge';
/** Page rows per `INSERT … SELECT FROM unnest(…)` (one array per column). */
const BATCH = 1_000;

const CHECKS: Readonly<Record<keyof PublishKnowledgeOptions, OptionCheck>> = {
  knowledgeBase: () => undefined,
  catalog: () => undefined,
  files: (v) =>
    isPlainObject(v) || typeof v === 'function'
      ? undefined
      : 'a record from document ID to file options, or a function',
  revision: (v) =>
    (typeof v === 'string' && v.length > 0) || Number.isSafeInteger(v)
      ? undefined
      : 'a non-empty string or a safe integer',
  title: string,
  keep: positiveInteger,
  schema: string,
  linkRoot: linkRootProblem,
  embedder: withMethod('embed'),
  embeddingCache: embeddingCacheCheck,
  version: versionLabel,
  defaultVersion: versionLabel,
};

/**
 * Every chunk's vector, with its page number and chunk place (as the search rows number them).
 *
 * @throws `Error` naming the embedder's failure: nothing is published.
 */
async function embedChunks(
  embedder: KnowledgeEmbedder,
  cache: KnowledgeEmbeddingCache | undefined,
  corpus: SearchCorpus,
): Promise<StoredVector[]> {
  const chunks = buildChunks(corpus);
  let store;
  try {
    ({ store } = await buildVectors(embedder, chunks, new AbortController().signal, cache));
    await cache?.flush?.();
  } catch (error) {
    throw new Error(
      `${API}: \`options.embedder\` failed while embedding the new revision's chunks (${error instanceof Error ? error.message : String(error)}); nothing was published. Fix the embedder, or publish without it.`,
      { cause: error },
    );
  }
  const dims = store.dimensions;
  return Array.from({ length: chunks.count }, (_, c) => ({
    page: chunks.pageOf[c]!,
    place: chunkPlace(chunks, c),
    vector: store.data.subarray(c * dims, (c + 1) * dims),
  }));
}

/** One page row, serialized. */
interface PageRow {
  readonly fileId: string;
  readonly path: string;
  readonly record: string;
  readonly document: string;
  readonly sectionSizes: string;
  readonly relations: string;
}

/**
 * Publish a catalog as a new revision of a knowledge base, in one transaction, and make it active:
 * readers (`createPostgresSource`) see the old revision or the new one, never a mix. The page
 * records, documents, section sizes, relationships and search index (as rows: `searchRows.ts`) are
 * computed here with the same code `createCatalogSource` runs, so a source over the store answers
 * what a catalog source would.
 *
 * A knowledge base has one or more versions (`version`, default its default version, `current` for a
 * new knowledge base), each with its own active revision: publishing into one version leaves the
 * others' as they are. The first version of a knowledge base is its default; `defaultVersion` makes
 * another one the default in the same transaction (or `setDefaultKnowledgeVersion` later).
 *
 * Publishing a revision that is already stored only makes it the version's active revision (nothing
 * else is written); `previousContentRevision` says whether that changed anything. Revisions are kept
 * by publish order: the newest `keep` (default 2, the new one always among them) and every version's
 * active revision stay, so cursors issued on the previous revision end with `STALE_CURSOR` rather
 * than a failed read; older ones are removed by the same transaction.
 *
 * @param db - anything with `query(text, params)`; on a `pg.Pool` one client is used for the transaction.
 * @param options - `knowledgeBase`, `catalog`, and `files`, `revision`, `title`, `keep`, `linkRoot`,
 *   `schema`, `version`, `defaultVersion`; `embedder` (and `embeddingCache`) to store every chunk's vector in pgvector for hybrid
 *   search (the extension is created when missing).
 * @returns the knowledge base, the version published into and the default one, the version's active
 *   revision now and before, whether the revision was new, its page count, and the revisions removed.
 * @throws {KnowledgeError} `INVALID_INPUT` for bad options, invalid `files` (as `createCatalogSource`
 *   reports them), a `revision` already published with other content, a `defaultVersion` that is
 *   neither `version` nor a version the knowledge base has, or an `embedder` where the
 *   database cannot have pgvector (at `options.embedder`). An `Error` naming the embedder's failure
 *   (nothing is published). What the database throws.
 * @example
 * ```ts
 * await migrateKnowledgeStore(db);
 * const { activeContentRevision } = await publishKnowledge(db, { knowledgeBase: 'handbook', catalog, files });
 * await publishKnowledge(db, { knowledgeBase: 'handbook', catalog: older, version: '2.x' });
 * ```
 */
export async function publishKnowledge(
  db: KnowledgeDatabase,
  options: PublishKnowledgeOptions,
): Promise<PublishedKnowledge> {
  const database = checkDatabase(API, db);
  const issues: KnowledgeIssue[] = [];
  const opts = checkOptions(API, options, CHECKS, issues) as Partial<PublishKnowledgeOptions>;
  if (!isPlainObject(options)) {
    // checkOptions reported it.
  } else {
    const kb = knowledgeBaseProblem(API, opts.knowledgeBase, ['options', 'knowledgeBase']);
    if (kb) issues.push(kb);
    if (!isCatalogLike(opts.catalog))
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', 'catalog'],
        message: `${API}: \`options.catalog\` must be a catalog from \`defineKnowledgeCatalog\`.`,
      });
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  const s = schemaOf(API, opts.schema);
  const knowledgeBase = opts.knowledgeBase!;
  const catalog = opts.catalog!;
  const keep = opts.keep ?? DEFAULT_KEEP;

  // The same code paths as createCatalogSource: its file table (whose digest is the content's
  // identity), relationships and section sizes.
  const table = buildFileTable(catalog, { files: opts.files });
  const digest = String(table.activeContentRevision);
  const revision: ActiveContentRevision = opts.revision ?? digest;
  const relations = buildRelations(catalog, table, readLinkRoot(opts.linkRoot));
  const rows: PageRow[] = table.pages.map((page) => ({
    fileId: page.fileId,
    path: page.path,
    record: JSON.stringify({ ...page, kind: undefined }),
    document: JSON.stringify(catalog.document(page.fileId)),
    sectionSizes: JSON.stringify(computeSectionSizes(catalog, page.fileId)),
    relations: JSON.stringify(relations.get(page.fileId) ?? []),
  }));
  const revisionText = JSON.stringify(revision);
  const derived = deriveRows(table);

  return inTransaction(database, async (session) => {
    await lockKnowledgeBase(session, s, knowledgeBase);
    const base = await session.query(
      `SELECT active_serial FROM ${s}.knowledge_bases WHERE id = $1`,
      [knowledgeBase],
    );
    const versions = await readVersions(session, s, knowledgeBase);
    const label = opts.version ?? versions.find((v) => v.default)?.version ?? DEFAULT_VERSION_LABEL;
    const previous = versions.find((v) => v.version === label)?.activeContentRevision ?? null;
    const defaultVersion = opts.defaultVersion ?? versions.find((v) => v.default)?.version ?? label; // the first version of a knowledge base is its default
    if (defaultVersion !== label && !versions.some((v) => v.version === defaultVersion))
      throw new KnowledgeError([
        {
          code: 'INVALID_INPUT',
          path: ['options', 'defaultVersion'],
          message: `${API}: knowledge base ${JSON.stringify(knowledgeBase)} has no version ${JSON.stringify(defaultVersion)} to make the default${versions.length === 0 ? '' : ` (its versions: ${versionsSentence(versions)})`}; pass the version being published (${JSON.stringify(label)}) or one it has, or leave \`defaultVersion\` out. Nothing was published.`,
        },
      ]);
    /** Make `serial` the version's active revision and settle the default. */
    const activate = async (serial: unknown): Promise<void> => {
      await session.query(
        `INSERT INTO ${s}.knowledge_versions (knowledge_base, label, active_serial, is_default)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (knowledge_base, label)
         DO UPDATE SET active_serial = EXCLUDED.active_serial, activated_at = now()`,
        [knowledgeBase, label, serial, versions.length === 0],
      );
      if (versions.length > 0 && !versions.some((v) => v.default && v.version === defaultVersion))
        await makeDefault(session, s, knowledgeBase, defaultVersion);
      else await syncDefault(session, s, knowledgeBase);
      if (opts.title !== undefined)
        await session.query(`UPDATE ${s}.knowledge_bases SET title = $2 WHERE id = $1`, [
          knowledgeBase,
          opts.title,
        ]);
    };
    const outcome = { knowledgeBase, version: label, defaultVersion };
    const found = await session.query(
      `SELECT serial, content_digest, page_count FROM ${s}.revisions WHERE knowledge_base = $1 AND revision = $2`,
      [knowledgeBase, revisionText],
    );
    const existing = found.rows[0];
    if (existing !== undefined) {
      if (existing['content_digest'] !== digest)
        throw new KnowledgeError([
          {
            code: 'INVALID_INPUT',
            path: ['options', 'revision'],
            message: `${API}: the revision ${revisionText} of knowledge base ${JSON.stringify(knowledgeBase)} is already published with other content. Pass a new \`revision\`, or leave it out to use the content's digest.`,
          },
        ]);
      if (base.rows.length === 0)
        // A knowledge base removed while its revisions stayed cannot be: revisions cascade.
        throw new Error(`${API}: revisions of an unknown knowledge base`);
      await activate(existing['serial']);
      return {
        ...outcome,
        activeContentRevision: revision,
        previousContentRevision: previous,
        created: false,
        pages: Number(existing['page_count']),
        removed: [],
      };
    }
    // The search index as rows (what the in-memory engine would index), built only for a new revision.
    const search = await buildSearchRows(catalog, table, relations);
    const next = await session.query(
      `SELECT coalesce(max(serial), 0) + 1 AS serial FROM ${s}.revisions WHERE knowledge_base = $1`,
      [knowledgeBase],
    );
    const serial = Number(next.rows[0]!['serial']);
    if (base.rows.length === 0)
      await session.query(
        `INSERT INTO ${s}.knowledge_bases (id, title, active_serial) VALUES ($1, $2, $3)`,
        [knowledgeBase, opts.title ?? knowledgeBase, serial],
      );
    await session.query(
      `INSERT INTO ${s}.revisions (knowledge_base, serial, revision, content_digest, page_count) VALUES ($1, $2, $3, $4, $5)`,
      [knowledgeBase, serial, revisionText, digest, rows.length],
    );
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await session.query(
        `INSERT INTO ${s}.pages (knowledge_base, serial, file_id, path, record, document, section_sizes, relations)
         SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
        [
          knowledgeBase,
          serial,
          batch.map((row) => row.fileId),
          batch.map((row) => row.path),
          batch.map((row) => row.record),
          batch.map((row) => row.document),
          batch.map((row) => row.sectionSizes),
          batch.map((row) => row.relations),
        ],
      );
    }
    await writeDerived(session, s, knowledgeBase, serial, derived);
    await writeSearchRows(session, s, knowledgeBase, serial, search);
    if (opts.embedder !== undefined) {
      await ensureVectorTable(session, s, API);
      await writeVectors(
        session,
        s,
        knowledgeBase,
        serial,
        await embedChunks(
          opts.embedder,
          opts.embeddingCache,
          searchCorpus(catalog, table, relations),
        ),
      );
    }
    await activate(serial);
    const removed = await pruneRevisions(session, s, knowledgeBase, keep);
    return {
      ...outcome,
      activeContentRevision: revision,
      previousContentRevision: previous,
      created: true,
      pages: rows.length,
      removed,
    };
  });
}
