/**
 * The URIs of knowledge resources: `knowledge:///` and the file path, each segment percent-encoded;
 * `?cursor=` addresses one part of a file read in parts.
 *
 * @module
 */

const PREFIX = 'knowledge:///';

/**
 * The resource URI of a file path, and of one part of it when `cursor` is given.
 *
 * @param path - a path as `read_file` takes it, such as `pages/guide.md`.
 * @param cursor - the `nextCursor` of the previous part, if any.
 * @returns such as `knowledge:///pages/guide.md`.
 */
export function knowledgeFileUri(path: string, cursor?: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return cursor === undefined
    ? `${PREFIX}${encoded}`
    : `${PREFIX}${encoded}?cursor=${encodeURIComponent(cursor)}`;
}

/**
 * The file path (and part cursor) a resource URI names, or a message saying what is wrong with it.
 *
 * @param uri - the URI a client sent to `resources/read`.
 */
export function knowledgeFilePath(
  uri: string,
): { readonly path: string; readonly cursor?: string } | string {
  const fix = `Use ${PREFIX} and a path from resources/list or read_file, such as ${PREFIX}index.md.`;
  if (!uri.startsWith(PREFIX))
    return `Resource URI ${JSON.stringify(uri.slice(0, 200))} is not a knowledge file. ${fix}`;
  const hash = uri.indexOf('#');
  const end = hash === -1 ? uri.length : hash;
  const question = uri.indexOf('?');
  const pathEnd = question === -1 || question > end ? end : question;
  let cursor: string | undefined;
  try {
    if (pathEnd < end) {
      const query = uri.slice(pathEnd + 1, end);
      if (!query.startsWith('cursor=') || query.includes('&'))
        return `Resource URI ${JSON.stringify(uri.slice(0, 200))} takes only ?cursor= (a part's nextCursor). ${fix}`;
      cursor = decodeURIComponent(query.slice('cursor='.length));
    }
    const segments = uri.slice(PREFIX.length, pathEnd).split('/');
    if (segments.some((segment) => segment === ''))
      return `Resource URI ${JSON.stringify(uri.slice(0, 200))} has an empty path segment. ${fix}`;
    const path = segments.map(decodeURIComponent).join('/');
    return cursor === undefined ? { path } : { path, cursor };
  } catch {
    return `Resource URI ${JSON.stringify(uri.slice(0, 200))} has a malformed %-escape. ${fix}`;
  }
}
