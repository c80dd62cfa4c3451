/**
 * `registerKnowledgeResources`: every readable file of a knowledge source (pages, `index.md`, the
 * graph files) as an MCP resource, so clients that attach context (desktop agents, IDEs) can list
 * and attach a page.
 *
 * @module
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type McpServer,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import {
  isKnowledgeToolError,
  type ActiveContentRevision,
  type KnowledgeSource,
  type ListTreeInput,
  type ReadFileInput,
  type ReadFileOutput,
} from '../agent/index.js';
import { knowledgeFilePath, knowledgeFileUri } from './resourceUri.js';
import { walkCursors, type Walk, type WalkFrame } from './resourceWalk.js';

/** The MIME type of pages and `index.md`; the graph files (`_graph/**.json`) are `application/json`. */
export const KNOWLEDGE_RESOURCE_MIME_TYPE = 'text/markdown';

/** The MIME type of a file by its path. */
function mimeTypeOf(path: string): string {
  return path.endsWith('.json') ? 'application/json' : KNOWLEDGE_RESOURCE_MIME_TYPE;
}

/** The resource template of file paths: `knowledge:///{+path}`, such as `knowledge:///pages/guide.md`. */
export const KNOWLEDGE_RESOURCE_TEMPLATE = 'knowledge:///{+path}';

/**
 * The resource template of a version's file paths, listed when the knowledge base has versions
 * besides the default: `knowledge:///versions/{version}/{+path}`, such as
 * `knowledge:///versions/2.x/pages/guide.md`.
 */
export const KNOWLEDGE_VERSION_RESOURCE_TEMPLATE = 'knowledge:///versions/{version}/{+path}';

/** `list_tree` items asked per step of the listing walk (its largest page). */
const TREE_PAGE = 200;
/** A `resources/list` page stops growing at this many resources (one tree page may overshoot it). */
const LIST_PAGE = 50;

/**
 * The default `resourceMaxChars`: a page a person attaches is read whole up to this many code points
 * (about 50,000 tokens), ten times the tools' default read limit.
 */
export const KNOWLEDGE_RESOURCE_MAX_CHARS = 200_000;

/** Options of `registerKnowledgeResources`. */
export interface KnowledgeResourcesOptions {
  /** The knowledge base the listing cursors are bound to; default `''`. */
  readonly knowledgeBaseId?: string | undefined;
  /**
   * The key listing cursors are signed with, as `createCatalogSource` takes it (give the source's, so
   * a restarted server honours them); default the process's random key.
   */
  readonly cursorKey?: string | Uint8Array | undefined;
  /**
   * A resource read adds the source's read parts while its text is shorter than this many code
   * points; default `KNOWLEDGE_RESOURCE_MAX_CHARS`. Beyond it the text ends with a note naming what is
   * missing and the URI of the rest.
   */
  readonly resourceMaxChars?: number | undefined;
}

/**
 * Serve the files of `source` as MCP resources on `server` (before it connects):
 * - `resources/list`: every readable file, the pages first (`pages/**`, depth first), then `index.md`
 *   and the graph files; of a source with versions (its root `list_tree` lists `versions`), the
 *   default version's first, at the URIs above, then each other version's under
 *   `knowledge:///versions/{label}/`, in the source's order, titled with the label; paged with the protocol's `cursor` (signed, bound to the knowledge base and
 *   its revision: a listing paged across a reload is refused with `STALE_CURSOR`); each with
 *   `uri` (`knowledge:///` and the path, each segment percent-encoded), `name` (the path), `title`,
 *   `mimeType` (`text/markdown`; `application/json` for the graph files) and `size` (UTF-8 bytes of
 *   what `resources/read` returns);
 * - `resources/templates/list`: the template `knowledge:///{+path}` for any path `read_file` takes,
 *   and `knowledge:///versions/{version}/{+path}` when there are other versions;
 * - `resources/read`: the whole text `read_file` gives by path (its parts joined), with the file's
 *   `snapshotId`, `fileId` and `revision` in `_meta` (and `version` when the read names one or the
 *   output does; a URI under `knowledge:///versions/{label}/` reads that version) (a page is cited by its `snapshotId`), up to
 *   `resourceMaxChars` code points: a page a person attaches is read whole far beyond the tools' read
 *   limit. A longer text is cut at a part's end and ends with a visible note saying which code points
 *   are missing and the URI of the rest (`?cursor=`), also in `_meta['knowledge-kit/nextUri']`; such a
 *   read has `_meta['knowledge-kit/contentRange']`.
 *
 * Errors are protocol errors: an unknown file, or a version the source lacks (`VERSION_NOT_FOUND`), is
 * `-32002`-style `ResourceNotFoundError` carrying the code and message, a malformed
 * URI or cursor `-32602` naming the fix, anything else `-32603` with the tool's code and message.
 *
 * @param server - an SDK `McpServer`, not yet connected.
 * @param source - the knowledge source, such as `createCatalogSource(catalog)`.
 * @param options - `knowledgeBaseId` and `cursorKey` of the listing cursors, `resourceMaxChars`.
 * @returns `server`, for chaining.
 * @throws {TypeError} for a `resourceMaxChars` that is not a positive safe integer.
 * @example
 * ```ts
 * registerKnowledgeResources(registerKnowledgeTools(server, knowledgeTools(source)), source);
 * ```
 */
export function registerKnowledgeResources(
  server: McpServer,
  source: KnowledgeSource,
  options?: KnowledgeResourcesOptions,
): McpServer {
  const maxChars = options?.resourceMaxChars ?? KNOWLEDGE_RESOURCE_MAX_CHARS;
  if (!Number.isSafeInteger(maxChars) || maxChars < 1)
    throw new TypeError(
      `registerKnowledgeResources: resourceMaxChars is a whole number of code points of at least 1, such as ${KNOWLEDGE_RESOURCE_MAX_CHARS}, not ${String(maxChars)}.`,
    );
  const cursors = walkCursors(options?.knowledgeBaseId ?? '', options?.cursorKey);
  const low = server.server;
  low.registerCapabilities({ resources: {} });
  low.setRequestHandler('resources/list', async (request, ctx) => {
    const signal = ctx.mcpReq.signal;
    const cursor = request.params?.cursor;
    // The revisions now (of every version), against which a cursor is checked: one issued under
    // others is STALE_CURSOR.
    const { revision, others } = await call(() => versionsNow(source, signal));
    let walk: Walk = { phase: 'pages', stack: [{ dir: 'pages', cursor: null }] };
    if (cursor !== undefined) walk = await call(async () => cursors.decode(cursor, revision));
    let phase = walk.phase;
    let version = walk.version;
    const stack = [...walk.stack];
    const files: { path: string; title: string; fileId: string; version?: string }[] = [];
    /** Past the walk's version's files: the next version's pages, or `false` when none is left. */
    const nextPhase = (): boolean => {
      if (phase === 'pages') {
        // The pages are listed; then index.md and the graph files (the root without pages/).
        phase = 'rest';
        stack.push({ dir: '', cursor: null });
        return true;
      }
      const next = others[version === undefined ? 0 : others.indexOf(version) + 1];
      if (next === undefined) return false;
      phase = 'pages';
      version = next;
      stack.push({ dir: 'pages', cursor: null });
      return true;
    };
    while (files.length < LIST_PAGE) {
      if (stack.length === 0 && !nextPhase()) break;
      const frame = stack.pop()!;
      const page = await listed(source, frame, signal, version);
      if (page === undefined) continue;
      if (page.nextCursor !== null) stack.push({ dir: frame.dir, cursor: page.nextCursor });
      const dirs: WalkFrame[] = [];
      for (const item of page.items) {
        if (item.entryType === 'directory') {
          if (!(phase === 'rest' && frame.dir === '' && item.path === 'pages'))
            dirs.push({ dir: item.path, cursor: null });
        }
        // A file listed as unavailable (no version of it loaded cleanly) cannot be read: not a resource.
        else if (item.contentAvailable !== false)
          files.push({
            path: item.path,
            title: item.title,
            fileId: item.fileId,
            ...(version === undefined ? {} : { version }),
          });
      }
      for (let i = dirs.length - 1; i >= 0; i--) stack.push(dirs[i]!);
    }
    // A full page whose walk ended exactly at a version's end: the cursor starts the next part.
    if (stack.length === 0) nextPhase();
    const resources: Resource[] = await Promise.all(
      files.map(async (file) => {
        const size = await sizeOf(source, file.fileId, signal, file.version);
        return {
          uri: knowledgeFileUri(file.path, undefined, file.version),
          name: file.version === undefined ? file.path : `versions/${file.version}/${file.path}`,
          title: file.version === undefined ? file.title : `${file.title} (${file.version})`,
          mimeType: mimeTypeOf(file.path),
          ...(size === undefined ? {} : { size }),
        };
      }),
    );
    return stack.length === 0
      ? { resources }
      : { resources, nextCursor: cursors.encode({ phase, stack, version }, revision) };
  });
  low.setRequestHandler('resources/templates/list', async (_request, ctx) => {
    const { others } = await call(() => versionsNow(source, ctx.mcpReq.signal));
    return {
      resourceTemplates: [
        {
          uriTemplate: KNOWLEDGE_RESOURCE_TEMPLATE,
          name: 'knowledge-file',
          title: 'Knowledge file',
          description: `A file of this knowledge base by its path, as read_file takes it: a page such as knowledge:///pages/guide.md, or knowledge:///index.md.${others.length === 0 ? '' : " These are the default version's files."}`,
          mimeType: KNOWLEDGE_RESOURCE_MIME_TYPE,
        },
        ...(others.length === 0
          ? []
          : [
              {
                uriTemplate: KNOWLEDGE_VERSION_RESOURCE_TEMPLATE,
                name: 'knowledge-version-file',
                title: 'Knowledge file of a version',
                description: `A file of one version of this knowledge base (${others.map((label) => `\`${label}\``).join(', ')}) by its path, such as knowledge:///versions/${others[0]!}/index.md.`,
                mimeType: KNOWLEDGE_RESOURCE_MIME_TYPE,
              },
            ]),
      ],
    };
  });
  low.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const target = knowledgeFilePath(uri);
    if (typeof target === 'string')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, target);
    const signal = ctx.mcpReq.signal;
    const { version } = target;
    const inVersion = version === undefined ? {} : { version };
    const first = await call(
      () =>
        source.readFile(
          {
            path: target.path,
            ...(target.cursor === undefined ? {} : { cursor: target.cursor }),
            ...inVersion,
          } as ReadFileInput,
          { signal },
        ),
      uri,
    );
    // The source's parts, joined while the text is under the resource limit.
    let last = first;
    let text = first.content;
    let chars = codePointCount(text);
    while (typeof last.nextCursor === 'string' && chars < maxChars) {
      const next = last.nextCursor;
      last = await call(
        () => source.readFile({ cursor: next, ...inVersion } as ReadFileInput, { signal }),
        uri,
      );
      text += last.content;
      chars += codePointCount(last.content);
    }
    return readResult(uri, target.path, first, last, text, version);
  });
  return server;
}

/**
 * The `resources/read` result of the parts `first` to `last` of a read, whose texts joined are `text`:
 * when a part is left, the text ends with a note naming the missing code points and the rest's URI.
 */
function readResult(
  uri: string,
  path: string,
  first: ReadFileOutput,
  last: ReadFileOutput,
  text: string,
  version: string | undefined,
): ReadResourceResult {
  const { file } = first;
  const answered = (file as { readonly version?: unknown }).version;
  const named = typeof answered === 'string' ? answered : version;
  const next = last.nextCursor;
  const from = first.file.contentRange;
  const to = last.file.contentRange;
  const range =
    from === undefined || to === undefined
      ? undefined
      : { start: from.start, end: to.end, total: to.total };
  const nextUri = typeof next === 'string' ? knowledgeFileUri(path, next, version) : undefined;
  const note =
    nextUri === undefined || range === undefined
      ? ''
      : `\n\n---\n\n> **Cut here.** This resource holds code points ${range.start} to ${range.end} of ${range.total} of \`${path}\`; code points ${range.end} to ${range.total} are missing. Read them at ${nextUri} (or with read_file and this cursor: ${next}).\n`;
  return {
    contents: [
      {
        uri,
        mimeType: mimeTypeOf(path),
        text: text + note,
        _meta: {
          'knowledge-kit/fileId': file.fileId,
          'knowledge-kit/snapshotId': file.snapshotId,
          'knowledge-kit/revision': file.revision,
          ...(named === undefined ? {} : { 'knowledge-kit/version': named }),
          ...(range === undefined || (range.start === 0 && range.end === range.total)
            ? {}
            : { 'knowledge-kit/contentRange': range }),
          ...(nextUri === undefined ? {} : { 'knowledge-kit/nextUri': nextUri }),
        },
      },
    ],
  };
}

/** A `list_tree` page of a walk's frame; `undefined` for a `pages/` folder that is not there (no pages). */
async function listed(
  source: KnowledgeSource,
  frame: WalkFrame,
  signal: AbortSignal,
  version: string | undefined,
): Promise<Awaited<ReturnType<KnowledgeSource['listTree']>> | undefined> {
  try {
    return await source.listTree(
      {
        parentPath: frame.dir,
        limit: TREE_PAGE,
        ...(frame.cursor ? { cursor: frame.cursor } : {}),
        ...(version === undefined ? {} : { version }),
      } as ListTreeInput,
      { signal },
    );
  } catch (error) {
    if (frame.dir === 'pages' && frame.cursor === null && isKnowledgeToolError(error))
      if (error.code === 'NOT_FOUND' || error.code === 'INVALID_ARGUMENT') return undefined;
    throw asProtocolError(error);
  }
}

/** Code points of `text`: its UTF-16 length less its surrogate pairs. */
function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/**
 * UTF-8 bytes of the file's whole `read_file` content; unknown when it is over the read limit (read
 * in parts) or gone.
 */
async function sizeOf(
  source: KnowledgeSource,
  fileId: string,
  signal: AbortSignal,
  version: string | undefined,
): Promise<number | undefined> {
  try {
    const input = { fileId, whole: true, ...(version === undefined ? {} : { version }) };
    return utf8Length((await source.readFile(input as ReadFileInput, { signal })).content);
  } catch (error) {
    // Too large to read whole, or gone since it was listed (a reload): the size is unknown.
    if (
      isKnowledgeToolError(error) &&
      (error.code === 'CONTENT_TOO_LARGE' || error.code === 'NOT_FOUND')
    )
      return undefined;
    throw asProtocolError(error);
  }
}

/** UTF-8 byte length of `text`, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** A source call whose tool error becomes the protocol error a client shows. */
async function call<T>(work: () => Promise<T>, uri?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      uri !== undefined &&
      isKnowledgeToolError(error) &&
      (error.code === 'NOT_FOUND' || error.code === 'VERSION_NOT_FOUND')
    )
      throw new ResourceNotFoundError(uri, `${error.code}: ${error.message}`);
    throw asProtocolError(error);
  }
}

/** A tool error as the protocol error carrying its code and message; anything else as a fixed `-32603`. */
function asProtocolError(error: unknown): unknown {
  if (error instanceof ProtocolError) return error;
  if (!isKnowledgeToolError(error) || error.code === 'INTERNAL')
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      'The knowledge base failed to answer unexpectedly. Try again; if it persists, report it to its operator.',
    );
  const code =
    error.code === 'INVALID_ARGUMENT' ||
    error.code === 'INVALID_CURSOR' ||
    error.code === 'STALE_CURSOR'
      ? ProtocolErrorCode.InvalidParams
      : ProtocolErrorCode.InternalError;
  const advice = error.code === 'STALE_CURSOR' ? ' List again without a cursor.' : '';
  return new ProtocolError(code, `${error.code}: ${error.message}${advice}`, {
    code: error.code,
    requestId: error.requestId,
  });
}

/**
 * The revision a listing cursor is bound to, and the versions besides the default, from the source's
 * root `list_tree`: a source without versions (no `versions`, or only one) is bound to its revision;
 * one with versions to every version's revision, so a reload of any of them ends the paging.
 */
async function versionsNow(
  source: KnowledgeSource,
  signal: AbortSignal,
): Promise<{ readonly revision: ActiveContentRevision; readonly others: readonly string[] }> {
  const root = await source.listTree({ limit: 1 }, { signal });
  const versions = (root as { readonly versions?: unknown }).versions;
  const listed = Array.isArray(versions)
    ? (versions as readonly Record<string, unknown>[]).filter(
        (entry) =>
          typeof entry === 'object' && entry !== null && typeof entry['version'] === 'string',
      )
    : [];
  const others = listed
    .filter((entry) => entry['default'] !== true)
    .map((entry) => entry['version'] as string);
  return others.length === 0
    ? { revision: root.activeContentRevision, others }
    : {
        revision: JSON.stringify(
          listed.map((entry) => [entry['version'], entry['activeContentRevision']] as const),
        ),
        others,
      };
}
