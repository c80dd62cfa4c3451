/**
 * What the MCP server's instructions say of a source with versions (`createVersionedSource`): its
 * labels, the default, and to pass `version`.
 *
 * @module
 */
import type { KnowledgeSource } from '../agent/index.js';

/** The labels and default of a source with versions, or `undefined` for a source without. */
function versionsOf(
  source: KnowledgeSource,
): { readonly labels: readonly string[]; readonly fallback: string } | undefined {
  const { versionLabels, defaultVersion } = source as {
    readonly versionLabels?: unknown;
    readonly defaultVersion?: unknown;
  };
  if (!Array.isArray(versionLabels) || typeof defaultVersion !== 'string') return undefined;
  const labels = versionLabels.filter((label): label is string => typeof label === 'string');
  return labels.length === 0 ? undefined : { labels, fallback: defaultVersion };
}

/**
 * The server instructions for `source`: `base`, and for a source with versions (one with
 * `versionLabels` and `defaultVersion`, such as `createVersionedSource`'s) a paragraph naming them, the
 * default, the `version` argument and where the other versions' resources are.
 *
 * @param source - the knowledge source the server serves.
 * @param base - the instructions without versions.
 * @returns the instructions.
 */
export function instructionsWithVersions(source: KnowledgeSource, base: string): string {
  const versions = versionsOf(source);
  if (versions === undefined) return base;
  const { labels, fallback } = versions;
  const listed = labels
    .map((label) => `\`${label}\`${label === fallback ? ' (default)' : ''}`)
    .join(', ');
  const other = labels.find((label) => label !== fallback);
  return (
    `${base}\n\nThis knowledge base has versions: ${listed}. Every tool takes \`version\`: pass the version the user asks about (the version of the product they use); without it, \`${fallback}\` answers. ` +
    'Every output names the version that answered; a version not listed is refused with VERSION_NOT_FOUND, never answered from another, and a cursor continues its own version. ' +
    (other === undefined
      ? ''
      : `Resources of versions other than the default are under knowledge:///versions/{version}/, such as knowledge:///versions/${other}/index.md.`)
  ).trimEnd();
}
