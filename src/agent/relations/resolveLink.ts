/**
 * Where a link destination points inside the knowledge base: the page path it names (resolved against
 * the linking page's directory; a site-root link `/…` against the link root) and its fragment, or
 * `undefined` for a URL with a scheme or a host, or a fragment of the page itself.
 */
import { COLON, isAlpha, isSchemeChar } from '../../markdown/chars.js';
import { hasPageExtension, PAGE_EXTENSIONS } from '../../shared/pagePath.js';

/**
 * What a site-root link's `/` stands for, normalized: `dir`, the page directory of `/` (`''` for the
 * root of page paths, else segments joined by `/`), and `base`, the site path the pages of `dir` are
 * served under (`''` for `/`). With `{ dir: 'pages', base: 'learn' }`, `/learn/state` is
 * `pages/state` and `/blog/x` is outside the knowledge base.
 */
export interface LinkRoot {
  readonly dir: string;
  readonly base: string;
}

/** `/` is the root of page paths: the link root when none is given. */
export const PAGE_PATH_ROOT: LinkRoot = Object.freeze({ dir: '', base: '' });

/** A link destination resolved to a page path, before the page forms (`.html`, `index.md`) are tried. */
export interface ResolvedLink {
  /** The path it names, `/`-separated and decoded; `null` when it leaves the knowledge base. */
  readonly path: string | null;
  readonly fragment: string | null;
  /** Whether the URL's path ends with `/` (or is `/`): it names a directory, whose page is `index.md`. */
  readonly directory: boolean;
  /** Whether it is a site-root link (`/…`). */
  readonly siteRoot: boolean;
}

/** Whether `url` starts with a URL scheme (`letter (letter | digit | + | - | .)* :`). */
function hasScheme(url: string): boolean {
  const first = url.charCodeAt(0);
  if (!isAlpha(first)) return false;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === COLON) return true;
    if (!isSchemeChar(c)) return false;
  }
  return false;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `segments` with `rest`'s segments applied (decoded; `.` and `..` resolved), or `null` when they climb above it. */
function walk(segments: string[], rest: string): string[] | null {
  for (const raw of rest.split('/')) {
    const segment = decode(raw);
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(segment);
  }
  return segments;
}

const split = (path: string): string[] => (path === '' ? [] : path.split('/'));

/**
 * The target path (not yet checked against the pages) and fragment of `url` seen from `fromPath`.
 * Relative paths resolve against the directory of `fromPath`; a site-root path (`/…`) against `root`:
 * it must start with `root.base`, which is replaced by `root.dir`. `.` and `..` segments are resolved;
 * each segment is percent-decoded; a query is dropped.
 *
 * @param url - a link destination as `scanLinks` gives it.
 * @param fromPath - the linking page's path, such as `pages/guides/setup.md`.
 * @param root - what `/` stands for; default `PAGE_PATH_ROOT`.
 * @returns `undefined` for a URL with a scheme or a host, or a fragment-only URL; `path: null` for one
 *   that climbs above the root or, site-root, lies outside `root.base`.
 * @example
 * ```ts
 * resolveLink('../faq#refunds', 'pages/guides/setup.md'); // { path: 'pages/faq', fragment: 'refunds', … }
 * resolveLink('/learn/state', 'pages/a.md', { dir: 'pages', base: 'learn' }); // { path: 'pages/state', … }
 * ```
 */
export function resolveLink(
  url: string,
  fromPath: string,
  root: LinkRoot = PAGE_PATH_ROOT,
): ResolvedLink | undefined {
  if (url.length === 0 || hasScheme(url) || url.startsWith('//')) return undefined;
  let rest = url;
  let fragment: string | null = null;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = decode(rest.slice(hash + 1));
    rest = rest.slice(0, hash);
  }
  const query = rest.indexOf('?');
  if (query >= 0) rest = rest.slice(0, query);
  if (rest.length === 0) return undefined; // a fragment of the page itself
  const siteRoot = rest.startsWith('/');
  const directory = rest.endsWith('/');
  if (!siteRoot) {
    const segments = walk(fromPath.split('/').slice(0, -1), rest);
    return { path: segments === null ? null : segments.join('/'), fragment, directory, siteRoot };
  }
  const site = walk([], rest);
  const base = split(root.base);
  if (site === null || site.length < base.length || base.some((s, i) => site[i] !== s))
    return { path: null, fragment, directory, siteRoot };
  const path = [...split(root.dir), ...site.slice(base.length)].join('/');
  return { path, fragment, directory, siteRoot };
}

/** `stem` with each page extension, in order. */
const withExtensions = (stem: string): string[] => PAGE_EXTENSIONS.map((ext) => `${stem}${ext}`);

/**
 * The page paths a resolved path may name, in the order tried, each page form in `.md`, `.mdx` and
 * `.markdown`: a directory (`/guide/`) is its `index` page, then the page of its name (docs sites
 * with directory URLs, such as Starlight and MkDocs, write `/guides/tabs/` for `guides/tabs.mdx`); a
 * path with a page extension is itself; an `.html` or `.htm` path is the page of the same name
 * (`list.html` → `list.md`, `index.html` → `index.md`); any other path is itself, then the page of
 * its name, then its `index` page (`/learn/state` → `learn/state.md`, `/learn` → `learn/index.md`).
 *
 * @example
 * ```ts
 * pageForms('pages/guide/list.html', false); // ['pages/guide/list.md', 'pages/guide/list.mdx', 'pages/guide/list.markdown']
 * pageForms('pages/api', true); // ['pages/api/index.md', …, 'pages/api.md', …]
 * ```
 */
export function pageForms(path: string, directory: boolean): readonly string[] {
  if (path === '') return withExtensions('index');
  if (directory) return [...withExtensions(`${path}/index`), ...withExtensions(path)];
  if (hasPageExtension(path)) return [path];
  if (path.endsWith('.html')) return withExtensions(path.slice(0, -5));
  if (path.endsWith('.htm')) return withExtensions(path.slice(0, -4));
  return [path, ...withExtensions(path), ...withExtensions(`${path}/index`)];
}
