import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { checkOptions, string, type OptionCheck } from '../shared/checkOptions.js';
import type { ActiveContentRevision } from '../agent/index.js';
import { schemaOf } from './schema.js';
import { checkDatabase } from './session.js';
import type { KnowledgeDatabase, KnowledgeStoreOptions, StoredKnowledgeBase } from './types.js';

const API = 'listKnowledgeBases';
const CHECKS: Readonly<Record<keyof KnowledgeStoreOptions, OptionCheck>> = { schema: string };

/**
 * Every knowledge base of the store with its active revision, in code-unit order of their IDs: for
 * an HTTP `access` hook or the command line.
 *
 * @param db - anything with `query(text, params)`.
 * @param options - `schema`, default `knowledge_kit`.
 * @returns the knowledge bases, each with its title, active revision, page count and publish time.
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad `db` or options. What the database throws (such
 *   as a missing schema: run `migrateKnowledgeStore` first).
 * @example
 * ```ts
 * for (const kb of await listKnowledgeBases(db)) console.log(kb.id, kb.activeContentRevision);
 * ```
 */
export async function listKnowledgeBases(
  db: KnowledgeDatabase,
  options?: KnowledgeStoreOptions,
): Promise<readonly StoredKnowledgeBase[]> {
  const database = checkDatabase(API, db);
  const issues: KnowledgeIssue[] = [];
  const opts = checkOptions(API, options, CHECKS, issues) as KnowledgeStoreOptions;
  if (issues.length > 0) throw new KnowledgeError(issues);
  const s = schemaOf(API, opts.schema);
  const { rows } = await database.query(
    `SELECT b.id, b.title, r.revision, r.page_count, r.published_at
       FROM ${s}.knowledge_bases b JOIN ${s}.revisions r ON r.knowledge_base = b.id AND r.serial = b.active_serial
      ORDER BY b.id COLLATE "C"`,
  );
  return Object.freeze(
    rows.map((row) =>
      Object.freeze({
        id: String(row['id']),
        title: String(row['title']),
        activeContentRevision: JSON.parse(String(row['revision'])) as ActiveContentRevision,
        pages: Number(row['page_count']),
        publishedAt: new Date(row['published_at'] as string | Date).toISOString(),
      }),
    ),
  );
}
