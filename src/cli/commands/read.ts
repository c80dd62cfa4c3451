/**
 * `knowledge-kit read <dir> <documentId>` (or `--database <url> --kb <id> <documentId>`): a snapshot,
 * as the app would hand it to a model.
 */
import { READ_HELP } from '../help.js';
import type { KnowledgeSelection } from '../../types.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { integerOption, listOption } from '../args.js';
import { isKnowledgeToolError } from '../../agent/index.js';
import { shellWord } from '../shellWord.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { openSource, parseSourceArgs, type OpenedSource } from '../openSource.js';
import { readProblem } from '../readProblem.js';

/** Runs `read`. */
export async function read(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseSourceArgs('read', argv);
  const { values } = args;
  if (args.help) {
    io.stdout.write(`${READ_HELP}\n`);
    return EXIT.ok;
  }
  const [documentId] = args.args;
  if (documentId === undefined)
    throw new CliExit(
      args.place.kind === 'folder'
        ? 'knowledge-kit read: needs a folder and a document ID, such as `knowledge-kit read ./knowledge guide`. Run `knowledge-kit read --help`.'
        : args.place.kind === 'versions'
          ? 'knowledge-kit read: needs a document ID after the options, such as `knowledge-kit read --version 3.x=./docs --version 2.x=./docs-v2 --version 2.x guide`. Run `knowledge-kit read --help`.'
          : 'knowledge-kit read: needs a document ID after the options, such as `knowledge-kit read --database postgres://localhost/kb --kb handbook guide`. Run `knowledge-kit read --help`.',
    );
  const self = listOption(values['self']);
  const subtree = listOption(values['subtree']);
  if (self.length > 0 && subtree.length > 0)
    throw new CliExit(
      'knowledge-kit read: give --self or --subtree, not both: a snapshot has one mode.',
    );
  if (
    (values['self'] !== undefined && self.length === 0) ||
    (values['subtree'] !== undefined && subtree.length === 0)
  ) {
    throw new CliExit(
      'knowledge-kit read: --self and --subtree need section IDs, such as `--subtree returns,delivery`.',
    );
  }
  const heading = values['heading'] as string | undefined;
  if (heading !== undefined && (self.length > 0 || subtree.length > 0))
    throw new CliExit(
      'knowledge-kit read: give --heading or --self/--subtree, not both: a read is of one heading or of sections.',
    );
  if (heading === '')
    throw new CliExit(
      'knowledge-kit read: --heading needs a heading ID, such as `--heading install` (`knowledge-kit outline` lists them).',
    );
  const maxChars = integerOption(
    'read',
    'max-chars',
    values['max-chars'],
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const selection: KnowledgeSelection =
    self.length > 0
      ? { mode: 'self', sectionIds: self }
      : subtree.length > 0
        ? { mode: 'subtree', sectionIds: subtree }
        : { mode: 'document' };
  const cursor = values['cursor'] as string | undefined;
  if (cursor !== undefined && maxChars === undefined)
    throw new CliExit(
      'knowledge-kit read: --cursor reads the next part of a read in parts: give it with the --max-chars it was printed with.',
    );
  // Each `read` is its own process: a fixed key lets a printed cursor work in the next one. The
  // command reads knowledge its user can read anyway, so a forged cursor gains nothing. Without
  // --max-chars a database is read whole (a folder is read from its catalog).
  const opened = await openSource(args, io, {
    served: {
      maxReadChars: maxChars ?? Number.MAX_SAFE_INTEGER,
      cursorKey: 'knowledge-kit read: cursors of local reads',
    },
  });
  try {
    return await readFrom(
      opened,
      argv,
      await idOfPath(opened, documentId),
      selection,
      heading,
      maxChars,
      cursor,
      values['json'] === true,
      io,
    );
  } finally {
    await opened.close();
  }
}

/**
 * The document ID of `pages/x.md` (the path `search` prints), or `argument` as it is: `read` takes
 * either.
 */
async function idOfPath(opened: OpenedSource, argument: string): Promise<string> {
  if (!argument.startsWith('pages/') || opened.single === undefined) return argument;
  try {
    const found = await opened.single.source.readFile({ path: argument, maxChars: 1 });
    return found.file.fileId;
  } catch {
    return argument; // Not a page path: read as an ID, whose error names the fix.
  }
}

/** The read itself, and what it prints. */
async function readFrom(
  opened: OpenedSource,
  argv: readonly string[],
  documentId: string,
  selection: KnowledgeSelection,
  heading: string | undefined,
  maxChars: number | undefined,
  cursor: string | undefined,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const { loaded } = opened;
  if (maxChars !== undefined || loaded === undefined || heading !== undefined) {
    // In parts, as `read_file` gives them to an agent: each at most --max-chars code points. A
    // heading's range is read by `read_file` only.
    const { source } = opened.single!;
    let output;
    try {
      output = await source.readFile({
        fileId: documentId,
        ...(selection.mode === 'document' ? {} : selection),
        ...(heading === undefined ? {} : { heading }),
        maxChars: maxChars ?? Number.MAX_SAFE_INTEGER,
        ...(cursor === undefined ? {} : { cursor }),
      });
    } catch (error) {
      if (isKnowledgeToolError(error))
        throw new CliExit(
          `knowledge-kit read: ${error.code}: ${error.message} (\`knowledge-kit outline ${opened.words.join(' ')}\` lists every document, section and heading.)`,
        );
      throw error;
    }
    if (json) {
      io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      return EXIT.ok;
    }
    const text = output.content;
    io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    io.stderr.write(`snapshot ${output.file.snapshotId ?? '(none)'}\n`);
    const h = output.file.heading;
    if (h !== undefined)
      io.stderr.write(
        `heading ${h.id}: characters ${h.start} to ${h.end} of the whole document's text\n`,
      );
    const range = output.file.contentRange;
    if (range !== undefined) {
      const rest = ['read', ...argv]
        .filter((arg, i, all) => arg !== '--cursor' && all[i - 1] !== '--cursor')
        .filter((arg) => !arg.startsWith('--cursor='));
      io.stderr.write(
        `part: characters ${range.start} to ${range.end} of ${range.total}${output.nextCursor === null ? ' (the last part)' : `; the next: knowledge-kit ${rest.map(shellWord).join(' ')} --cursor ${output.nextCursor}`}\n`,
      );
    }
    return EXIT.ok;
  }
  const { catalog } = loaded;
  let snapshot;
  try {
    snapshot = catalog.read({
      documentId,
      selection,
      ...(maxChars === undefined ? {} : { maxChars }),
    });
  } catch (error) {
    if (isKnowledgeError(error)) {
      // Of versions, the folder of the version read (outline of that folder lists its documents).
      const dir = opened.versions?.find((version) => version.loaded === loaded)?.dir;
      throw new CliExit(readProblem('read', dir ?? opened.words[0]!, error));
    }
    throw error;
  }
  if (json) {
    io.stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
  } else {
    io.stdout.write(
      snapshot.content.endsWith('\n') || snapshot.content === ''
        ? snapshot.content
        : `${snapshot.content}\n`,
    );
    io.stderr.write(`snapshot ${snapshot.id}\n`);
  }
  return EXIT.ok;
}
