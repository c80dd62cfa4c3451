/**
 * The rule for page paths (`pages/…/x.md`, `.mdx`, `.markdown`), shared by the catalog source and the folder loader.
 *
 * @module
 */
import { BACKSLASH, DEL, SPACE } from '../markdown/chars.js';

/**
 * Why `path` is not a valid page path, or `undefined` when it is.
 *
 * @param path - a proposed page path.
 * @returns a phrase such as "must end in `.md`", to follow the path in a message.
 */
/** The extensions of a page file, in the order a link without one tries them. */
export const PAGE_EXTENSIONS: readonly string[] = ['.md', '.mdx', '.markdown'];

/** Whether `path` ends in one of {@link PAGE_EXTENSIONS}. */
export function hasPageExtension(path: string): boolean {
  return PAGE_EXTENSIONS.some((extension) => path.endsWith(extension));
}

export function pagePathProblem(path: string): string | undefined {
  if (!path.startsWith('pages/')) return 'must start with `pages/`';
  if (!hasPageExtension(path)) return 'must end in `.md`, `.mdx` or `.markdown`';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < SPACE || c === DEL) return 'must not contain control characters';
    if (c === BACKSLASH) return 'must use `/`, not a backslash';
  }
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      return 'must have no empty, `.` or `..` segment';
  }
  return undefined;
}

/**
 * The graph file path of a page: `_graph/by-file/<fileId as a URI component>.json`.
 *
 * @param fileId - the page's file ID (its document ID).
 */
export function graphFilePath(fileId: string): string {
  return `_graph/by-file/${encodeURIComponent(fileId)}.json`;
}
