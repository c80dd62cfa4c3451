/**
 * How to install an optional peer (`pg`, `@electric-sql/pglite`) so that this very copy of the command
 * finds it: Node resolves a package from the folders above the command's own files, not from the
 * folder the user runs it in, so `npm install <name>` there does nothing for a global install.
 *
 * @module
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The sentence that says how to install `name` for the command whose package folder holds `cliFile`.
 *
 * @param name - the package, such as `@electric-sql/pglite`.
 * @param cliFile - a file of the running package (default: this module's file).
 * @returns such as ``Install it where knowledge-kit is installed: `npm install --prefix /usr/lib @electric-sql/pglite` (for a global install, the same as `npm install -g @electric-sql/pglite`).``
 * @example
 * ```ts
 * installAdvice('pg', '/home/me/app/node_modules/knowledge-kit/dist/cli.js');
 * // 'Install it where knowledge-kit is installed: `npm install --prefix /home/me/app pg` …'
 * ```
 */
export function installAdvice(
  name: string,
  cliFile: string = fileURLToPath(import.meta.url),
): string {
  const marker = `${sep}node_modules${sep}knowledge-kit${sep}`;
  const at = cliFile.lastIndexOf(marker);
  if (at === -1)
    // A clone run from its own folder: the package's folder is the project.
    return `Run \`npm install ${name}\` in the folder of knowledge-kit's package.json.`;
  const installDir = cliFile.slice(0, at) || sep;
  return `Install it where knowledge-kit is installed: \`npm install --prefix ${installDir} ${name}\` (for a global install, the same as \`npm install -g ${name}\`; \`npm install ${name}\` in another folder does not reach the command).`;
}
