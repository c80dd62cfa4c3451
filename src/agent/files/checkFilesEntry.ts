/**
 * One document's entry of the source's `files` option (`files[id]`, or `files(id)`), checked: known
 * keys, strings, a JSON front matter whose `tags` is an array of strings, and page paths that are
 * normalized relative POSIX paths under `pages/` ending in `.md`. Problems are collected as
 * `INVALID_INPUT` issues naming the document. (Not the `read_file` tool's options.)
 */
import { pagePathProblem } from '../../shared/pagePath.js';
import type { KnowledgeIssue } from '../../errors/codes.js';
import { isPlainObject, unknownKeys } from '../../shared/values.js';
import type { CatalogSourceOptions } from '../source/catalogSourceOptions.js';
import type { JsonObject, KnowledgeFileOptions } from '../types.js';

const API = 'createCatalogSource';
const KEYS: readonly string[] = ['path', 'title', 'description', 'frontmatter'];

/** A deep copy of a JSON object, or a description of what is not JSON in it. */
function copyJson(value: unknown, at: string, depth = 0): { value?: unknown; problem?: string } {
  if (depth > 64) return { problem: `${at} nests too deeply` };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { value };
  if (typeof value === 'number')
    return Number.isFinite(value) ? { value } : { problem: `${at} is not a finite number` };
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const r = copyJson(value[i], `${at}[${i}]`, depth + 1);
      if (r.problem) return r;
      out.push(r.value);
    }
    return { value: Object.freeze(out) };
  }
  if (
    typeof value === 'object' &&
    (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = copyJson(v, `${at}.${k}`, depth + 1);
      if (r.problem) return r;
      Object.defineProperty(out, k, {
        value: r.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { value: Object.freeze(out) };
  }
  return { problem: `${at} is not a JSON value` };
}

/** One page's checked options. */
export interface CheckedFilesEntry {
  readonly path: string | undefined;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly frontmatter: JsonObject;
  readonly tags: readonly string[];
}

/**
 * The checked `files` entry of document `id`, pushing every problem onto `issues`.
 *
 * @param options - the source options; `options.files` is a record or a function by document ID.
 * @param id - the document ID.
 * @param issues - where problems go, each `INVALID_INPUT` with the document ID and a `path` under `files`.
 * @returns the options, with `undefined` (or `{}` / `[]`) for whatever was absent or invalid.
 */
export function checkFilesEntry(
  options: CatalogSourceOptions,
  id: string,
  issues: KnowledgeIssue[],
): CheckedFilesEntry {
  const where = ['files', id];
  const problem = (key: string | undefined, message: string) =>
    issues.push({
      code: 'INVALID_INPUT',
      documentId: id,
      path: key === undefined ? where : [...where, key],
      message: `${API}: \`files[${JSON.stringify(id)}]\`${key ? `.${key}` : ''} ${message}`,
    });
  let given: unknown;
  try {
    given =
      typeof options.files === 'function'
        ? options.files(id)
        : options.files?.[id] !== undefined && Object.hasOwn(options.files, id)
          ? options.files[id]
          : undefined;
  } catch (error) {
    problem(
      undefined,
      `could not be computed: the \`files\` function threw (${error instanceof Error ? error.message : String(error)}).`,
    );
    given = undefined;
  }
  const result = {
    path: undefined,
    title: undefined,
    description: undefined,
    frontmatter: Object.freeze({}),
    tags: Object.freeze([]),
  } as {
    -readonly [K in keyof CheckedFilesEntry]: CheckedFilesEntry[K];
  };
  if (given === undefined) return result;
  if (!isPlainObject(given)) {
    problem(
      undefined,
      'must be a plain object `{ path?, title?, description?, frontmatter? }` or `undefined`.',
    );
    return result;
  }
  const file = given as KnowledgeFileOptions & Record<string, unknown>;
  for (const key of unknownKeys(file, KEYS))
    problem(key, 'is not a file option; use `path`, `title`, `description` or `frontmatter`.');
  for (const key of ['path', 'title', 'description'] as const) {
    const v = file[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length === 0) problem(key, 'must be a non-empty string.');
    else result[key] = v;
  }
  if (result.path !== undefined) {
    const why = pagePathProblem(result.path);
    if (why) {
      problem(
        'path',
        `${JSON.stringify(result.path)} ${why}: a page path is a normalized relative POSIX path under \`pages/\` ending in \`.md\`, such as \`pages/guides/setup.md\`.`,
      );
      result.path = undefined;
    }
  }
  if (file.frontmatter !== undefined) {
    const copy = copyJson(file.frontmatter, 'frontmatter');
    if (
      copy.problem ||
      typeof copy.value !== 'object' ||
      copy.value === null ||
      Array.isArray(copy.value)
    ) {
      problem('frontmatter', `must be a JSON object${copy.problem ? `: ${copy.problem}` : ''}.`);
    } else {
      const fm = copy.value as JsonObject;
      const tags = fm['tags'];
      if (
        tags !== undefined &&
        (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string'))
      ) {
        problem('frontmatter', '`tags` must be an array of strings.');
      } else {
        result.frontmatter = fm;
        if (tags !== undefined) result.tags = tags as readonly string[]; // a frozen copy already
      }
    }
  }
  return result;
}
