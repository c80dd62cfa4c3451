/**
 * One process at a time on a PGlite data folder. PGlite is PostgreSQL compiled to WebAssembly and run
 * inside the process that opens it: two processes on one folder each keep their own copy of its pages
 * and overwrite each other's files, so a `publish` beside a running `serve` was lost when the server
 * stopped, and a large one corrupted the folder for good. Nothing in PGlite prevents it; this lock does.
 *
 * The lock is the file `knowledge-kit.lock` in the data folder, created exclusively (`O_EXCL`) and
 * holding the holder's PID, host name, command and start time. It is removed when the database is
 * closed, and at the latest when the process exits. A lock left by a process that is gone (killed,
 * crashed) is taken over: on the same host, a PID that no longer runs is stale. A lock from another
 * host (a folder on a network share) is never taken over, since its PID cannot be checked there.
 *
 * @module
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { CliExit } from './io.js';

/** The lock file's name, in the data folder. */
export const PGLITE_LOCK_FILE = 'knowledge-kit.lock';

/** What a lock file says about its holder. */
interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly command: string;
  readonly since: string;
}

/** A lock held: `release` removes it (once; later calls do nothing). */
export interface PgliteFolderLock {
  /** The lock file, absolute. */
  readonly file: string;
  release(): void;
}

/** The holder a lock file names, or `undefined` when it is missing or not one of ours (yet). */
function readHolder(file: string): Holder | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0
      ? {
          pid: value.pid,
          host: String(value.host ?? ''),
          command: String(value.command ?? 'another program'),
          since: String(value.since ?? ''),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs on this host (`EPERM`: it runs, as another user). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const same = (a: Holder | undefined, b: Holder): boolean =>
  a !== undefined && a.pid === b.pid && a.host === b.host && a.since === b.since;

/**
 * Takes the lock of the PGlite data folder `folder` for this process, creating the folder if needed.
 *
 * @param command - the command (`publish`, `serve`, `mcp`), for messages and for the lock's holder.
 * @param folder - the data folder, as `pglite:<folder>` names it.
 * @returns the lock; call `release` after closing the database. A database kept in memory
 *   (`memory://`, an empty name) has no folder, and gets a lock whose `release` does nothing.
 * @throws {CliExit} exit 2, one line, when another live process (or this one) holds the folder: it
 *   names the holder's PID and command, and what to do instead.
 */
export function lockPgliteFolder(command: string, folder: string): PgliteFolderLock {
  // PGlite keeps `memory://` (and an empty name) in memory, `file://x` in the folder `x`.
  const path = folder.startsWith('file://') ? folder.slice('file://'.length) : folder;
  if (path === '' || path.includes('://')) return { file: '', release: () => undefined };
  const dir = resolve(path);
  const file = join(dir, PGLITE_LOCK_FILE);
  mkdirSync(dir, { recursive: true });
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    command: `knowledge-kit ${command}`,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 20; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder === undefined) {
        // Being written by its holder this very moment (created, not yet filled), or not ours at all.
        if (attempt < 19) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
          continue;
        }
        throw held(command, dir, file, undefined);
      }
      if (holder.host !== me.host || running(holder.pid)) throw held(command, dir, file, holder);
      takeOver(file, holder);
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(me)}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      process.off('exit', release);
      // Only our own lock: never one a later holder took over after we were presumed dead.
      if (same(readHolder(file), me))
        try {
          unlinkSync(file);
        } catch {
          // Already gone.
        }
    };
    process.on('exit', release);
    return { file, release };
  }
  throw held(command, dir, file, readHolder(file));
}

/**
 * Removes a stale lock, unless another process replaced it meanwhile: the lock is moved aside
 * atomically, checked, and put back (without overwriting anything) when it is no longer the stale one.
 */
function takeOver(file: string, stale: Holder): void {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // Someone else took it over first; the next attempt sees their lock.
  }
  if (!same(readHolder(aside), stale))
    try {
      linkSync(aside, file);
    } catch {
      // A third process holds the lock now; theirs stays.
    }
  unlinkSync(aside);
}

/** The one-line refusal. */
function held(command: string, dir: string, file: string, holder: Holder | undefined): CliExit {
  const who =
    holder === undefined
      ? 'another process'
      : `process ${holder.pid}${holder.host === hostname() ? '' : ` on host ${holder.host}`} (${holder.command}${holder.since === '' ? '' : `, since ${holder.since}`})`;
  return new CliExit(
    `knowledge-kit ${command}: the PGlite folder \`${dir}\` is in use by ${who}, and only one process at a time may open a PGlite folder (two would overwrite each other's data). Publish before serving (stop that process, publish, then serve again), or use a PostgreSQL server (--database postgres://…), which serves and publishes at once. If that process is not running, delete \`${file}\`.`,
  );
}
