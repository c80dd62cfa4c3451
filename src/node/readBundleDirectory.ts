import { realpath } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticBundleRead } from '../agent/index.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { readRegularText } from './readRegular.js';

/**
 * A read function over a bundle in a folder, for `createStaticSource({ read })`: a bundle path's text,
 * `null` when the folder has no such file. Paths that would leave the folder are `null` too. Only
 * regular files inside the folder's real path are read: a symbolic link (in place of the file, or of a
 * folder on its way) or a special file (a FIFO, a device) is refused with an error naming the bundle
 * path, never followed or waited on; the static source reports it as `TRANSPORT_ERROR`.
 *
 * @param dir - the bundle's folder (a path or a `file:` URL).
 * @returns the read function.
 * @throws {KnowledgeError} `INVALID_INPUT` when `dir` is neither a string nor a `file:` URL.
 * @example
 * ```ts
 * const source = createStaticSource({ read: readBundleDirectory('./public/kb') });
 * ```
 */
export function readBundleDirectory(dir: string | URL): StaticBundleRead {
  if (typeof dir !== 'string' && !(dir instanceof URL))
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['dir'],
        message: "readBundleDirectory: pass the bundle's folder, as a path or a `file:` URL.",
      },
    ]);
  const root = resolve(dir instanceof URL ? fileURLToPath(dir) : dir);
  let realRoot: Promise<string> | undefined;
  const refuse = (path: string, why: string): Error =>
    new Error(
      `\`${path}\` ${why}, and readBundleDirectory reads only regular files inside the bundle's folder. Replace it by the file \`knowledge-kit export\` wrote.`,
    );
  return async (path, signal) => {
    signal?.throwIfAborted();
    const file = join(root, ...path.split('/'));
    if (!file.startsWith(root + sep)) return null;
    try {
      // The folders on the way must be the bundle's own: none of them a link out of it.
      realRoot ??= realpath(root);
      const [top, parent] = await Promise.all([realRoot, realpath(dirname(file))]);
      if (parent !== resolve(top, dirname(file).slice(root.length + 1)))
        throw refuse(path, 'is under a symbolic link');
      const read = await readRegularText(file, signal);
      if ('text' in read) return read.text;
      if (read.refused === 'special' && read.kind === 'a folder') return null; // As EISDIR was.
      throw refuse(path, read.refused === 'special' ? `is ${read.kind}` : 'is a symbolic link');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
      throw error;
    }
  };
}
