/**
 * The MCP server's instructions: the reading policy, and for a source with versions
 * (`createVersionedSource`) its labels, the default, and to pass `version`.
 *
 * @module
 */
import type { KnowledgeSource } from '../agent/index.js';

/** The default server instructions: the seed's reading policy in a few sentences. */
export const KNOWLEDGE_MCP_INSTRUCTIONS =
  "Answer from this knowledge base's pages. Start with search_files on the user's complete standalone question; " +
  'its results are candidates, not evidence. Read the pages (pages/**) with read_file before answering and cite their snapshotId; ' +
  'track fileId and path to avoid rereads. When search finds nothing, read index.md or call list_tree. ' +
  'To continue a listing or a long read, pass nextCursor (alone, or with the same parameters); restart without it on STALE_CURSOR.';

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
 * The server instructions `createKnowledgeMcpServer` gives a source: `instructions` (default
 * `KNOWLEDGE_MCP_INSTRUCTIONS`), and for a source with versions (one with `versionLabels` and
 * `defaultVersion`, such as `createVersionedSource`'s) a paragraph after them naming the versions, the
 * default, the `version` argument and where the other versions' resources are. For a server you build
 * yourself (`registerKnowledgeTools`).
 *
 * @param source - the knowledge source the server serves.
 * @param instructions - the instructions without versions; default `KNOWLEDGE_MCP_INSTRUCTIONS`.
 * @returns the instructions.
 * @example
 * ```ts
 * const server = new McpServer({ name: 'docs', version: '1.0.0' }, { instructions: knowledgeMcpInstructions(source) });
 * ```
 */
export function knowledgeMcpInstructions(
  source: KnowledgeSource,
  instructions: string = KNOWLEDGE_MCP_INSTRUCTIONS,
): string {
  const base = instructions;
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
