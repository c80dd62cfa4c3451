/** The folder loader's `linkRoot` option: a folder on disk, turned into what the catalog source takes. */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KnowledgeLinkRoot } from '../agent/index.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';

const API = 'loadKnowledgeDirectory';

/**
 * The `linkRoot` for `createCatalogSource` of a folder loaded from `directory` (absolute), whose pages
 * are `pages/<path>`: `linkRoot` (a path, relative to the working directory, or a `file:` URL; default
 * the folder itself) is the folder a site-root link's `/` stands for. The folder itself gives `'pages'`;
 * a folder inside it `'pages/<its path>'`; a folder that contains it `{ dir: 'pages', base: '/<the
 * folder's path under it>/' }`.
 *
 * @param name - the option's name in messages (the command line says `--link-root`).
 * @throws {KnowledgeError} `INVALID_INPUT` for a value that is not a path or `file:` URL, or a folder
 *   that neither is, holds nor is held by `directory`.
 */
export function linkRootOf(
  directory: string,
  linkRoot: unknown,
  name = '`linkRoot`',
): KnowledgeLinkRoot {
  if (linkRoot === undefined) return 'pages';
  const fail = (why: string): never => {
    throw new KnowledgeError([
      { code: 'INVALID_INPUT', path: ['options', 'linkRoot'], message: `${API}: ${why}` },
    ]);
  };
  if (linkRoot instanceof URL && linkRoot.protocol !== 'file:')
    fail(`${name} must be a folder path or a \`file:\` URL, not a \`${linkRoot.protocol}\` URL.`);
  if (!(linkRoot instanceof URL) && !(typeof linkRoot === 'string' && linkRoot !== ''))
    fail(
      `${name} must be a folder path or a \`file:\` URL (the folder a site-root link's \`/\` stands for), not ${typeof linkRoot === 'string' ? 'an empty string' : typeof linkRoot}.`,
    );
  const root = resolve(linkRoot instanceof URL ? fileURLToPath(linkRoot) : (linkRoot as string));
  const inside = relative(directory, root);
  if (inside === '') return 'pages';
  const climbs = (path: string) => path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path);
  if (!climbs(inside)) return `pages/${inside.split(sep).join('/')}`;
  const above = relative(root, directory);
  if (above !== '' && !climbs(above))
    return { dir: 'pages', base: `/${above.split(sep).join('/')}/` };
  return fail(
    `${name} \`${root}\` is neither the folder \`${directory}\`, a folder inside it, nor a folder that holds it. Pass the folder that a site-root link's \`/\` stands for (the docs site's root).`,
  );
}
