/**
 * One file the walk listed, read from the handle it checked (`readRegularFileSync`): its bytes, or the
 * problem of that file alone. A file that changed into a link or a special file, was replaced, is over
 * the size limit, vanished or cannot be opened is a problem of that file; the other files are read.
 */
import { resolve } from 'node:path';
import type { KnowledgeIssue } from '../errors/codes.js';
import { readRegularFileSync, reasonOf } from './readRegular.js';
import type { SeenPath } from './walk.js';

/** What a listed file gave: its bytes, or its problem (and whether it was gone, `ENOENT`). */
export type ListedRead =
  { readonly bytes: Uint8Array } | { readonly issue: KnowledgeIssue; readonly gone: boolean };

const AGAIN =
  'Load the folder again once it stops changing (a watch does so by itself on the next change).';

/**
 * Reads `file` of `directory`.
 *
 * @param directory - the folder, absolute.
 * @param file - the file, relative and `/`-separated, as the walk listed it.
 * @param seen - what the walk saw of it (absent when its check failed).
 * @param maxBytes - the largest file read.
 * @param api - the calling API, for messages.
 * @returns the bytes, or the file's problem.
 */
export function readListed(
  directory: string,
  file: string,
  seen: SeenPath | undefined,
  maxBytes: number,
  api: string,
): ListedRead {
  const refused = (why: string, fix: string, extra: Partial<KnowledgeIssue> = {}): ListedRead => ({
    issue: {
      code: 'REFUSED_FILE',
      file,
      message: `${file}: ${api} does not read it: ${why}. ${fix}`,
      ...extra,
    },
    gone: false,
  });
  let read;
  try {
    read = readRegularFileSync(seen?.real ?? resolve(directory, file), maxBytes, seen);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return {
        issue: {
          code: 'READ_FAILED',
          file,
          message: `${file}: ${api} cannot read it: it was removed while the folder was read. ${AGAIN}`,
        },
        gone: true,
      };
    const why = reasonOf(error);
    return {
      issue: {
        code: 'READ_FAILED',
        file,
        message: `${file}: ${api} cannot read it: ${why}. Make it readable by the user that runs Knowledge Kit, or exclude it.`,
      },
      gone: false,
    };
  }
  if ('bytes' in read) return read;
  switch (read.refused) {
    case 'link':
      return refused('it became a symbolic link while the folder was read', AGAIN);
    case 'special':
      return refused(
        `it became ${read.kind} while the folder was read, and only regular files are read`,
        'Remove it, or exclude it.',
      );
    case 'replaced':
      return refused(
        'it was replaced by another file while the folder was read (saved by renaming a new file over it, or linked to another file), so it is not the file the folder walk checked',
        AGAIN,
      );
    case 'too-large':
      return refused(
        `it holds ${read.actual} bytes, over the limit of ${maxBytes} bytes per file (\`maxFileBytes\`)`,
        'Split it into smaller files, exclude it, or raise `maxFileBytes` in the loader options.',
        { actual: read.actual, limit: maxBytes },
      );
  }
}
