/**
 * The URIs of knowledge resources: `knowledge:///` and the file path, each segment percent-encoded;
 * a version other than the default under `knowledge:///versions/{label}/`; `?cursor=` addresses one
 * part of a file read in parts. (A knowledge base's own top level holds only `pages/`, `index.md` and
 * `_graph/`, so `versions/` names no file of it.)
 *
 * @module
 */
import { versionLabelProblem } from '../agent/internals.js';

const PREFIX = 'knowledge:///';
/** Where the resources of a version other than the default live: `knowledge:///versions/{label}/…`. */
const VERSIONS = 'versions/';

/**
 * The resource URI of a file path, of one part of it when `cursor` is given, and of a version other
 * than the default when `version` is given.
 *
 * @param path - a path as `read_file` takes it, such as `pages/guide.md`.
 * @param cursor - the `nextCursor` of the previous part, if any.
 * @param version - the version's label, for a version other than the default (whose resources have
 *   no version in their URIs).
 * @returns such as `knowledge:///pages/guide.md`, or `knowledge:///versions/2.x/pages/guide.md`.
 */
export function knowledgeFileUri(path: string, cursor?: string, version?: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  const base =
    version === undefined
      ? `${PREFIX}${encoded}`
      : `${PREFIX}${VERSIONS}${encodeURIComponent(version)}/${encoded}`;
  return cursor === undefined ? base : `${base}?cursor=${encodeURIComponent(cursor)}`;
}

/**
 * The file path (and part cursor) a resource URI names, or a message saying what is wrong with it.
 *
 * @param uri - the URI a client sent to `resources/read`.
 */
export function knowledgeFilePath(
  uri: string,
): { readonly path: string; readonly cursor?: string; readonly version?: string } | string {
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
    let segments = uri.slice(PREFIX.length, pathEnd).split('/');
    if (segments.some((segment) => segment === ''))
      return `Resource URI ${JSON.stringify(uri.slice(0, 200))} has an empty path segment. ${fix}`;
    let version: string | undefined;
    if (segments[0] === VERSIONS.slice(0, -1)) {
      const label = decodeURIComponent(segments[1] ?? '');
      const problem = versionLabelProblem(label);
      if (problem !== undefined || segments.length < 3)
        return `Resource URI ${JSON.stringify(uri.slice(0, 200))} does not name a version and a file: ${problem === undefined ? 'it has no file path after the version' : `the version is not a label (${problem})`}. Use ${PREFIX}${VERSIONS}{version}/ and a path, such as ${PREFIX}${VERSIONS}2.x/index.md.`;
      version = label;
      segments = segments.slice(2);
    }
    const path = segments.map(decodeURIComponent).join('/');
    return {
      path,
      ...(cursor === undefined ? {} : { cursor }),
      ...(version === undefined ? {} : { version }),
    };
  } catch {
    return `Resource URI ${JSON.stringify(uri.slice(0, 200))} has a malformed %-escape. ${fix}`;
  }
}
