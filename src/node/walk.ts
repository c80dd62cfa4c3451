/**
 * The folder walk: which Markdown files of a folder are read, and which entries are refused. By default
 * nothing outside the folder's real path is read, and nothing but regular files: a symbolic link is
 * never followed, and a link or a special file (FIFO, socket, device) where a Markdown file would be
 * read is a `REFUSED_FILE` problem. With `followLinks`, links whose real target is inside the folder
 * are followed (a link to a folder that contains it is refused as a loop); links out are refused all
 * the same.
 */
import * as nodeFs from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { kindOf, reasonOf, type SeenFile } from './readRegular.js';

/** A file the walk saw: where to open it, and which file it must still be then. */
export interface SeenPath extends SeenFile {
  /** The file's real path, absolute: what is opened (a followed link's target). */
  readonly real: string;
}

/** A file found, or a refusal to report. */
export interface Walked {
  /** Relative, `/`-separated paths of the Markdown files to read, in code-unit order. */
  readonly paths: readonly string[];
  /** What the walk saw of each path (absent for a path whose check failed: its read reports why). */
  readonly seen: ReadonlyMap<string, SeenPath>;
  /**
   * One `REFUSED_FILE` (or `INVALID_ENCODING`, for a name that is not UTF-8; `READ_FAILED`, for a
   * folder that cannot be listed) per entry not read.
   */
  readonly refused: readonly KnowledgeIssue[];
}

/** The extensions of the files a folder load reads, by default all of them. */
export const MARKDOWN_EXTENSIONS = ['.md', '.mdx', '.markdown'] as const;

/** The globs a folder load starts from when `include` is not given. */
export const DEFAULT_INCLUDE = ['**/*.md', '**/*.mdx', '**/*.markdown'] as const;

/** Whether `name` ends with one of the extensions a folder load reads. */
export const isMarkdownName = (name: string): boolean =>
  MARKDOWN_EXTENSIONS.some((extension) => name.endsWith(extension));

/** A file's path without its Markdown extension: its default document ID. */
export function withoutExtension(file: string): string {
  const extension = MARKDOWN_EXTENSIONS.find((e) => file.endsWith(e));
  return extension === undefined ? file : file.slice(0, -extension.length);
}

/** Compares two strings by UTF-16 code units, as the path order and the issue order use. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether `path` is `root` or inside it (both real, absolute). */
function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Where a refused folder link leads the walker instead: a name no real path has. */
const STAND_IN = '\u0000knowledge-kit-refused-link-';

/** Whether a relative path has a segment the loader always leaves out. */
const leftOut = (rel: string): boolean =>
  rel.split('/').some((s) => s.startsWith('.') || s === 'node_modules');

/**
 * Finds the Markdown files of `directory` (absolute) that `include` and `exclude` select.
 *
 * @param directory - the folder, absolute.
 * @param api - the calling API, for messages.
 * @param options - `include`, `exclude`, `followLinks`.
 * @returns the paths to read and one problem per entry refused.
 * @throws {KnowledgeError} `READ_FAILED` (`path: ['dir']`) when `directory` itself cannot be listed.
 */
export async function walkFolder(
  directory: string,
  api: string,
  options: {
    readonly include?: readonly string[] | undefined;
    readonly exclude?: readonly string[] | undefined;
    readonly followLinks?: boolean | undefined;
  },
): Promise<Walked> {
  const follow = options.followLinks === true;
  const root = nodeFs.realpathSync(directory);
  const refused = new Map<string, KnowledgeIssue>();
  const rel = (absolute: string): string => relative(directory, absolute).split(sep).join('/');
  const refuse = (file: string, why: string, fix: string): void => {
    if (refused.has(file) || leftOut(file)) return;
    refused.set(file, {
      code: 'REFUSED_FILE',
      file,
      message: `${file}: ${api} does not read it: ${why}. ${fix}`,
    });
  };
  const hint = follow
    ? 'Links are followed only to files and folders inside the folder: copy what it points to into the folder, or remove the link.'
    : 'Symbolic links are not followed: pass `followLinks: true` (`--follow-links` on the command line) to follow links that stay inside the folder, or replace the link by the file.';

  // The walker's file system: reading a folder notes its special `.md` entries (the walker skips them
  // silently); resolving a link decides whether the walker may enter it. A link to a folder is entered
  // only when followed and inside; a link to anything else is left to the check of each path found,
  // so that only links `include` and `exclude` select are reported.
  const standIns = new Map<string, { file: string; why: string; fix: string }>();
  const standInOf = (path: string) =>
    path.startsWith(STAND_IN) ? standIns.get(path.replace(/[/\\]+$/, '')) : undefined;
  const fs = {
    stat: ((path: string, callback: (error: unknown, stat?: unknown) => void) => {
      if (standInOf(path) !== undefined) return callback(null, { isDirectory: () => true });
      nodeFs.stat(path, callback);
    }) as unknown as typeof nodeFs.stat,
    readdir: ((path: string, _options: unknown, callback: unknown) => {
      const standIn = standInOf(path);
      if (standIn !== undefined) {
        refuse(standIn.file, standIn.why, standIn.fix);
        return (callback as (e: unknown, r: unknown) => void)(null, []);
      }
      nodeFs.readdir(path, { withFileTypes: true }, (error, entries) => {
        if (error) unreadable(path, error);
        else
          for (const entry of entries)
            if (
              isMarkdownName(entry.name) &&
              !entry.isFile() &&
              !entry.isDirectory() &&
              !entry.isSymbolicLink()
            ) {
              const at = resolve(path, entry.name);
              let kind = 'not a regular file';
              try {
                kind = kindOf(nodeFs.lstatSync(at));
              } catch {
                // Gone meanwhile: the generic wording stays.
              }
              refuse(
                rel(at),
                `it is ${kind}, and only regular files are read`,
                'Remove it, or exclude it.',
              );
            }
        (callback as (e: unknown, r: unknown) => void)(error, entries);
      });
    }) as unknown as typeof nodeFs.readdir,
    realpath: ((path: string, callback: (error: unknown, resolved?: string) => void) =>
      nodeFs.realpath(path, (error, real) => {
        if (error) {
          // The walker skips a link it cannot resolve: a dangling link named like a page is reported.
          if (isMarkdownName(path))
            refuse(rel(path), 'it is a symbolic link to nothing (its target does not exist)', hint);
          return callback(error);
        }
        nodeFs.stat(real, (statError, stat) => {
          if (statError) return callback(statError);
          if (!stat.isDirectory()) return callback(null, real);
          const link = rel(path);
          const parent = nodeFs.realpathSync(resolve(path, '..'));
          let why: string | undefined;
          let fix = hint;
          if (!follow) why = `it is a symbolic link to the folder \`${real}\``;
          else if (!inside(root, real))
            why = `it is a symbolic link to \`${real}\`, outside the folder \`${root}\``;
          else if (inside(real, parent)) {
            why = `it is a symbolic link to \`${real}\`, a folder that holds the link itself (a loop)`;
            fix = 'Remove the link.';
          }
          if (why === undefined) return callback(null, real);
          // Refused, but reported only if \`exclude\` does not leave the link out, which the walker
          // checks after resolving: it gets a stand-in folder, and entering it (the read above)
          // reports the refusal and lists nothing. Nothing of the target is read.
          const standIn = `${STAND_IN}${standIns.size}`;
          standIns.set(standIn, { file: link, why, fix });
          callback(null, standIn);
        });
      })) as unknown as typeof nodeFs.realpath,
  };

  // A folder the walker cannot list is skipped by it in silence: the folder given is `READ_FAILED`
  // thrown (as when it is missing), a folder in it a `READ_FAILED` problem of that folder.
  let rootFailure: NodeJS.ErrnoException | undefined;
  const unreadable = (path: string, error: NodeJS.ErrnoException): void => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return; // Gone meanwhile: nothing to list.
    const folder = rel(path);
    if (folder === '') {
      rootFailure = error;
      return;
    }
    if (refused.has(folder) || leftOut(folder)) return;
    refused.set(folder, {
      code: 'READ_FAILED',
      file: folder,
      message: `${folder}: ${api} cannot read this folder: ${reasonOf(error)}, so the Markdown files in it are not loaded. Make it readable by the user that runs Knowledge Kit, or exclude it.`,
    });
  };

  const found = await glob(options.include ? [...options.include] : [...DEFAULT_INCLUDE], {
    cwd: directory,
    ignore: ['**/node_modules/**', ...(options.exclude ?? [])],
    dot: false,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: true,
    fs,
  });
  if (rootFailure !== undefined)
    throw new KnowledgeError(
      [
        {
          code: 'READ_FAILED',
          path: ['dir'],
          file: directory,
          message: `${api}: folder \`${directory}\` cannot be read: ${reasonOf(rootFailure)}. Make it readable by the user that runs Knowledge Kit.`,
        },
      ],
      { cause: rootFailure },
    );
  const paths: string[] = [];
  const seen = new Map<string, SeenPath>();
  // `include` may name a dot folder or node_modules explicitly; they are left out all the same.
  for (const file of found) {
    if (!isMarkdownName(file) || leftOut(file)) continue;
    const absolute = resolve(directory, file);
    let real: string;
    let stat: nodeFs.Stats;
    try {
      real = nodeFs.realpathSync(absolute);
      stat = nodeFs.statSync(real);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && file.includes('\uFFFD')) {
        // The walker decodes names as UTF-8, replacing bad bytes by U+FFFD: such a name opens nothing.
        refused.set(file, {
          code: 'INVALID_ENCODING',
          file,
          message: `${file}: the file name is not valid UTF-8 (shown with U+FFFD for the bytes that are not), so ${api} cannot open it. Rename the file in UTF-8, or exclude it.`,
        });
        continue;
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && isLink(absolute)) {
        refuse(file, 'it is a symbolic link to nothing (its target does not exist)', hint);
        continue;
      }
      paths.push(file); // Read as before: the read reports `READ_FAILED`.
      continue;
    }
    const linked = real !== resolve(root, file);
    if (linked && !follow) {
      refuse(file, `it is a symbolic link (to \`${real}\`), or under one`, hint);
      continue;
    }
    if (linked && !inside(root, real)) {
      refuse(file, `it is a symbolic link to \`${real}\`, outside the folder \`${root}\``, hint);
      continue;
    }
    if (!stat.isFile()) {
      refuse(
        file,
        `it ${linked ? 'leads to' : 'is'} ${kindOf(stat)}, and only regular files are read`,
        'Remove it, or exclude it.',
      );
      continue;
    }
    paths.push(file);
    seen.set(file, { real, dev: stat.dev, ino: stat.ino });
  }
  return {
    paths: paths.sort(byCodeUnits),
    seen,
    refused: [...refused.values()].sort((a, b) => byCodeUnits(a.file!, b.file!)),
  };
}

/**
 * The error for a folder with no Markdown file to load (none found, none refused): the commands that
 * load a folder refuse it, rather than serve an empty knowledge base in silence.
 *
 * @param directory - the folder, as the user named it.
 * @param options - the `include` and `exclude` globs that applied.
 * @returns a `READ_FAILED` error (`path: ['dir']`) whose one message names the folder, the
 *   extensions and the globs.
 */
export function noMarkdownFiles(
  directory: string,
  options: {
    readonly include?: readonly string[] | undefined;
    readonly exclude?: readonly string[] | undefined;
  },
): KnowledgeError {
  const globs = (list: readonly string[]) => list.map((g) => `\`${g}\``).join(', ');
  const exclude = options.exclude ?? [];
  return new KnowledgeError([
    {
      code: 'READ_FAILED',
      path: ['dir'],
      file: directory,
      message: `folder \`${directory}\` has no Markdown file to load: no file ending in ${MARKDOWN_EXTENSIONS.join(', ')} matches ${options.include ? 'include' : 'the default globs'} ${globs(options.include ?? DEFAULT_INCLUDE)}${exclude.length > 0 ? ` without exclude ${globs(exclude)}` : ''} (dot folders and node_modules are always left out). Check the folder and the globs.`,
    },
  ]);
}

/** Whether `path` is a symbolic link. */
function isLink(path: string): boolean {
  try {
    return nodeFs.lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
