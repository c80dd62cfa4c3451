/** `knowledge-kit search <dir> <query>`: the candidates `search_files` gives an agent. */
import { SEARCH_HELP } from '../help.js';
import { type SearchMode, isKnowledgeToolError } from '../../agent/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder, sourceOf } from '../folder.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';

/** Runs `search`. */
export async function search(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'search',
    argv,
    {
      mode: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      'follow-links': { type: 'boolean' },
      ...LINK_ROOT_FLAG,
    },
    2,
  );
  if (values['help'] === true) {
    io.stdout.write(`${SEARCH_HELP}\n`);
    return EXIT.ok;
  }
  const [dir, query] = positionals;
  if (dir === undefined || query === undefined)
    throw new CliExit(
      'knowledge-kit search: needs a folder and a query, such as `knowledge-kit search ./knowledge "return window"`. Run `knowledge-kit search --help`.',
    );
  const mode = values['mode'];
  if (mode !== undefined && mode !== 'hybrid' && mode !== 'file' && mode !== 'graph')
    throw new CliExit(
      `knowledge-kit search: --mode must be hybrid, file or graph, not \`${String(mode)}\`.`,
    );
  const limit = integerOption('search', 'limit', values['limit'], 1, 50);
  const loaded = await loadFolder('search', dir, io, {
    followLinks: values['follow-links'] === true,
    ...linkRootOption('search', dir, values['link-root']),
  });
  const source = sourceOf(loaded, knowledgeBaseId(dir, undefined));
  let output;
  try {
    output = await source.searchFiles({
      query,
      ...(mode === undefined ? {} : { mode: mode as SearchMode }),
      ...(limit === undefined ? {} : { limit }),
    });
  } catch (error) {
    if (isKnowledgeToolError(error))
      throw new CliExit(`knowledge-kit search: ${error.code}: ${error.message}`);
    throw error;
  }
  if (values['json'] === true) {
    io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return EXIT.ok;
  }
  const lines: string[] = [];
  for (const item of output.items) {
    lines.push(
      `${item.score.toFixed(3)}  ${item.path}  (${item.fileId})${item.sectionIds.length > 0 ? `  sections: ${item.sectionIds.join(', ')}` : ''}`,
    );
    lines.push(`       ${item.sourceExcerpt.replace(/\s+/g, ' ')}`);
  }
  // The tool's own message speaks to an agent (`index.md`, `list_tree`); a user has the folder.
  if (output.items.length === 0)
    lines.push(
      `nothing found for ${JSON.stringify(query)}. Try other words, such as those of a heading; \`knowledge-kit outline ${dir}\` lists every document and section.`,
    );
  else
    lines.push(
      `${output.items.length === 1 ? '1 candidate' : `${output.items.length} candidates`}${output.nextCursor === null ? '' : '; more with a larger --limit'}`,
    );
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
