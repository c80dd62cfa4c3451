/**
 * The store's schema: its name (checked, then quoted into statements) and the migrations that build
 * it, in order. A migration is never edited once released: a change is a new migration.
 */
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { describe } from '../shared/values.js';
import { DEFAULT_VERSION_LABEL } from '../agent/internals.js';

/** The default schema. */
export const DEFAULT_SCHEMA = 'knowledge_kit';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The schema name of `options`, checked: a lowercase SQL identifier, safe to write into a statement.
 *
 * @param api - the calling function, for the message.
 * @param schema - `options.schema`.
 * @returns the name, quoted (`"knowledge_kit"`).
 * @throws {KnowledgeError} `INVALID_INPUT` for anything else.
 */
export function schemaOf(api: string, schema: unknown): string {
  const name = schema ?? DEFAULT_SCHEMA;
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['options', 'schema'],
        message: `${api}: \`options.schema\` is ${describe(name)}; pass a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters) such as ${JSON.stringify(DEFAULT_SCHEMA)}, or leave it out.`,
      },
    ]);
  }
  return `"${name}"`;
}

/**
 * The migrations, each a list of statements for schema `s` (quoted). Version `n` is `MIGRATIONS[n - 1]`.
 *
 * - `knowledge_bases`: one row per knowledge base, with its active revision (`active_serial`).
 * - `revisions`: every kept revision, `serial` increasing per knowledge base; `revision` is the
 *   `activeContentRevision` as JSON (a string or a number).
 * - `pages`: one row per page and revision: the file record (JSON of the page's `PageRecord`), the
 *   document (JSON of the catalog's `KnowledgeDocument`), its section sizes and its relationships,
 *   precomputed at publish. JSON is kept in `text` (not `jsonb`, which refuses `\u0000` and reorders keys).
 * - `directories` (version 2): one row per directory of a revision's file tree (`""` is the root): its
 *   `DirectoryRecord` and how many directories and files it holds directly.
 * - `tree` (version 2): the direct children of each directory in `list_tree`'s order (`position`
 *   0, 1, …: directories, then files): a page by `file_id` (its record is in `pages`), a directory or a
 *   navigation file by its record (`entry`).
 * - `nav_files` (version 2): `index.md`, rendered at publish: its record and its text.
 * - `search_stats` (version 3): the corpus statistics of a revision's search index (`TermStats` as
 *   JSON); a revision without one (published by an older version) is searched in memory.
 * - `search_pages` (version 3): each page's number in the search corpus (the file table's page order)
 *   and the page numbers of its relationships (`-1` for a target that is not a page), in order.
 * - `search_terms` (version 3): one row per term and per pair of adjacent terms of the index
 *   (`TermRow`): its key, its number, its head for prefix and fuzzy matching, its page frequency, and
 *   its postings (`postings.ts`). Keys are looked up by `left(key, 200)` (a B-tree entry must stay
 *   under 2.7 KB, and a token has no length limit), heads by their own index.
 * - `knowledge_versions` (version 4): the labelled versions of each knowledge base (`3.x`, `v2`;
 *   `label` as `versionLabelProblem` allows), each with its own active revision (`active_serial`, a
 *   revision of `revisions`: two versions with the same content share it); exactly one per knowledge
 *   base is the default (`is_default`, a partial unique index). `knowledge_bases.active_serial` stays
 *   the default version's active revision, so a reader that names no version (and a reader of an
 *   older package during an upgrade) reads what it read before. The migration gives every knowledge
 *   base already stored one version, `current`, the default, with its active revision.
 */
export const MIGRATIONS: readonly ((s: string) => readonly string[])[] = [
  (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.knowledge_bases (
      id text PRIMARY KEY,
      title text NOT NULL,
      active_serial bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.revisions (
      knowledge_base text NOT NULL REFERENCES ${s}.knowledge_bases (id) ON DELETE CASCADE,
      serial bigint NOT NULL,
      revision text NOT NULL,
      content_digest text NOT NULL,
      page_count integer NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (knowledge_base, serial),
      UNIQUE (knowledge_base, revision)
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.pages (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      file_id text NOT NULL,
      path text NOT NULL,
      record text NOT NULL,
      document text NOT NULL,
      section_sizes text NOT NULL,
      relations text NOT NULL,
      PRIMARY KEY (knowledge_base, serial, file_id),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
    `CREATE INDEX IF NOT EXISTS pages_by_path ON ${s}.pages (knowledge_base, serial, path)`,
  ],
  // Version 2: what the whole-revision calls need, derived at publish so that a call reads what it
  // returns (`derived.ts` writes them; the migration fills them for the revisions already stored).
  (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.directories (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      path text NOT NULL,
      record text NOT NULL,
      directory_count integer NOT NULL,
      file_count integer NOT NULL,
      PRIMARY KEY (knowledge_base, serial, path),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.tree (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      parent text NOT NULL,
      position integer NOT NULL,
      file_id text,
      entry text,
      PRIMARY KEY (knowledge_base, serial, parent, position),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.nav_files (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      file_id text NOT NULL,
      record text NOT NULL,
      content text NOT NULL,
      PRIMARY KEY (knowledge_base, serial, file_id),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
  ],
  // Version 3: the search index as rows, so that a search reads its own terms' postings only
  // (`searchRows.ts` writes them; the migration builds them for the revisions already stored).
  (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.search_stats (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      stats text NOT NULL,
      PRIMARY KEY (knowledge_base, serial),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.search_pages (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      page_number integer NOT NULL,
      file_id text NOT NULL,
      related integer[] NOT NULL,
      PRIMARY KEY (knowledge_base, serial, page_number),
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS ${s}.search_terms (
      knowledge_base text NOT NULL,
      serial bigint NOT NULL,
      key text NOT NULL,
      ordinal integer NOT NULL,
      pair boolean NOT NULL,
      head text,
      bigram boolean NOT NULL,
      frequency integer NOT NULL,
      postings bytea NOT NULL,
      FOREIGN KEY (knowledge_base, serial) REFERENCES ${s}.revisions (knowledge_base, serial) ON DELETE CASCADE
    )`,
    `CREATE INDEX IF NOT EXISTS search_terms_by_key ON ${s}.search_terms (knowledge_base, serial, left(key, 200))`,
    `CREATE INDEX IF NOT EXISTS search_terms_by_head ON ${s}.search_terms (knowledge_base, serial, head) WHERE head IS NOT NULL`,
  ],
  // Version 4: labelled versions of a knowledge base, each with its own active revision. Named
  // `knowledge_versions` (not `versions`: `schema_version` counts these migrations).
  (s) => [
    `CREATE TABLE IF NOT EXISTS ${s}.knowledge_versions (
      knowledge_base text NOT NULL REFERENCES ${s}.knowledge_bases (id) ON DELETE CASCADE,
      label text NOT NULL,
      active_serial bigint NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      activated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (knowledge_base, label)
    )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS knowledge_versions_one_default ON ${s}.knowledge_versions (knowledge_base) WHERE is_default`,
    `INSERT INTO ${s}.knowledge_versions (knowledge_base, label, active_serial, is_default)
       SELECT b.id, '${DEFAULT_VERSION_LABEL}', b.active_serial, true FROM ${s}.knowledge_bases b
       ON CONFLICT DO NOTHING`,
  ],
];

/** The version `migrateKnowledgeStore` brings a schema to. */
export const SCHEMA_VERSION = MIGRATIONS.length;
