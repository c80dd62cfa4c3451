/**
 * The versions of a knowledge base in the store (schema version 4): listing them, choosing the
 * default, removing one. Each version has its own active revision (`knowledge_versions`); revisions
 * are shared (two versions with the same content have the same one) and never change.
 * `knowledge_bases.active_serial` is kept equal to the default version's active revision.
 */
import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import { checkOptions, positiveInteger, string, type OptionCheck } from '../shared/checkOptions.js';
import { isPlainObject } from '../shared/values.js';
import { versionLabelProblem } from '../agent/internals.js';
import type { ActiveContentRevision } from '../agent/index.js';
import { isoOf } from './activeRevision.js';
import { knowledgeBaseProblem } from './knowledgeBaseId.js';
import { schemaOf } from './schema.js';
import { checkDatabase, inTransaction } from './session.js';
import type {
  KnowledgeDatabase,
  ListKnowledgeVersionsOptions,
  SetDefaultKnowledgeVersionOptions,
  StoredKnowledgeVersion,
  UnpublishedKnowledgeVersion,
  UnpublishKnowledgeVersionOptions,
} from './types.js';

/** How many revisions beyond the active ones a removal keeps by default (as a publish). */
export const DEFAULT_KEEP = 2;

/** The check of a version label option. */
export const versionLabel: OptionCheck = (v) => {
  const problem = versionLabelProblem(v);
  return problem === undefined ? undefined : `a version label such as "3.x" (${problem})`;
};

/**
 * The versions of `knowledgeBase` with their active revisions, in code-unit order of their labels.
 *
 * @param db - the database or a transaction's session.
 * @param s - the quoted schema.
 * @param knowledgeBase - the knowledge base.
 * @returns the versions; none when the knowledge base is not in the store.
 */
export async function readVersions(
  db: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
): Promise<readonly StoredKnowledgeVersion[]> {
  const { rows } = await db.query(
    `SELECT v.label, v.is_default, r.revision, r.published_at
       FROM ${s}.knowledge_versions v
       JOIN ${s}.revisions r ON r.knowledge_base = v.knowledge_base AND r.serial = v.active_serial
      WHERE v.knowledge_base = $1
      ORDER BY v.label COLLATE "C"`,
    [knowledgeBase],
  );
  return Object.freeze(
    rows.map((row) =>
      Object.freeze({
        version: String(row['label']),
        default: row['is_default'] === true,
        activeContentRevision: JSON.parse(String(row['revision'])) as ActiveContentRevision,
        publishedAt: isoOf(row['published_at']) ?? '',
      }),
    ),
  );
}

/** The versions as a sentence: `` `2.x`, `3.x` (default) ``. */
export function versionsSentence(versions: readonly StoredKnowledgeVersion[]): string {
  return versions.map((v) => `\`${v.version}\`${v.default ? ' (default)' : ''}`).join(', ');
}

/**
 * Make `label` the default version of `knowledgeBase` and its active revision the knowledge base's
 * (in the caller's transaction). Two statements: a unique index is checked row by row, so one
 * `UPDATE` that moves the flag could see two defaults in between.
 */
export async function makeDefault(
  session: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  label: string,
): Promise<void> {
  await session.query(
    `UPDATE ${s}.knowledge_versions SET is_default = false WHERE knowledge_base = $1 AND is_default AND label <> $2`,
    [knowledgeBase, label],
  );
  await session.query(
    `UPDATE ${s}.knowledge_versions SET is_default = true WHERE knowledge_base = $1 AND label = $2`,
    [knowledgeBase, label],
  );
  await syncDefault(session, s, knowledgeBase);
}

/** Set `knowledge_bases.active_serial` to the default version's active revision. */
export async function syncDefault(
  session: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
): Promise<void> {
  await session.query(
    `UPDATE ${s}.knowledge_bases b SET active_serial = v.active_serial, updated_at = now()
       FROM ${s}.knowledge_versions v
      WHERE v.knowledge_base = b.id AND v.is_default AND b.id = $1`,
    [knowledgeBase],
  );
}

/**
 * Remove the revisions of `knowledgeBase` that no version has active, beyond the newest `keep`
 * (by publish order).
 *
 * @returns the revisions removed.
 */
export async function pruneRevisions(
  session: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
  keep: number,
): Promise<readonly ActiveContentRevision[]> {
  const pruned = await session.query(
    `DELETE FROM ${s}.revisions WHERE knowledge_base = $1
        AND serial NOT IN (SELECT active_serial FROM ${s}.knowledge_versions WHERE knowledge_base = $1)
        AND serial NOT IN (
          SELECT serial FROM ${s}.revisions WHERE knowledge_base = $1 ORDER BY serial DESC LIMIT $2
        )
      RETURNING revision`,
    [knowledgeBase, keep],
  );
  return pruned.rows.map((r) => JSON.parse(String(r['revision'])) as ActiveContentRevision);
}

/**
 * The first checks of a versions call: `db`, then `options` by `checks` plus the `knowledgeBase` every
 * call requires, and `version` required when `versionExample` is given (the example its message
 * shows). The caller adds its own issues and throws them all together.
 */
function versionsCall<T extends object>(
  api: string,
  db: KnowledgeDatabase,
  options: T,
  checks: Readonly<Record<string, OptionCheck>>,
  versionExample?: string,
): { database: KnowledgeDatabase; opts: Partial<T>; issues: KnowledgeIssue[] } {
  const database = checkDatabase(api, db);
  const issues: KnowledgeIssue[] = [];
  const opts = checkOptions(
    api,
    options,
    { knowledgeBase: () => undefined, ...checks },
    issues,
  ) as Partial<T>;
  // Without options at all, only `knowledgeBase` is named: the one option every call needs.
  const given: unknown = options ?? {};
  if (isPlainObject(given)) {
    const at = ['options', 'knowledgeBase'];
    const problem = knowledgeBaseProblem(api, given['knowledgeBase'], at);
    if (problem) issues.push(problem);
  }
  if (
    versionExample !== undefined &&
    isPlainObject(options) &&
    (opts as { readonly version?: unknown }).version === undefined
  )
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'version'],
      message: `${api}: \`options.version\` is required, such as ${versionExample}.`,
    });
  return { database, opts, issues };
}

/** Refusal: `knowledgeBase` is not in the store. */
function noKnowledgeBase(api: string, knowledgeBase: string): KnowledgeError {
  return new KnowledgeError([
    {
      code: 'INVALID_INPUT',
      path: ['options', 'knowledgeBase'],
      message: `${api}: the store has no knowledge base ${JSON.stringify(knowledgeBase)}. Publish it first (\`publishKnowledge\`), or pick one of \`listKnowledgeBases\`.`,
    },
  ]);
}

/** Refusal: the knowledge base has no version `label` (at `options.<key>`). */
function noVersion(
  api: string,
  key: string,
  knowledgeBase: string,
  label: string,
  versions: readonly StoredKnowledgeVersion[],
): KnowledgeError {
  return new KnowledgeError([
    {
      code: 'INVALID_INPUT',
      path: ['options', key],
      message: `${api}: knowledge base ${JSON.stringify(knowledgeBase)} has no version ${JSON.stringify(label)}. Its versions: ${versionsSentence(versions)}. Pass one of them as \`${key}\`.`,
    },
  ]);
}

/**
 * Every version of a knowledge base, each with whether it is the default, its active revision and
 * when that revision was published, in code-unit order of their labels.
 *
 * @param db - anything with `query(text, params)`.
 * @param options - `knowledgeBase`, and `schema` (default `knowledge_kit`).
 * @returns the versions; an empty list when the knowledge base is not in the store.
 * @throws {KnowledgeError} `INVALID_INPUT` for a bad `db` or options. What the database throws (such
 *   as a missing schema: run `migrateKnowledgeStore` first).
 * @example
 * ```ts
 * for (const v of await listKnowledgeVersions(db, { knowledgeBase: 'handbook' }))
 *   console.log(v.version, v.default ? '(default)' : '', v.activeContentRevision);
 * ```
 */
export async function listKnowledgeVersions(
  db: KnowledgeDatabase,
  options: ListKnowledgeVersionsOptions,
): Promise<readonly StoredKnowledgeVersion[]> {
  const api = 'listKnowledgeVersions';
  const { database, opts, issues } = versionsCall<ListKnowledgeVersionsOptions>(api, db, options, {
    schema: string,
  });
  if (issues.length > 0) throw new KnowledgeError(issues);
  return readVersions(database, schemaOf(api, opts.schema), opts.knowledgeBase!);
}

/**
 * Make one version of a knowledge base its default: the version a reader that names no version
 * reads (`createPostgresSource` without `version` sees it on its next call). Idempotent.
 *
 * @param db - anything with `query(text, params)`.
 * @param options - `knowledgeBase`, `version`, and `schema`.
 * @returns the knowledge base's versions after the change.
 * @throws {KnowledgeError} `INVALID_INPUT` for bad options, a knowledge base not in the store, or a
 *   version it does not have (the message lists its versions). What the database throws.
 * @example
 * ```ts
 * await setDefaultKnowledgeVersion(db, { knowledgeBase: 'handbook', version: '3.x' });
 * ```
 */
export async function setDefaultKnowledgeVersion(
  db: KnowledgeDatabase,
  options: SetDefaultKnowledgeVersionOptions,
): Promise<readonly StoredKnowledgeVersion[]> {
  const api = 'setDefaultKnowledgeVersion';
  const { database, opts, issues } = versionsCall<SetDefaultKnowledgeVersionOptions>(
    api,
    db,
    options,
    { version: versionLabel, schema: string },
    '"3.x"',
  );
  return changeVersion(
    api,
    database,
    opts,
    issues,
    async ({ session, s, knowledgeBase, label }) => {
      await makeDefault(session, s, knowledgeBase, label);
      return readVersions(session, s, knowledgeBase);
    },
  );
}

/** What a change of one version works on, in its transaction. */
interface VersionChange {
  readonly session: KnowledgeDatabase;
  /** The schema, quoted. */
  readonly s: string;
  readonly knowledgeBase: string;
  /** The version named by `options.version`. */
  readonly label: string;
  /** The knowledge base's versions before the change. */
  readonly versions: readonly StoredKnowledgeVersion[];
  /** The named version's entry in `versions`. */
  readonly target: StoredKnowledgeVersion;
}

/**
 * Runs a change of one version of a knowledge base: throws the options' `issues`, then, in a
 * transaction holding the knowledge base's lock, reads its versions, refuses a knowledge base not in
 * the store or a version it does not have, and runs `change`.
 */
function changeVersion<R>(
  api: string,
  database: KnowledgeDatabase,
  opts: { readonly schema?: string; readonly knowledgeBase?: string; readonly version?: string },
  issues: readonly KnowledgeIssue[],
  change: (at: VersionChange) => Promise<R>,
): Promise<R> {
  if (issues.length > 0) throw new KnowledgeError(issues);
  const s = schemaOf(api, opts.schema);
  const knowledgeBase = opts.knowledgeBase!;
  const label = opts.version!;
  return inTransaction(database, async (session) => {
    await lockKnowledgeBase(session, s, knowledgeBase);
    const versions = await readVersions(session, s, knowledgeBase);
    if (versions.length === 0) throw noKnowledgeBase(api, knowledgeBase);
    const target = versions.find((v) => v.version === label);
    if (target === undefined) throw noVersion(api, 'version', knowledgeBase, label, versions);
    return change({ session, s, knowledgeBase, label, versions, target });
  });
}

/**
 * Take the lock every change of one knowledge base takes (publishes, default changes, removals run one
 * at a time per knowledge base).
 */
export async function lockKnowledgeBase(
  session: KnowledgeDatabase,
  s: string,
  knowledgeBase: string,
): Promise<void> {
  await session.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `knowledge-kit publish ${s} ${knowledgeBase}`,
  ]);
}

/**
 * Remove one version of a knowledge base: readers of it (`createPostgresSource` with that `version`)
 * answer `VERSION_NOT_FOUND` from their next call; the other versions are untouched. Never the last
 * version (publish another first, or publish into this one to replace its content); the default only
 * with `defaultVersion` naming the version that becomes the default. The revisions no version has
 * active any more are removed beyond the newest `keep`.
 *
 * @param db - anything with `query(text, params)`.
 * @param options - `knowledgeBase`, `version`, and `defaultVersion`, `keep`, `schema`.
 * @returns the version removed, the default now, and the revisions removed.
 * @throws {KnowledgeError} `INVALID_INPUT` for bad options, a knowledge base not in the store, a
 *   version it does not have, its last version, or its default without `defaultVersion` (each message
 *   says what to pass). What the database throws.
 * @example
 * ```ts
 * await unpublishKnowledgeVersion(db, { knowledgeBase: 'handbook', version: '1.x' });
 * ```
 */
export async function unpublishKnowledgeVersion(
  db: KnowledgeDatabase,
  options: UnpublishKnowledgeVersionOptions,
): Promise<UnpublishedKnowledgeVersion> {
  const api = 'unpublishKnowledgeVersion';
  const { database, opts, issues } = versionsCall<UnpublishKnowledgeVersionOptions>(
    api,
    db,
    options,
    { version: versionLabel, defaultVersion: versionLabel, keep: positiveInteger, schema: string },
    '"1.x"',
  );
  if (
    opts.version !== undefined &&
    opts.defaultVersion !== undefined &&
    opts.version === opts.defaultVersion
  )
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'defaultVersion'],
      message: `${api}: \`options.defaultVersion\` names the version being removed (${JSON.stringify(opts.version)}); name another version of the knowledge base, or leave it out.`,
    });
  return changeVersion(api, database, opts, issues, async (change) => {
    const { session, s, knowledgeBase, label, versions, target } = change;
    if (versions.length === 1)
      throw new KnowledgeError([
        {
          code: 'INVALID_INPUT',
          path: ['options', 'version'],
          message: `${api}: ${JSON.stringify(label)} is the only version of knowledge base ${JSON.stringify(knowledgeBase)}, and a knowledge base keeps at least one. Publish another version first (\`publishKnowledge\` with \`version\`), or publish into this one to replace its content.`,
        },
      ]);
    const nextDefault = opts.defaultVersion;
    if (nextDefault !== undefined && !versions.some((v) => v.version === nextDefault))
      throw noVersion(api, 'defaultVersion', knowledgeBase, nextDefault, versions);
    if (target.default && nextDefault === undefined)
      throw new KnowledgeError([
        {
          code: 'INVALID_INPUT',
          path: ['options', 'defaultVersion'],
          message: `${api}: ${JSON.stringify(label)} is the default version of knowledge base ${JSON.stringify(knowledgeBase)}; name the version that becomes the default as \`defaultVersion\` (one of ${versionsSentence(versions.filter((v) => v !== target))}).`,
        },
      ]);
    if (nextDefault !== undefined) await makeDefault(session, s, knowledgeBase, nextDefault);
    await session.query(
      `DELETE FROM ${s}.knowledge_versions WHERE knowledge_base = $1 AND label = $2`,
      [knowledgeBase, label],
    );
    const removed = await pruneRevisions(session, s, knowledgeBase, opts.keep ?? DEFAULT_KEEP);
    const defaultVersion =
      nextDefault ?? versions.find((v) => v.default && v.version !== label)!.version;
    return Object.freeze({
      knowledgeBase,
      version: label,
      defaultVersion,
      removed: Object.freeze([...removed]),
    });
  });
}
