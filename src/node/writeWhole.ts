import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * A path for a temporary file beside `file`, its own to this call: the process ID and random bytes,
 * so two writers (two processes, or two writes in one) never share one.
 *
 * @param file - the file it stands in for.
 * @returns `<file>.<pid>.<random>.tmp`.
 */
export function temporaryBeside(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes `text` to `file` whole or not at all: into a temporary file created afresh beside it (`wx`:
 * never through a link left in its place), then renamed over `file`, so a reader sees the old text or
 * the new one, never a part. The temporary file is removed when the write fails.
 *
 * @param file - the file to write.
 * @param text - its new text.
 * @param mode - the new file's permissions (default `0o666` less the umask).
 */
export async function writeWhole(file: string, text: string, mode?: number): Promise<void> {
  const temporary = temporaryBeside(file);
  try {
    await writeFile(temporary, text, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}
