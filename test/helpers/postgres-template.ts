/**
 * A fresh PGlite database's files, made once and reused: `new PGlite()` runs `initdb` every time
 * (about 2.5 s of CPU), while `new PGlite({ loadDataDir })` from these files starts in about 0.7 s.
 * The files are kept in the system's temporary folder under PGlite's version, so one test run (and
 * the next) makes them at most once; two workers that make them at the same time both write a file of
 * their own and rename it into place, so a reader never sees half a file.
 *
 * One setting differs from `initdb`'s: a buffer pool of 4 MB (`shared_buffers`, in
 * `postgresql.auto.conf`) instead of 128 MB. PostgreSQL sets up its whole pool each time it starts, and
 * in WebAssembly that was half of the CPU of opening a database (about 0.3 s, 0.15 s with 4 MB): the
 * suite opens hundreds, each command on a `pglite:` folder one more. A test database holds a few MB at
 * most; what a query returns does not depend on the pool's size.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/** PGlite's version: its data files are made by, and for, that version. */
function pgliteVersion(): string {
  // The package does not export its package.json: find it above the entry file.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const marker = `${sep}@electric-sql${sep}pglite${sep}`;
  const folder = entry.slice(0, entry.lastIndexOf(marker) + marker.length);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    readonly version: string;
  };
  return manifest.version;
}

/** The buffer pool of a database made from the template (see above). */
export const TEMPLATE_SHARED_BUFFERS = '4MB';

let cachedFile: Promise<string> | undefined;
let cached: Promise<Blob> | undefined;

/**
 * The template's file (made when missing): an uncompressed tar archive of a freshly initialised
 * PGlite data folder, its paths relative to the folder. `tar -xf` of it into an empty folder makes the
 * folder `new PGlite(folder, { loadDataDir })` would write, in a third of the CPU.
 *
 * @returns the archive's path.
 */
export function pgliteTemplateFile(): Promise<string> {
  cachedFile ??= (async () => {
    const path = join(
      tmpdir(),
      `kk-test-pglite-${pgliteVersion()}-sb${TEMPLATE_SHARED_BUFFERS.toLowerCase()}.tar`,
    );
    if (existsSync(path)) return path;
    const lite = new PGlite();
    // dumpDataDir before the database is ready never settles.
    await lite.waitReady;
    // Read at the next start, from the data folder: every database made from the template.
    await lite.exec(`ALTER SYSTEM SET shared_buffers = '${TEMPLATE_SHARED_BUFFERS}'`);
    const dump = await lite.dumpDataDir('none');
    await lite.close();
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, new Uint8Array(await dump.arrayBuffer()));
    renameSync(temporary, path);
    return path;
  })();
  return cachedFile;
}

/**
 * The files of a freshly initialised PGlite database, for `new PGlite({ loadDataDir })`: an empty
 * database, as `new PGlite()` makes, without running `initdb` again.
 *
 * @returns the data folder as an uncompressed tar archive.
 */
export function pgliteTemplate(): Promise<Blob> {
  cached ??= pgliteTemplateFile().then((path) => new Blob([readFileSync(path)]));
  return cached;
}
