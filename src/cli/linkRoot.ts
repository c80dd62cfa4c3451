/** `--link-root DIR` of the commands that serve a folder's links (`serve`, `mcp`, `search`). */
import type { KnowledgeSource } from '../agent/index.js';
import { linkCountsOf } from '../agent/internals.js';
import { isKnowledgeError } from '../errors/isKnowledgeError.js';
import { linkRootOf } from '../node/internals.js';
import { resolve } from 'node:path';
import { type CliIo, CliExit } from './io.js';
import { count } from './problems.js';

/** The flag's `parseArgs` option. */
export const LINK_ROOT_FLAG = { 'link-root': { type: 'string' } } as const;

/**
 * The loader option of `--link-root`, checked against `dir` before anything is read: a usage error
 * (exit 2) names the flag when the folder neither is, holds nor is held by `dir`.
 */
export function linkRootOption(
  command: string,
  dir: string,
  value: unknown,
): { readonly linkRoot?: string } {
  if (value === undefined) return {};
  try {
    linkRootOf(resolve(dir), value, '--link-root');
  } catch (error) {
    if (!isKnowledgeError(error)) throw error;
    throw new CliExit(
      `knowledge-kit ${command}: ${error.message.replace(/^loadKnowledgeDirectory: /, '')}`,
    );
  }
  return { linkRoot: value as string };
}

/**
 * One stderr line when site-root links of the folder name no page: how many links resolve, how many
 * site-root ones do not, and one of them, so that a missing or wrong `--link-root` shows at start.
 */
export function reportLinks(command: string, source: KnowledgeSource, io: CliIo): void {
  const links = linkCountsOf(source);
  if (links === undefined || links.unresolvedSiteRoot === 0) return;
  const example = links.examples[0];
  const one = links.unresolvedSiteRoot === 1;
  io.stderr.write(
    `knowledge-kit ${command}: ${count(links.resolved, 'link')} between pages; ${count(links.unresolvedSiteRoot, 'site-root link')} ${one ? 'names' : 'name'} no page${example === undefined ? '' : ` (such as \`${example.url}\` in \`${example.from}\`)`}, and ${one ? 'is' : 'are'} left out of read_related and expand_graph. --link-root names the folder \`/\` stands for (the docs site's root).\n`,
  );
}
