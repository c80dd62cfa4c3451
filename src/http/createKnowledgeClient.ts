/**
 * `createKnowledgeClient`: a `KnowledgeSource` over the routes of `createKnowledgeHandler`, so the
 * tools, the MCP server and exploration run unchanged against a remote knowledge base.
 *
 * @module
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  nonNegativeInteger,
  timeoutMs as timeoutCheck,
  type OptionCheck,
} from '../internal/checkOptions.js';
import { isPlainObject } from '../internal/values.js';
import {
  KNOWLEDGE_TOOL_ERROR_STATUS,
  type KnowledgeToolErrorCode,
  isKnowledgeToolError,
  KnowledgeToolError,
  type JsonValue,
  type KnowledgeCallContext,
} from '../agent/index.js';
import { newRequestId } from '../internal/requestId.js';
import {
  type ResponseShape,
  type ToolDefinition,
  KNOWLEDGE_TOOLS,
  type KnowledgeToolRegistry,
} from '../agent/internals.js';
import { linkAbort } from './linkAbort.js';
import { pathArgs, queryArgs } from './params.js';
import { requestIdFrom } from './respond.js';
import type { KnowledgeClient, KnowledgeClientOptions } from './types.js';

const API = 'createKnowledgeClient';
const CHECKS: Readonly<Record<keyof KnowledgeClientOptions, OptionCheck>> = {
  baseUrl: (v) => (typeof v === 'string' || v instanceof URL ? undefined : 'a URL string or a URL'),
  headers: (v) =>
    isPlainObject(v) && Object.values(v).every((h) => typeof h === 'string') && validHeaders(v)
      ? undefined
      : 'a record of valid header names to valid header values',
  fetch: func,
  timeoutMs: timeoutCheck,
  maxRetries: nonNegativeInteger,
  // A wait is a timer: at most 2³¹ − 1 ms.
  maxRetryAfterSeconds: (v) =>
    Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 2_147_483
      ? undefined
      : 'an integer from 0 to 2147483 (seconds)',
};

type Query = Readonly<Record<string, unknown>>;

/** `follow` reads any route: its answer need only be a JSON object. */
const FOLLOW_SHAPE: ResponseShape = {};

/**
 * A `KnowledgeSource` over a Knowledge Kit HTTP endpoint (`createKnowledgeHandler`): each method is one
 * `GET` under `baseUrl`. It keeps the server's `requestId`, `code`, `httpStatus` and
 * `retryAfterSeconds` in the `KnowledgeToolError` it rejects with; waits and retries after
 * `RATE_LIMITED` (at most `maxRetries` times, when `Retry-After` ≤ `maxRetryAfterSeconds`); restarts a
 * `STALE_CURSOR` once without the cursor and marks that page `cursorRestarted: true`; and turns a
 * network failure, a timeout or an answer that is not the expected JSON into `TRANSPORT_ERROR`, never
 * an empty result.
 *
 * @param options - `baseUrl` (the knowledge-base URL), `headers`, `fetch`, `timeoutMs` (10,000),
 * `maxRetries` (2), `maxRetryAfterSeconds` (30).
 * @returns the client: a `KnowledgeSource` with `baseUrl` and `follow(readAction)`.
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options`.
 * @example
 * ```ts
 * const remote = createKnowledgeClient({
 *   baseUrl: 'https://api.example.com/openapi/v2/knowledge-bases/handbook',
 *   headers: { authorization: `Bearer ${token}` }, // the app's own credentials
 * });
 * const tools = knowledgeTools(remote); // the same six tools, served remotely
 * const hits = await remote.searchFiles({ query: 'How are renewal notices sent?' });
 * const page = await remote.follow(hits.items[0].readActions.fileContentById);
 * ```
 */
export function createKnowledgeClient(options: KnowledgeClientOptions): KnowledgeClient {
  return registryClient(KNOWLEDGE_TOOLS, options);
}

/**
 * `createKnowledgeClient` over any registry (internal: the six tools' registry is the default): one
 * method per tool, each a `GET` on the first of its routes whose path arguments are all given.
 *
 * @param registry - the tools whose methods the client has.
 * @param options - as `createKnowledgeClient` takes them.
 * @returns the client.
 * @throws KnowledgeError `INVALID_INPUT` listing every problem with `options`.
 */
export function registryClient(
  registry: KnowledgeToolRegistry,
  options: KnowledgeClientOptions,
): KnowledgeClient {
  const opts = readClientOptions(options);
  const base = new URL(String(opts.baseUrl));
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseUrl = `${base.origin}${basePath}`;
  const doFetch = opts.fetch ?? ((request: Request) => globalThis.fetch(request));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRetries = opts.maxRetries ?? 2;
  const maxRetryAfterSeconds = opts.maxRetryAfterSeconds ?? 30;
  const fixedHeaders = { ...(opts.headers ?? {}) };

  /** One operation: `GET url`, with retries after `RATE_LIMITED`. */
  async function get(
    operation: string,
    shape: ResponseShape,
    url: string,
    context: KnowledgeCallContext | undefined,
  ): Promise<Record<string, unknown>> {
    const signal = context?.signal;
    const callerId =
      typeof context?.requestId === 'string' && context.requestId !== ''
        ? requestIdFrom(context.requestId)
        : undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return await attemptOnce(operation, shape, url, signal, callerId);
      } catch (error) {
        if (
          isKnowledgeToolError(error) &&
          error.code === 'RATE_LIMITED' &&
          attempt < maxRetries &&
          error.retryAfterSeconds !== undefined &&
          error.retryAfterSeconds <= maxRetryAfterSeconds
        ) {
          await sleep(error.retryAfterSeconds * 1000, signal, operation, error.requestId);
          continue;
        }
        throw error;
      }
    }
  }

  async function attemptOnce(
    operation: string,
    shape: ResponseShape,
    url: string,
    signal: AbortSignal | undefined,
    callerId: string | undefined,
  ): Promise<Record<string, unknown>> {
    const requestId = callerId ?? newRequestId();
    if (signal?.aborted)
      throw new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted before it was sent.`, {
        requestId,
        cause: signal.reason,
      });
    const headers = new Headers(fixedHeaders);
    headers.set('Accept', 'application/json');
    headers.set('X-Request-Id', requestId);
    // One controller for the attempt: the timeout and the caller's signal both abort it, and its
    // abort ends the race too, so a `fetch` that ignores its signal cannot hang the call.
    const timer = new AbortController();
    let timedOut = false;
    const expired = new Promise<never>((_, reject) => {
      timer.signal.addEventListener(
        'abort',
        () => reject(new Error(timedOut ? `no answer within ${timeoutMs} ms` : 'aborted')),
        { once: true },
      );
    });
    expired.catch(() => undefined);
    const timeout = setTimeout(() => {
      timedOut = true;
      timer.abort();
    }, timeoutMs);
    const unlink = linkAbort(timer, signal);
    let status: number;
    let text: string;
    let answerId: string | null;
    let retryHeader: string | null;
    try {
      const response = await Promise.race([
        doFetch(new Request(url, { method: 'GET', headers, signal: timer.signal })),
        expired,
      ]);
      status = response.status;
      answerId = response.headers.get('x-request-id');
      retryHeader = response.headers.get('retry-after');
      text = await Promise.race([response.text(), expired]);
    } catch (cause) {
      if (signal?.aborted)
        throw new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted.`, {
          requestId,
          cause: signal.reason,
        });
      const why = timedOut
        ? `no answer within ${timeoutMs} ms`
        : cause instanceof Error
          ? cause.message
          : String(cause);
      throw transport(operation, `could not reach ${base.origin} (${why})`, requestId, cause);
    } finally {
      clearTimeout(timeout);
      unlink();
    }
    const id = answerId !== null && requestIdFrom(answerId) === answerId ? answerId : requestId;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw transport(
        operation,
        `the server answered ${status} with a body that is not JSON`,
        id,
        cause,
      );
    }
    if (status === 200) {
      if (!isPlainObject(body) || !hasShape(body, shape)) {
        throw transport(
          operation,
          `the server answered 200 with JSON that is not a \`${operation}\` result`,
          id,
        );
      }
      return body;
    }
    throw fromErrorBody(operation, status, body, id, retryHeader);
  }

  /** Paged operations: a stale cursor is restarted once, without it, and the page says so. */
  async function paged(
    tool: ToolDefinition,
    route: string,
    query: Query,
    context: KnowledgeCallContext | undefined,
  ): Promise<Record<string, unknown>> {
    const { name, client } = tool;
    try {
      return await get(name, client.shape, urlOf(route, query), context);
    } catch (error) {
      if (
        !isKnowledgeToolError(error) ||
        error.code !== 'STALE_CURSOR' ||
        query['cursor'] === undefined ||
        query['cursor'] === null
      )
        throw error;
      let restarted;
      try {
        restarted = await get(
          name,
          client.shape,
          urlOf(route, { ...query, cursor: undefined }),
          context,
        );
      } catch (restartError) {
        // A cursor given alone carried the parameters: without it the call is incomplete, so the
        // caller hears why the cursor failed, not that a parameter is missing.
        throw isKnowledgeToolError(restartError) && restartError.code === 'INVALID_ARGUMENT'
          ? error
          : restartError;
      }
      return { ...restarted, cursorRestarted: true };
    }
  }

  function urlOf(route: string, query: Query): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      params.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const search = params.toString();
    return `${baseUrl}${route}${search === '' ? '' : `?${search}`}`;
  }

  /** A path argument (a file ID), encoded for its URL segment, or `INVALID_ARGUMENT`. */
  const segment = (value: unknown, name: string, operation: string): string => {
    if (typeof value !== 'string' || value === '')
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`${operation}\` needs \`${name}\`: a non-empty string.`,
      );
    if (value === '.' || value === '..') {
      // URLs remove `.` and `..` segments, encoded or not: the request would reach another route.
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`${operation}\`: the file ID ${JSON.stringify(value)} cannot travel in a URL path. Read the file by \`path\` instead.`,
      );
    }
    return encodeURIComponent(value);
  };

  /** One tool's method: check the input, pick the route, fill its path and query, and `GET` it. */
  const method =
    (tool: ToolDefinition) =>
    async (input: unknown, context?: KnowledgeCallContext): Promise<Record<string, unknown>> => {
      const i = inputOf(tool, input);
      const problem = tool.client.check?.(i);
      if (problem !== undefined) throw new KnowledgeToolError('INVALID_ARGUMENT', problem);
      const given = (name: string) => i[name] !== undefined && i[name] !== null;
      const routes = tool.http.routes;
      const route = routes.find((r) => pathArgs(r).every(given)) ?? routes[routes.length - 1]!;
      let path = route.path;
      for (const name of pathArgs(route)) {
        const encoded = segment(i[name], name, tool.name);
        path = path.replace(`:${name}`, () => encoded);
      }
      const query: Record<string, unknown> = {};
      for (const name of queryArgs(tool, route)) query[name] = i[name];
      return tool.paged
        ? paged(tool, path, query, context)
        : get(tool.name, tool.client.shape, urlOf(path, query), context);
    };

  const client: Record<string, unknown> = { baseUrl };
  for (const tool of registry) client[tool.method] = method(tool);
  client['follow'] = async (readAction: unknown, context?: KnowledgeCallContext) => {
    const url = followUrl(readAction);
    return (await get('follow', FOLLOW_SHAPE, url, context)) as JsonValue;
  };

  /** A `readActions` value as a URL on this knowledge base, or `INVALID_ARGUMENT`. */
  function followUrl(readAction: unknown): string {
    if (typeof readAction !== 'string' || readAction === '') {
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        '`follow` needs a `readActions` value: a URL path such as `/files/…/content`.',
      );
    }
    let target: URL;
    try {
      target = new URL(readAction, base.origin);
    } catch {
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`follow\`: ${JSON.stringify(readAction.slice(0, 200))} is not a URL path.`,
      );
    }
    // After URL parsing, so `..`, `%2e%2e` and backslashes are already resolved.
    if (
      target.origin !== base.origin ||
      target.username !== '' ||
      target.password !== '' ||
      !target.pathname.startsWith(`${basePath}/`)
    ) {
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`follow\` only reads paths under ${basePath}/ on ${base.origin}, as this server's readActions give them; ${JSON.stringify(readAction.slice(0, 200))} is not one.`,
      );
    }
    target.hash = '';
    return target.href;
  }

  return Object.freeze(client) as unknown as KnowledgeClient;
}

/** Whether `new Headers(record)` accepts these names and values (no line breaks, no bad characters). */
function validHeaders(record: Record<string, unknown>): boolean {
  try {
    new Headers(record as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/**
 * A tool's input as a record, refusing what the source refuses before any request: an input that is
 * not an object, and arguments the tool does not take (they would be silently dropped from the URL).
 */
function inputOf(
  tool: ToolDefinition,
  input: unknown,
): Readonly<Record<string, JsonValue | undefined>> {
  if ((input === undefined || input === null) && tool.inputOptional) return {};
  const known = Object.keys(tool.args);
  if (!isPlainObject(input))
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`${tool.name}\` takes an object of arguments: ${known.map((k) => `\`${k}\``).join(', ')}.`,
    );
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`${tool.name}\` has no argument \`${key}\`. Its arguments: ${known.map((k) => `\`${k}\``).join(', ')}.`,
      );
    }
  }
  return input as Readonly<Record<string, JsonValue | undefined>>;
}

function hasShape(body: Record<string, unknown>, shape: ResponseShape): boolean {
  for (const [key, type] of Object.entries(shape)) {
    const value = body[key];
    if (
      type === 'array'
        ? !Array.isArray(value)
        : type === 'object'
          ? !isPlainObject(value)
          : typeof value !== 'string'
    )
      return false;
  }
  return true;
}

/** The server's error, as it sent it; an answer not in the error shape is a transport failure. */
function fromErrorBody(
  operation: string,
  status: number,
  body: unknown,
  requestId: string,
  retryHeader: string | null,
): KnowledgeToolError {
  const error = isPlainObject(body) ? body['error'] : undefined;
  if (!isPlainObject(error))
    return transport(operation, `the server answered ${status} without the error shape`, requestId);
  const code = error['code'];
  const message = error['message'];
  if (
    typeof code !== 'string' ||
    !Object.hasOwn(KNOWLEDGE_TOOL_ERROR_STATUS, code) ||
    typeof message !== 'string' ||
    status < 400 ||
    status > 599
  ) {
    return transport(
      operation,
      `the server answered ${status} with an error this client does not know`,
      requestId,
    );
  }
  // The body's wait, else the `Retry-After` header's (whole seconds; an HTTP date is not used).
  const retry =
    error['retryAfterSeconds'] ??
    (retryHeader !== null && /^\d{1,10}$/.test(retryHeader.trim())
      ? Number(retryHeader.trim())
      : undefined);
  const serverId =
    isPlainObject(body) &&
    typeof body['requestId'] === 'string' &&
    requestIdFrom(body['requestId']) === body['requestId']
      ? body['requestId']
      : requestId;
  return new KnowledgeToolError(code as KnowledgeToolErrorCode, message, {
    requestId: serverId,
    httpStatus: status,
    retryAfterSeconds:
      typeof retry === 'number' && Number.isFinite(retry) && retry >= 0 ? retry : undefined,
  });
}

function transport(
  operation: string,
  why: string,
  requestId: string,
  cause?: unknown,
): KnowledgeToolError {
  return new KnowledgeToolError(
    'TRANSPORT_ERROR',
    `\`${operation}\` failed: ${why}. Try again later; the knowledge base itself may be fine.`,
    {
      requestId,
      cause,
    },
  );
}

function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  operation: string,
  requestId: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(
        new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted while waiting to retry.`, {
          requestId,
          cause: signal.reason,
        }),
      );
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(
        new KnowledgeToolError('TIMEOUT', `\`${operation}\` was aborted while waiting to retry.`, {
          requestId,
          cause: signal?.reason,
        }),
      );
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function readClientOptions(options: unknown): KnowledgeClientOptions {
  const issues: KnowledgeIssue[] = [];
  const checked = checkOptions(API, options, CHECKS, issues);
  const baseUrl = checked['baseUrl'];
  if (baseUrl === undefined) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'baseUrl'],
      message: `${API}: \`options.baseUrl\` is required: the knowledge-base URL.`,
    });
  } else if (typeof baseUrl === 'string' || baseUrl instanceof URL) {
    let url: URL | undefined;
    try {
      url = new URL(String(baseUrl));
    } catch {
      url = undefined;
    }
    if (
      url === undefined ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.search !== '' ||
      url.hash !== '' ||
      url.username !== '' ||
      url.password !== ''
    ) {
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', 'baseUrl'],
        message: `${API}: \`options.baseUrl\` must be an http(s) URL with no query, fragment or credentials, such as https://api.example.com/knowledge-bases/handbook (credentials go in \`headers\`).`,
      });
    }
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  return checked as unknown as KnowledgeClientOptions;
}
