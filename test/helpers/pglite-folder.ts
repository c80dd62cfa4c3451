/**
 * PGlite data folders for tests that give the command line `--database pglite:DIR`: a folder holding
 * a fresh database made from the template (no `initdb`), and copies of a folder, so that tests which
 * each need a running process on the same published data get a folder each (PGlite takes one process
 * at a time per folder) without publishing again.
 *
 * A data folder is about 40 MB. The system's `tar` and `cp` write one in a fifth of the CPU that PGlite
 * (writing the template through its file system) and Node's `fs.cp` took, about 0.6 s each; on
 * Windows, which may have neither, those are used.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pgliteTemplate, pgliteTemplateFile } from './postgres-template.js';

const run = promisify(execFile);
const WINDOWS = process.platform === 'win32';

/**
 * Writes a fresh database into the empty folder `dir` from the template of a fresh database: what
 * the command line's first open of `pglite:DIR` makes, in about half the time (no `initdb`).
 *
 * @param dir - an empty folder (or one that does not exist yet).
 * @returns `dir`.
 */
export async function freshPgliteFolder(dir: string): Promise<string> {
  if (WINDOWS) {
    const lite = new PGlite(dir, { loadDataDir: await pgliteTemplate() });
    await lite.waitReady;
    await lite.close();
    return dir;
  }
  await mkdir(dir, { recursive: true });
  await run('tar', ['-xf', await pgliteTemplateFile(), '-C', dir]);
  return dir;
}

/**
 * Copies a closed PGlite data folder into the empty folder `into`: the same database, with a lock of
 * its own. Far cheaper than publishing again.
 *
 * @param from - a data folder no process has open.
 * @param into - an empty folder.
 * @returns `into`.
 */
export async function copyPgliteFolder(from: string, into: string): Promise<string> {
  if (WINDOWS) await cp(from, into, { recursive: true });
  else {
    await mkdir(into, { recursive: true });
    await run('cp', ['-R', `${from}/.`, into]);
  }
  return into;
}
