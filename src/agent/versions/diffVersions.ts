/**
 * `diffVersions`: what changed between two versions of one knowledge base.
 *
 * @module
 */
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { KnowledgeCallContext } from '../types.js';
import { versionView } from './createVersionedSource.js';
import { diffSources, type KnowledgeVersionDiff } from './diffSources.js';

/**
 * The pages added, removed and changed between versions `from` and `to` of `source` (by path), and for
 * each changed page its anchored sections and headings added, removed and changed (by content): what
 * an author reviews before publishing, and what an agent asks when a user upgrades. Read through the
 * six tools, so any source with versions compares (`createVersionedSource`, a remote knowledge base).
 *
 * @param source - a source with both versions.
 * @param from - the older version's label.
 * @param to - the newer version's label.
 * @param context - a signal that stops the comparison, and the call's request ID.
 * @returns the differences; `added`, `removed` and `changed` sorted by path.
 * @throws `KnowledgeToolError` `VERSION_NOT_FOUND` when the source lacks either version (listing
 *   those it has), and the source's other errors as they come (a failed read is never a difference).
 * @example
 * ```ts
 * const diff = await diffVersions(source, '2.x', '3.x');
 * diff.added; // ['pages/guide/new-config.md']
 * diff.changed[0]?.headings.changed; // ['options']
 * ```
 */
export async function diffVersions(
  source: KnowledgeSource,
  from: string,
  to: string,
  context?: KnowledgeCallContext,
): Promise<KnowledgeVersionDiff> {
  return diffSources(
    { label: from, source: versionView(source, from) },
    { label: to, source: versionView(source, to) },
    context,
  );
}
