/**
 * Who may read what `serve` serves: the token of `--token-file` (one token for every knowledge base),
 * or the tokens of `--access-file` (each to the knowledge bases it may read), checked in time that
 * does not depend on where a wrong token differs; and the key of `--cursor-key-file`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { KnowledgeAccess } from '../http/index.js';
import { LF } from '../markdown/chars.js';
import { temporaryBeside, writeWhole } from '../node/internals.js';
import { CliExit } from './io.js';

/** Reads the bearer token of `--token-file`. */
export async function readToken(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliExit(
      `knowledge-kit serve: token file \`${path}\` cannot be read (${(error as Error).message}).`,
    );
  }
  // Line feeds at the end are dropped, as \`$(cat file)\` in the printed commands drops them; anything
  // else the shell keeps (a CR of a CRLF ending, a BOM, spaces) would make those commands send another
  // token.
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === LF) end--;
  const token = text.slice(0, end);
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new CliExit(
      `knowledge-kit serve: token file \`${path}\` must hold the token alone: visible ASCII characters (no spaces, no BOM), then only line feeds (LF; a CRLF ending is refused, as \`$(cat)\` would keep its CR).`,
    );
  }
  return token;
}

/**
 * Reads the secret of `--cursor-key-file`, which signs cursors: replicas behind one URL given the same
 * file accept each other's cursors. Line feeds at the end are dropped; at least 16 bytes remain.
 */
export async function readCursorKey(command: string, path: string): Promise<Uint8Array> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliExit(
      `knowledge-kit ${command}: cursor key file \`${path}\` cannot be read (${(error as Error).message}).`,
    );
  }
  const end = keyLength(bytes);
  if (end < 16)
    throw new CliExit(
      `knowledge-kit ${command}: cursor key file \`${path}\` must hold a secret of at least 16 bytes, such as the output of \`openssl rand -hex 32\`; it has ${end}.`,
    );
  return new Uint8Array(bytes.subarray(0, end));
}

/** How many bytes of a key file are its key: all but the line feeds at the end. */
function keyLength(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === LF) end--;
  return end;
}

/**
 * Where `mcp` and `serve` keep their cursor key without `--cursor-key-file`: the user's state folder,
 * `$XDG_STATE_HOME/knowledge-kit/cursor-key` (else `~/.local/state/knowledge-kit/cursor-key`), or
 * `%LOCALAPPDATA%\knowledge-kit\cursor-key` on Windows.
 */
export function stateCursorKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const windows = process.platform === 'win32' ? env['LOCALAPPDATA'] : undefined;
  const xdg = env['XDG_STATE_HOME'];
  const base =
    windows !== undefined && windows !== ''
      ? windows
      : xdg !== undefined && xdg !== ''
        ? xdg
        : join(env['HOME'] ?? homedir(), '.local', 'state');
  return join(base, 'knowledge-kit', 'cursor-key');
}

/**
 * The cursor key of `--cursor-key-file`, or else the one kept in the user's state folder
 * (`stateCursorKeyPath`): created once (32 random bytes as hex, mode 0600, its folder 0700), so a
 * restarted server accepts the cursors it issued before. When that folder cannot be written, a
 * random key for this process is used, and stderr says so.
 *
 * @param command - the command, for messages.
 * @param keyFile - `--cursor-key-file`, when given.
 * @param warn - where the fallback is said.
 * @param path - where the key is kept (default `stateCursorKeyPath()`).
 */
export async function cursorKeyOf(
  command: string,
  keyFile: string | undefined,
  warn: (line: string) => void,
  path: string = stateCursorKeyPath(),
): Promise<Uint8Array | undefined> {
  if (keyFile !== undefined) return readCursorKey(command, keyFile);
  const newKey = () => `${randomBytes(32).toString('hex')}\n`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await createOnce(path, newKey());
    if (keyLength(await readFile(path)) < 16) {
      // Left empty or cut short (an older version created the file before writing it, and a server
      // started at that moment read it so): replaced whole, and said, as its cursors are gone anyway.
      await writeWhole(path, newKey(), 0o600);
      warn(
        `knowledge-kit ${command}: the cursor key kept in \`${path}\` was empty or too short; a new key replaces it (cursors issued with the old one are refused).\n`,
      );
    }
  } catch (error) {
    warn(
      `knowledge-kit ${command}: cannot keep a cursor key in \`${path}\` (${(error as Error).message}); cursors last as long as this process (pass --cursor-key-file to keep them).\n`,
    );
    return undefined;
  }
  return readCursorKey(command, path);
}

/**
 * Creates the file `path` holding `text` (mode 0600) unless it exists, so that it is never seen
 * without its whole text: the text is written to a file of its own first, which is then linked as
 * `path` (a link fails when `path` exists: a process started at the same moment keeps the key that
 * won). Where the file system has no hard links (any other failure of the link), the file is created
 * and written in place.
 */
async function createOnce(path: string, text: string): Promise<void> {
  const temporary = temporaryBeside(path);
  try {
    await writeFile(temporary, text, { flag: 'wx', mode: 0o600 });
    try {
      await link(temporary, path);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
      // No hard links here (FAT and exFAT say EISDIR or EPERM, others ENOTSUP): in place.
    }
    try {
      await writeFile(path, text, { flag: 'wx', mode: 0o600 });
    } catch (inPlace) {
      if ((inPlace as NodeJS.ErrnoException).code !== 'EEXIST') throw inPlace;
    }
  } finally {
    // A file left by a failed removal (a virus scanner holding it) costs nothing but space.
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** Whether `given` equals `token`, in time that does not depend on where they differ. */
export function sameToken(given: string, token: Buffer): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), token);
}

/** `--access-file`: a JSON object from token to the IDs of the knowledge bases it may read. */
async function readAccessFile(path: string): Promise<ReadonlyMap<Buffer, ReadonlySet<string>>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CliExit(
      `knowledge-kit serve: access file \`${path}\` cannot be read as JSON (${(error as Error).message}).`,
    );
  }
  const wrong = () =>
    new CliExit(
      `knowledge-kit serve: access file \`${path}\` must be a JSON object from token (visible ASCII) to an array of knowledge base IDs, such as {"s3cret-token": ["handbook", "faq"]}.`,
    );
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw wrong();
  const grants = new Map<Buffer, ReadonlySet<string>>();
  for (const [token, ids] of Object.entries(parsed)) {
    if (
      !/^[\x21-\x7e]+$/.test(token) ||
      !Array.isArray(ids) ||
      !ids.every((id) => typeof id === 'string')
    )
      throw wrong();
    grants.set(createHash('sha256').update(token).digest(), new Set(ids as string[]));
  }
  return grants;
}

/** The knowledge bases a request may read, as `allowed` names them (`undefined`: every one). */
export type Grant = (allowed: ReadonlySet<string> | undefined) => Promise<KnowledgeAccess>;

/** The token of an `Authorization: Bearer` header, or `undefined`. */
function bearer(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  // The scheme name is case-insensitive (RFC 9110 §11.1); the token is compared exactly.
  return header !== null && header.slice(0, 7).toLowerCase() === 'bearer '
    ? header.slice(7)
    : undefined;
}

/**
 * The handler's `access` for `--token-file` or `--access-file` (or neither: every request reads every
 * knowledge base), and whether requests must carry a token.
 *
 * @param command - the command, for messages.
 * @param tokenFile - `--token-file`.
 * @param accessFile - `--access-file`.
 * @param grant - the knowledge bases a request may read.
 */
export async function bearerAccess(
  command: string,
  tokenFile: string | undefined,
  accessFile: string | undefined,
  grant: Grant,
): Promise<{
  readonly access: (request: Request) => Promise<KnowledgeAccess | null>;
  readonly secured: boolean;
}> {
  if (tokenFile !== undefined && accessFile !== undefined)
    throw new CliExit(
      `knowledge-kit ${command}: pass --token-file (one token for every knowledge base) or --access-file (tokens to knowledge bases), not both.`,
    );
  const token =
    tokenFile === undefined
      ? undefined
      : createHash('sha256')
          .update(await readToken(tokenFile))
          .digest();
  const grants = accessFile === undefined ? undefined : await readAccessFile(accessFile);
  if (token === undefined && grants === undefined)
    return { access: () => grant(undefined), secured: false };
  return {
    secured: true,
    access: async (request) => {
      const given = bearer(request);
      if (given === undefined) return null;
      if (token !== undefined) return sameToken(given, token) ? grant(undefined) : null;
      for (const [hash, ids] of grants!) if (sameToken(given, hash)) return grant(ids);
      return null;
    },
  };
}
