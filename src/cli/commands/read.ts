/** `knowledge-kit read <dir> <documentId>`: a snapshot, as the app would hand it to a model. */
import { READ_HELP } from '../help.js';
import type { KnowledgeSelection } from '../../types.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { integerOption, listOption, parseCommandArgs } from '../args.js';
import { loadFolder } from '../folder.js';
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
  const { catalog } = await loadFolder('read', dir, io, {
    followLinks: values['follow-links'] === true,
  });
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
