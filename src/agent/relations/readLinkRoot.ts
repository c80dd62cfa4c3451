/** The `linkRoot` option of `createCatalogSource`, checked and normalized. */
import { isPlainObject } from '../../shared/values.js';
import type { KnowledgeLinkRoot } from '../types.js';
import { type LinkRoot, PAGE_PATH_ROOT } from './resolveLink.js';

/** `path` without a leading and a trailing `/`, or `undefined` when it is not a clean relative path. */
function clean(path: unknown): string | undefined {
  if (typeof path !== 'string') return undefined;
  let from = 0;
  let to = path.length;
  if (path.startsWith('/')) from = 1;
  if (to > from && path.endsWith('/')) to--;
  const inner = path.slice(from, to);
  if (inner === '') return '';
  for (const segment of inner.split('/'))
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('\\'))
      return undefined;
  return inner;
}

/**
 * What is wrong with a `linkRoot` value, as the end of "`linkRoot` must be …", or `undefined`.
 * Used by `createCatalogSource`'s option checks.
 */
export function linkRootProblem(value: unknown): string | undefined {
  const ok =
    typeof value === 'string'
      ? clean(value) !== undefined
      : isPlainObject(value) &&
        Object.keys(value).every((k) => k === 'dir' || k === 'base') &&
        clean(value['dir']) !== undefined &&
        typeof value['base'] === 'string' &&
        value['base'].startsWith('/') &&
        clean(value['base']) !== undefined;
  return ok
    ? undefined
    : "a page directory such as 'pages', or { dir: 'pages', base: '/learn/' } (paths of `/`-separated names, without `.`, `..` or `\\`)";
}

/** The normalized link root of a checked `linkRoot` option (`PAGE_PATH_ROOT` when absent). */
export function readLinkRoot(value: KnowledgeLinkRoot | undefined): LinkRoot {
  if (value === undefined) return PAGE_PATH_ROOT;
  if (typeof value === 'string') return { dir: clean(value)!, base: '' };
  return { dir: clean(value.dir)!, base: clean(value.base)! };
}
