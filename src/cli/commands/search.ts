/**
 * `knowledge-kit search <dir> <query>` (or `--database <url> --kb <id> <query>`): the candidates
 * `search_files` gives an agent.
 */
import { SEARCH_HELP } from '../help.js';
import { type SearchFilesInput, type SearchMode, isKnowledgeToolError } from '../../agent/index.js';
import { integerOption } from '../args.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { openSource, parseSourceArgs, type OpenedSource } from '../openSource.js';
import { shellWord } from '../shellWord.js';
import { escapeControls } from '../problems.js';

/** The filters `--path-prefix`, `--tag` and `--locale` give `search_files`. */
type SearchFilters = Pick<SearchFilesInput, 'pathPrefix' | 'tags' | 'locale'>;

/** Runs `search`. */
export async function search(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseSourceArgs('search', argv);
  const { values } = args;
  if (args.help) {
    io.stdout.write(`${SEARCH_HELP}\n`);
    return EXIT.ok;
  }
  const [query] = args.args;
  if (query === undefined)
    throw new CliExit(
      args.place.kind === 'versions'
        ? 'knowledge-kit search: needs a query after the options, such as `knowledge-kit search --version 3.x=./docs --version 2.x=./docs-v2 --version 2.x "return window"`. Run `knowledge-kit search --help`.'
        : 'knowledge-kit search: needs a folder and a query, such as `knowledge-kit search ./knowledge "return window"`. Run `knowledge-kit search --help`.',
    );
  const mode = values['mode'];
  if (mode !== undefined && mode !== 'hybrid' && mode !== 'file' && mode !== 'graph')
    throw new CliExit(
      `knowledge-kit search: --mode must be hybrid, file or graph, not \`${String(mode)}\`.`,
    );
  const limit = integerOption('search', 'limit', values['limit'], 1, 50);
  const maxReadChars = integerOption(
    'search',
    'max-chars',
    values['max-chars'],
    1,
    Number.MAX_SAFE_INTEGER,
  );
  // The search_files filters, as the tool takes them (the tool checks their values).
  const filters: SearchFilters = {
    ...(values['path-prefix'] === undefined
      ? {}
      : { pathPrefix: values['path-prefix'] as string[] }),
    ...(values['tag'] === undefined ? {} : { tags: values['tag'] as string[] }),
    ...(values['locale'] === undefined ? {} : { locale: String(values['locale']) }),
  };
  const opened = await openSource(args, io, {
    served: maxReadChars === undefined ? {} : { maxReadChars },
  });
  try {
    return await searchIn(
      opened,
      query,
      mode as SearchMode | undefined,
      limit,
      filters,
      maxReadChars,
      values['json'] === true,
      io,
    );
  } finally {
    await opened.close();
  }
}

/** The search itself, and its lines. */
async function searchIn(
  opened: OpenedSource,
  query: string,
  mode: SearchMode | undefined,
  limit: number | undefined,
  filters: SearchFilters,
  maxReadChars: number | undefined,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const source = opened.single!.source;
  let output;
  try {
    output = await source.searchFiles({
      query,
      ...(mode === undefined ? {} : { mode }),
      ...(limit === undefined ? {} : { limit }),
      ...filters,
    });
  } catch (error) {
    if (isKnowledgeToolError(error))
      throw new CliExit(`knowledge-kit search: ${error.code}: ${error.message}`);
    throw error;
  }
  if (json) {
    io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return EXIT.ok;
  }
  const lines: string[] = [];
  for (const item of output.items) {
    lines.push(
      `${item.score.toFixed(3)}  ${item.path}  (${item.fileId})${item.sectionIds.length > 0 ? `  sections: ${item.sectionIds.join(', ')}` : ''}${item.heading === null ? '' : `  heading: ${item.heading.text} {#${item.heading.id}}`}`,
    );
    lines.push(`       ${item.sourceExcerpt.replace(/\s+/g, ' ')}`);
  }
  // The tool's own message speaks to an agent (`index.md`, `list_tree`); a user has the folder.
  if (output.items.length === 0 && Object.keys(filters).length > 0 && output.message !== null)
    // The tool's message names the filter that kept no page.
    lines.push(`nothing found for ${JSON.stringify(query)}: ${output.message}`);
  else if (output.items.length === 0)
    lines.push(
      `nothing found for ${JSON.stringify(query)}. Try other words, such as those of a heading; \`knowledge-kit outline ${opened.words.join(' ')}\` lists every document and section.`,
    );
  else {
    lines.push(
      `${output.items.length === 1 ? '1 candidate' : `${output.items.length} candidates`}${output.nextCursor === null ? '' : '; more with a larger --limit'}`,
    );
    // What an agent reads next, in parts of that size.
    if (maxReadChars !== undefined)
      lines.push(
        `read the first as an agent would: knowledge-kit read ${[...opened.words, output.items[0]!.fileId].map(shellWord).join(' ')} --max-chars ${maxReadChars}`,
      );
  }
  // Paths, IDs and excerpts come from the files: escaped as `check` escapes them (no terminal escape
  // sequence, no line of their own).
  io.stdout.write(`${lines.map(escapeControls).join('\n')}\n`);
  return EXIT.ok;
}
