/**
 * Reading a file without being led elsewhere: the file is opened once, with `O_NOFOLLOW` (a symbolic
 * link in its place is not followed) and `O_NONBLOCK` (a FIFO in its place does not block the open),
 * its handle is checked with `fstat` (a regular file, at most `maxBytes`, and, when the caller walked
 * the folder first, the very file it saw: same device and inode), and the bytes are read from that
 * handle. A path checked and then opened again could be swapped in between; a handle cannot.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** `open` flags: read only, no link followed, no wait on a FIFO (`O_NOFOLLOW` is 0 where unknown). */
export const READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The default largest file the folder loader reads: 64 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The file a walk saw, which the handle must still be. */
export interface SeenFile {
  readonly dev: number;
  readonly ino: number;
}

/** Why a file was not read, for the caller's message; `actual` is the size, for `too-large`. */
export type ReadRefusal =
  | { readonly refused: 'link' }
  | { readonly refused: 'special'; readonly kind: string }
  | { readonly refused: 'replaced' }
  | { readonly refused: 'too-large'; readonly actual: number };

/** What a read gives: the bytes, or why they were not read. */
export type RegularRead = { readonly bytes: Buffer } | ReadRefusal;

/** What a special entry is, for messages. */
export function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** A system error in the user's terms: `permission denied (EACCES)`, or its own message. */
export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM'
    ? `permission denied (${code})`
    : error instanceof Error
      ? error.message
      : String(error);
}

/** The refusal `stat` (of the open handle) calls for, if any. */
function refusalOf(stat: Stats, maxBytes: number, seen: SeenFile | undefined): ReadRefusal | null {
  if (!stat.isFile()) return { refused: 'special', kind: kindOf(stat) };
  if (seen !== undefined && (stat.dev !== seen.dev || stat.ino !== seen.ino))
    return { refused: 'replaced' };
  if (stat.size > maxBytes) return { refused: 'too-large', actual: stat.size };
  return null;
}

const isLinkError = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  // Linux and macOS say ELOOP for `O_NOFOLLOW` on a link; FreeBSD says EMLINK.
  return code === 'ELOOP' || code === 'EMLINK';
};

/**
 * Reads the regular file `path` from one handle (synchronously: the folder loader reads many small
 * files, for which `fs/promises` costs more than the read).
 *
 * @param path - the file, absolute.
 * @param maxBytes - the largest size read; a larger file (or one that grows past it) is refused.
 * @param seen - the device and inode the caller's walk saw, when it walked first.
 * @returns the bytes, or why they were not read.
 * @throws the system error of the open or the read (`ENOENT`, `EACCES`, …).
 */
export function readRegularFileSync(path: string, maxBytes: number, seen?: SeenFile): RegularRead {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (isLinkError(error)) return { refused: 'link' };
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    const refusal = refusalOf(stat, maxBytes, seen);
    if (refusal !== null) return refusal;
    const size = stat.size;
    // The size may change while reading: read to the end, never more than `maxBytes + 1` bytes.
    let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { refused: 'too-large', actual: length };
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) return { refused: 'too-large', actual: length };
    return { bytes: buffer.subarray(0, length) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the regular file `path` as text from one handle, asynchronously.
 *
 * @param path - the file, absolute.
 * @param signal - aborts the read.
 * @returns the text (UTF-8), or why it was not read.
 * @throws the system error of the open or the read (`ENOENT`, `EACCES`, …), or the abort.
 */
export async function readRegularText(
  path: string,
  signal?: AbortSignal,
): Promise<{ readonly text: string } | ReadRefusal> {
  let handle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    if (isLinkError(error)) return { refused: 'link' };
    throw error;
  }
  try {
    const refusal = refusalOf(await handle.stat(), Number.MAX_SAFE_INTEGER, undefined);
    if (refusal !== null) return refusal;
    return {
      text: await handle.readFile({
        encoding: 'utf8',
        ...(signal === undefined ? {} : { signal }),
      }),
    };
  } finally {
    await handle.close();
  }
}
