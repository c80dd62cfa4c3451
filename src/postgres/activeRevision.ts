import type { StoreRevision } from '../agent/internals.js';
import type { ActiveContentRevision } from '../agent/index.js';

/**
 * Which revision a read is of: the active revision of the knowledge base's default version
 * (`knowledge_bases.active_serial`, as before versions existed), or of one labelled version
 * (`knowledge_versions.active_serial`). Each read writes `FROM ${activeTable(…)} b` and filters on
 * `b.id = $1`; for a version the label is one more parameter, at the end.
 */

/**
 * The table of active revisions a read joins, as `b (id, active_serial)`.
 *
 * @param s - the quoted schema.
 * @param version - the version served, or `undefined` for the default one.
 * @param param - the number of the parameter holding the label (`$n`), when `version` is given.
 * @returns a table expression (alias it `b`).
 */
export function activeTable(s: string, version: string | undefined, param: number): string {
  return version === undefined
    ? `${s}.knowledge_bases`
    : `(SELECT knowledge_base AS id, active_serial FROM ${s}.knowledge_versions WHERE label = $${param})`;
}

/**
 * `params`, with the label at the end when a version is served (the parameter `activeTable` names).
 *
 * @param params - the read's own parameters.
 * @param version - the version served, or `undefined`.
 * @returns the parameters to send.
 */
export function withVersion(
  params: readonly unknown[],
  version: string | undefined,
): readonly unknown[] {
  return version === undefined ? params : [...params, version];
}

/**
 * The column `version_label` of a read: with no `version` served, the default version's label
 * (`knowledge_versions`, `$1` the knowledge base), read in the same statement so that outputs name the
 * version they answer from; with one, `NULL` (the source knows its label).
 *
 * @param s - the quoted schema.
 * @param version - the version served, or `undefined` for the default one.
 * @returns a select-list item.
 */
export function labelColumn(s: string, version: string | undefined): string {
  return version === undefined
    ? `(SELECT v.label FROM ${s}.knowledge_versions v WHERE v.knowledge_base = $1 AND v.is_default) AS version_label`
    : 'NULL::text AS version_label';
}

/**
 * The revision a row of a read names: `serial`, `revision`, `published_at` and `version_label`
 * (`labelColumn`).
 *
 * @param row - the row.
 * @returns the revision, pinned by its serial.
 */
export function revisionOf(row: Record<string, unknown>): StoreRevision<number> {
  const label = row['version_label'];
  return {
    pin: Number(row['serial']),
    revision: JSON.parse(String(row['revision'])) as ActiveContentRevision,
    publishedAt: isoOf(row['published_at']),
    version: typeof label === 'string' ? label : undefined,
  };
}

/**
 * A `published_at` value as ISO 8601 (drivers return a `Date`, some a string).
 *
 * @param value - the column's value.
 * @returns the ISO string, or `undefined` when the column was not read.
 */
export function isoOf(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return new Date(value).toISOString();
  return undefined;
}
