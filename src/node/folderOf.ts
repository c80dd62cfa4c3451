/** The loader's arguments, checked: its options, and the folder it reads. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import type { KnowledgeIssue } from '../errors/codes.js';
import type { LoadKnowledgeDirectoryOptions } from './types.js';

const API = 'loadKnowledgeDirectory';
const OPTION_KEYS: readonly string[] = [
  'include',
  'exclude',
  'maxChars',
  'followLinks',
  'linkRoot',
  'maxFileBytes',
];

/** The largest `maxFileBytes`: the longest string V8 holds (a larger file could not be decoded). */
export const MAX_FILE_BYTES_LIMIT = 0x1fffffe8;

/** Checks the options, throwing `INVALID_INPUT` for anything wrong. */
export function checkOptions(options: LoadKnowledgeDirectoryOptions | undefined): void {
  if (options === undefined) return;
  const issues: KnowledgeIssue[] = [];
  if (options === null || typeof options !== 'object') {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options'],
      message: `${API}: options must be an object such as \`{ exclude: ['drafts/**'] }\`.`,
    });
  } else {
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.includes(key)) {
        issues.push({
          code: 'INVALID_INPUT',
          path: ['options', key],
          message: `${API}: unknown option \`${key}\`. The options are ${OPTION_KEYS.map((k) => `\`${k}\``).join(', ')}.`,
        });
      }
    }
    const followLinks: unknown = options.followLinks;
    if (followLinks !== undefined && typeof followLinks !== 'boolean')
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', 'followLinks'],
        message: `${API}: \`followLinks\` must be true or false, not ${typeof followLinks}.`,
      });
    const maxFileBytes: unknown = options.maxFileBytes;
    if (
      maxFileBytes !== undefined &&
      !(
        typeof maxFileBytes === 'number' &&
        Number.isInteger(maxFileBytes) &&
        maxFileBytes >= 1 &&
        maxFileBytes <= MAX_FILE_BYTES_LIMIT
      )
    )
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', 'maxFileBytes'],
        message: `${API}: \`maxFileBytes\` must be a whole number of bytes from 1 to ${MAX_FILE_BYTES_LIMIT} (the longest string JavaScript holds), such as \`64 * 1024 * 1024\`, not ${typeof maxFileBytes === 'number' ? String(maxFileBytes) : typeof maxFileBytes}.`,
      });
    for (const key of ['include', 'exclude'] as const) {
      const value: unknown = options[key];
      if (
        value !== undefined &&
        !(
          Array.isArray(value) &&
          value.length > 0 &&
          value.every((p) => typeof p === 'string' && p !== '')
        )
      ) {
        issues.push({
          code: 'INVALID_INPUT',
          path: ['options', key],
          message: `${API}: \`${key}\` must be a non-empty array of glob strings, such as \`['guides/**']\`.`,
        });
      }
    }
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
}

/** The absolute folder path of `dir`, or a thrown `READ_FAILED` / `INVALID_INPUT`. */
export async function folderOf(dir: string | URL): Promise<string> {
  if (!(typeof dir === 'string' && dir !== '') && !(dir instanceof URL)) {
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['dir'],
        message: `${API}: \`dir\` must be a folder path or a \`file:\` URL, not ${typeof dir === 'string' ? 'an empty string' : typeof dir}.`,
      },
    ]);
  }
  if (dir instanceof URL && dir.protocol !== 'file:') {
    throw new KnowledgeError([
      {
        code: 'INVALID_INPUT',
        path: ['dir'],
        message: `${API}: \`dir\` must be a folder path or a \`file:\` URL, not a \`${dir.protocol}\` URL.`,
      },
    ]);
  }
  const directory = resolve(dir instanceof URL ? fileURLToPath(dir) : dir);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'does not exist'
        : `cannot be read (${(error as Error).message})`;
    throw new KnowledgeError(
      [
        {
          code: 'READ_FAILED',
          path: ['dir'],
          file: directory,
          message: `${API}: folder \`${directory}\` ${reason}. Pass the folder that holds your Markdown files.`,
        },
      ],
      { cause: error },
    );
  }
  if (!isDirectory) {
    throw new KnowledgeError([
      {
        code: 'READ_FAILED',
        path: ['dir'],
        file: directory,
        message: `${API}: \`${directory}\` is a file, not a folder. Pass the folder that holds it.`,
      },
    ]);
  }
  return directory;
}
