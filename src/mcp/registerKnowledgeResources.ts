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
import { isKnowledgeToolError, type KnowledgeSource, type ReadFileOutput } from '../agent/index.js';
import { knowledgeFilePath, knowledgeFileUri } from './resourceUri.js';
import { decodeWalk, encodeWalk, type WalkFrame } from './resourceWalk.js';

/** The MIME type of pages and `index.md`; the graph files (`_graph/**.json`) are `application/json`. */
export const KNOWLEDGE_RESOURCE_MIME_TYPE = 'text/markdown';

/** The MIME type of a file by its path. */
function mimeTypeOf(path: string): string {
  return path.endsWith('.json') ? 'application/json' : KNOWLEDGE_RESOURCE_MIME_TYPE;
}

/** The resource template of file paths: `knowledge:///{+path}`, such as `knowledge:///pages/guide.md`. */
export const KNOWLEDGE_RESOURCE_TEMPLATE = 'knowledge:///{+path}';

/** `list_tree` items asked per step of the listing walk (its largest page). */
const TREE_PAGE = 200;
/** A `resources/list` page stops growing at this many resources (one tree page may overshoot it). */
const LIST_PAGE = 50;

/**
 * Serve the files of `source` as MCP resources on `server` (before it connects):
 * - `resources/list`: every readable file, depth first, paged with the protocol's `cursor`; each with
 *   `uri` (`knowledge:///` and the path, each segment percent-encoded), `name` (the path), `title`,
 *   `mimeType` (`text/markdown`; `application/json` for the graph files) and `size` (UTF-8 bytes of
 *   what `resources/read` returns);
 * - `resources/templates/list`: the template `knowledge:///{+path}` for any path `read_file` takes;
 * - `resources/read`: the same text as `read_file` by path, with the file's `snapshotId`, `fileId`
 *   and `revision` in `_meta` (a page is cited by its `snapshotId`). A file over the read limit is
 *   read in parts as `read_file` reads it: a part has `_meta['knowledge-kit/contentRange']`, and one
 *   with a next part names that part's URI (`?cursor=`) in `_meta['knowledge-kit/nextUri']`.
 *
 * Errors are protocol errors: an unknown file is `-32002`-style `ResourceNotFoundError`, a malformed
 * URI or cursor `-32602` naming the fix, anything else `-32603` with the tool's code and message.
 *
 * @param server - an SDK `McpServer`, not yet connected.
 * @param source - the knowledge source, such as `createCatalogSource(catalog)`.
 * @returns `server`, for chaining.
 * @example
 * ```ts
 * registerKnowledgeResources(registerKnowledgeTools(server, knowledgeTools(source)), source);
 * ```
 */
export function registerKnowledgeResources(server: McpServer, source: KnowledgeSource): McpServer {
  const low = server.server;
  low.registerCapabilities({ resources: {} });
  low.setRequestHandler('resources/list', async (request, ctx) => {
    const cursor = request.params?.cursor;
    const stack = cursor === undefined ? [{ dir: '', cursor: null }] : readCursor(cursor);
    const signal = ctx.mcpReq.signal;
    const files: { path: string; title: string; fileId: string }[] = [];
    while (stack.length > 0 && files.length < LIST_PAGE) {
      const frame = stack.pop()!;
      const page = await call(() =>
        source.listTree(
          {
            parentPath: frame.dir,
            limit: TREE_PAGE,
            ...(frame.cursor ? { cursor: frame.cursor } : {}),
          },
          { signal },
        ),
      );
      if (page.nextCursor !== null) stack.push({ dir: frame.dir, cursor: page.nextCursor });
      const dirs: WalkFrame[] = [];
      for (const item of page.items) {
        if (item.entryType === 'directory') dirs.push({ dir: item.path, cursor: null });
        // A file listed as unavailable (no version of it loaded cleanly) cannot be read: not a resource.
        else if (item.contentAvailable !== false)
          files.push({ path: item.path, title: item.title, fileId: item.fileId });
      }
      for (let i = dirs.length - 1; i >= 0; i--) stack.push(dirs[i]!);
    }
    const resources: Resource[] = await Promise.all(
      files.map(async (file) => {
        const size = await sizeOf(source, file.fileId, signal);
        return {
          uri: knowledgeFileUri(file.path),
          name: file.path,
          title: file.title,
          mimeType: mimeTypeOf(file.path),
          ...(size === undefined ? {} : { size }),
        };
      }),
    );
    return stack.length === 0 ? { resources } : { resources, nextCursor: encodeWalk(stack) };
  });
  low.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: [
      {
        uriTemplate: KNOWLEDGE_RESOURCE_TEMPLATE,
        name: 'knowledge-file',
        title: 'Knowledge file',
        description:
          'A file of this knowledge base by its path, as read_file takes it: a page such as knowledge:///pages/guide.md, or knowledge:///index.md.',
        mimeType: KNOWLEDGE_RESOURCE_MIME_TYPE,
      },
    ],
  }));
  low.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const target = knowledgeFilePath(uri);
    if (typeof target === 'string')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, target);
    const output = await call(
      () =>
        source.readFile(
          { path: target.path, ...(target.cursor === undefined ? {} : { cursor: target.cursor }) },
          { signal: ctx.mcpReq.signal },
        ),
      uri,
    );
    return readResult(uri, target.path, output);
  });
  return server;
}

/** The `resources/read` result of a `read_file` output. */
function readResult(uri: string, path: string, output: ReadFileOutput): ReadResourceResult {
  const { file } = output;
  const next = output.nextCursor;
  return {
    contents: [
      {
        uri,
        mimeType: mimeTypeOf(path),
        text: output.content,
        _meta: {
          'knowledge-kit/fileId': file.fileId,
          'knowledge-kit/snapshotId': file.snapshotId,
          'knowledge-kit/revision': file.revision,
          ...(file.contentRange === undefined
            ? {}
            : { 'knowledge-kit/contentRange': { ...file.contentRange } }),
          ...(typeof next === 'string'
            ? { 'knowledge-kit/nextUri': knowledgeFileUri(path, next) }
            : {}),
        },
      },
    ],
  };
}

/**
 * UTF-8 bytes of the file's whole `read_file` content; unknown when it is over the read limit (read
 * in parts) or gone.
 */
async function sizeOf(
  source: KnowledgeSource,
  fileId: string,
  signal: AbortSignal,
): Promise<number | undefined> {
  try {
    return utf8Length((await source.readFile({ fileId, whole: true }, { signal })).content);
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

function readCursor(cursor: string): WalkFrame[] {
  const stack = decodeWalk(cursor);
  if (stack === undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'resources/list: this cursor is not a nextCursor this server gave. List again without a cursor.',
    );
  return stack;
}

/** A source call whose tool error becomes the protocol error a client shows. */
async function call<T>(work: () => Promise<T>, uri?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uri !== undefined && isKnowledgeToolError(error) && error.code === 'NOT_FOUND')
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
