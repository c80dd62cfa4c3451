/**
 * Where a link destination points inside the knowledge base: the page path it names (resolved
 * against the linking page's directory; a leading `/` is the knowledge-base root) and its fragment, or
 * `undefined` for a URL with a scheme or a host, or one that leaves the root.
 */

/** Whether `url` starts with a URL scheme (`letter (letter | digit | + | - | .)* :`). */
function hasScheme(url: string): boolean {
  const first = url.charCodeAt(0);
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122))) return false;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 58) return true;
    const ok =
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      c === 43 ||
      c === 45 ||
      c === 46;
    if (!ok) return false;
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

/**
 * The target path (not yet checked against the pages) and fragment of `url` seen from `fromPath`.
 * Relative paths resolve against the directory of `fromPath`; a leading `/` means the knowledge-base
 * root; `.` and `..` segments are resolved; each segment is percent-decoded; a query is dropped.
 *
 * @param url - a link destination as `scanLinks` gives it.
 * @param fromPath - the linking page's path, such as `pages/guides/setup.md`.
 * @returns `undefined` for a URL with a scheme or a host, a fragment-only URL, or one that climbs above the root.
 * @example
 * ```ts
 * resolveLink('../faq#refunds', 'pages/guides/setup.md'); // { path: 'pages/faq', fragment: 'refunds' }
 * ```
 */
export function resolveLink(
  url: string,
  fromPath: string,
): { path: string; fragment: string | null } | undefined {
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
  const segments = rest.startsWith('/') ? [] : fromPath.split('/').slice(0, -1);
  for (const raw of rest.split('/')) {
    const segment = decode(raw);
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  return { path: segments.join('/'), fragment };
}
