/** `knowledge-kit read <dir> <documentId>`: a snapshot, as the app would hand it to a model. */
import { READ_HELP } from '../help.js';
import type { KnowledgeSelection } from '../../types.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { integerOption, listOption, parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder, sourceOf } from '../folder.js';
import { isKnowledgeToolError } from '../../agent/index.js';
import { shellWord } from './serve.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { readProblem } from '../readProblem.js';

/** Runs `read`. */
export async function read(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'read',
    argv,
    {
      self: { type: 'string', multiple: true },
      subtree: { type: 'string', multiple: true },
      'max-chars': { type: 'string' },
      cursor: { type: 'string' },
      json: { type: 'boolean' },
      'follow-links': { type: 'boolean' },
    },
    2,
  );
  if (values['help'] === true) {
    io.stdout.write(`${READ_HELP}\n`);
    return EXIT.ok;
  }
  const [dir, documentId] = positionals;
  if (dir === undefined || documentId === undefined)
    throw new CliExit(
      'knowledge-kit read: needs a folder and a document ID, such as `knowledge-kit read ./knowledge guide`. Run `knowledge-kit read --help`.',
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
  const loaded = await loadFolder('read', dir, io, {
    followLinks: values['follow-links'] === true,
  });
  if (maxChars !== undefined) {
    // In parts, as `read_file` gives them to an agent: each at most --max-chars code points.
    // Each `read` is its own process: a fixed key lets the printed cursor work in the next one. The
    // command reads a local folder its user can read anyway, so a forged cursor gains nothing.
    const source = sourceOf(loaded, knowledgeBaseId(dir, undefined), {
      maxReadChars: maxChars,
      cursorKey: 'knowledge-kit read: cursors of local reads',
    });
    let output;
    try {
      output = await source.readFile({
        fileId: documentId,
        ...(selection.mode === 'document' ? {} : selection),
        maxChars,
        ...(cursor === undefined ? {} : { cursor }),
      });
    } catch (error) {
      if (isKnowledgeToolError(error))
        throw new CliExit(
          `knowledge-kit read: ${error.code}: ${error.message} (\`knowledge-kit outline ${dir}\` lists every document and section.)`,
        );
      throw error;
    }
    if (values['json'] === true) {
      io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      return EXIT.ok;
    }
    const text = output.content;
    io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    io.stderr.write(`snapshot ${output.file.snapshotId ?? '(none)'}\n`);
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
    if (isKnowledgeError(error)) throw new CliExit(readProblem('read', dir, error));
    throw error;
  }
  if (values['json'] === true) {
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
