import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticBundleRead } from '../agent/index.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';

/**
 * A read function over a bundle in a folder, for `createStaticSource({ read })`: a bundle path's text,
 * `null` when the folder has no such file. Paths that would leave the folder are `null` too.
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
  return async (path, signal) => {
    signal?.throwIfAborted();
    const file = join(root, ...path.split('/'));
    if (!file.startsWith(root + sep)) return null;
    try {
      return await readFile(file, {
        encoding: 'utf8',
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
      throw error;
    }
  };
}
