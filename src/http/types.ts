/**
 * Options and results of the read-only HTTP endpoint (`createKnowledgeHandler`), its rate limiter and
 * its client (`createKnowledgeClient`), as `shared/spec/http.md` fixes them.
 *
 * @module
 */
import type {
  KnowledgeToolName,
  JsonValue,
  KnowledgeCallContext,
  KnowledgeSource,
  KnowledgeVersionDiff,
  KnowledgeVersionInfo,
} from '../agent/index.js';

/** A knowledge base the caller may read, with the title `list_knowledge_bases` shows. */
export interface KnowledgeBaseEntry {
  readonly source: KnowledgeSource;
  /** Shown in the knowledge-base list; `null` there when absent. */
  readonly title?: string | undefined;
}

/** The knowledge bases one caller may read, by knowledge-base ID. */
export type KnowledgeBaseGrants =
  | { readonly [knowledgeBaseId: string]: KnowledgeSource | KnowledgeBaseEntry }
  | ReadonlyMap<string, KnowledgeSource | KnowledgeBaseEntry>;

/** What `access` returns for a caller it recognizes. */
export interface KnowledgeAccess {
  readonly knowledgeBases: KnowledgeBaseGrants;
}

/**
 * The operation a request asks for: a tool name, the knowledge-base list, a knowledge base's versions
 * (`{KB}/versions`), the differences between two of them (`{KB}/versions/diff`), or its MCP endpoint.
 */
export type KnowledgeOperation =
  KnowledgeToolName | 'list_knowledge_bases' | 'list_versions' | 'diff_versions' | 'mcp';

/**
 * The answer of `GET {KB}/versions`: every version of the knowledge base, as its root `list_tree`
 * lists them (a knowledge base without versions lists its one version), and the label of the default.
 */
export interface KnowledgeVersionList {
  /** Every version, in the knowledge base's order; exactly one has `default: true`. */
  readonly versions: readonly KnowledgeVersionInfo[];
  /** The label of the version a call that names none reads. */
  readonly default: string;
}

/**
 * What the rate-limit hook is told about one call. The hook is asked once per call: once per REST
 * request, once per member of an MCP message (a batch of 100 is 100 calls).
 */
export interface RateLimitRequestInfo {
  /** `null` for `list_knowledge_bases`. */
  readonly knowledgeBaseId: string | null;
  /**
   * The route's operation; over MCP, the tool's name for `tools/call` of one of the tools, else `mcp`
   * (initialize, lists, resources, pings).
   */
  readonly operation: KnowledgeOperation;
  /**
   * The client's network address, when the server adapter gives it (`knowledge-kit/http/node`
   * does); `null` when it does not. The handler always sets it; absent only in calls made by hand.
   */
  readonly clientAddress?: string | null | undefined;
}

/** The rate-limit hook's answer. */
export type RateLimitDecision =
  { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/** Decides whether a request may run now (may be async). */
export type KnowledgeRateLimit = (
  request: Request,
  info: RateLimitRequestInfo,
) => RateLimitDecision | Promise<RateLimitDecision>;

/** Options of `createMemoryRateLimiter`: one token bucket per key. */
export interface MemoryRateLimiterOptions {
  /** Largest burst: tokens a bucket holds when full; at least 1. */
  readonly capacity: number;
  /** Tokens added per second. */
  readonly refillPerSecond: number;
  /**
   * The bucket a call draws from (an API key, a user ID). Default: the client's address
   * (`info.clientAddress`), or one bucket for all when the adapter gives none. A key taken from
   * credentials the request merely claims (an `Authorization` header not yet checked) gives each
   * forged value a fresh bucket: the handler also limits refused credentials per address (see
   * `rateLimit`).
   */
  readonly key?: ((request: Request, info: RateLimitRequestInfo) => string) | undefined;
  /**
   * Most buckets kept. Past it a new key replaces a least recently used bucket only once that one has
   * refilled; while none has, new keys share one overflow bucket. Default 10,000.
   */
  readonly maxKeys?: number | undefined;
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** CORS for browser agents: off unless given. */
export interface KnowledgeCorsOptions {
  /** Allowed origins: one origin, a list, or `'*'`. */
  readonly origin: string | readonly string[];
  /** Seconds a browser may cache a preflight answer. Default 600. */
  readonly maxAgeSeconds?: number | undefined;
  /** Send `Access-Control-Allow-Credentials: true`, for `access` that reads a session cookie. Default `false`. */
  readonly credentials?: boolean | undefined;
}

/** Request limits of the handler. */
export interface KnowledgeHandlerLimits {
  /** Longest request URL, in characters; over it the answer is 414. Default 32,768. */
  readonly maxUrlLength?: number | undefined;
  /** Longest `query`, in code points; over it the answer is 400. Default 2,000. */
  readonly maxQueryChars?: number | undefined;
  /**
   * Most MCP `subscriptions/listen` streams one client (its network address under
   * `knowledge-kit/http/node`, else its `Authorization` header) may hold open on one knowledge base;
   * one more is refused in-band (JSON-RPC error -32603). Default 16 (the SDK holds 1,024 per knowledge
   * base).
   */
  readonly maxListenStreamsPerClient?: number | undefined;
  /**
   * Most members of an MCP batch (a JSON-RPC array); a larger batch is answered 400 (JSON-RPC
   * -32600) before any member runs. Default 32.
   */
  readonly maxBatchMembers?: number | undefined;
  /**
   * Most bytes of the answer to an MCP batch; past it the answer is dropped and the batch answered
   * 400 (JSON-RPC -32600) saying to send smaller batches. Default 524,288 (512 KiB).
   */
  readonly maxBatchAnswerBytes?: number | undefined;
}

/** Options of `createKnowledgeHandler`. */
export interface KnowledgeHandlerOptions {
  /**
   * The control point: authenticate the request however the app does and return the knowledge bases
   * this caller may read, or `null` (401). May be async.
   */
  readonly access: (
    request: Request,
  ) => KnowledgeAccess | null | undefined | Promise<KnowledgeAccess | null | undefined>;
  /** Where the routes are mounted, such as `/openapi/v2`. Default `''`. */
  readonly basePath?: string | undefined;
  /** Sent as `WWW-Authenticate` with every 401, such as `Bearer realm="knowledge"`. */
  readonly authenticateHeader?: string | undefined;
  /**
   * Decides whether each call may run, before `access`: once per REST request, once per member of an
   * MCP message (`operation` the tool's name for a tool call). With it, a client address whose
   * credentials `access` refused 30 times is refused (429) before `access` runs, regaining one try per
   * second: rotating forged tokens are limited whatever key the hook uses.
   */
  readonly rateLimit?: KnowledgeRateLimit | undefined;
  readonly cors?: KnowledgeCorsOptions | undefined;
  readonly limits?: KnowledgeHandlerLimits | undefined;
  /**
   * Longest request, in milliseconds, from `rateLimit` to the source's answer (at most 2³¹ − 1, and up
   * to 1/50 of it more, since deadlines share timers); over it the answer is 504
   * (`SEARCH_TIMEOUT` for search, `TIMEOUT` otherwise) and the source call's `signal` is aborted. Default 30,000.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Hears every unexpected failure (a throwing `access`, a source's `INTERNAL`), for the app's logs. The
   * caller only gets `500 INTERNAL` with the request ID. It may be async; its own failure, thrown or
   * rejected, is ignored.
   */
  readonly onError?: ((error: unknown, info: { readonly requestId: string }) => void) | undefined;
  /**
   * The MCP Streamable HTTP endpoint at `{basePath}/knowledge-bases/{knowledgeBaseId}/mcp`: one MCP
   * server per knowledge base (the six tools and the files as resources), behind `access` and
   * `rateLimit` like every route (`operation` the tool's name for each `tools/call`, else `mcp`).
   * `{ version }` is the version clients see; `text` what a tool result's text block holds (`compact`,
   * the default, written for a model, or `json`, the `structuredContent` serialised; see
   * `registerKnowledgeTools`); `cursorKey` signs the `resources/list` cursors (give the sources'
   * `cursorKey`, so that a restarted server, or another replica, honours them; default the process's
   * random key). `false` serves no MCP. Default `true`.
   */
  readonly mcp?: boolean | KnowledgeHandlerMcpOptions | undefined;
}

/** The MCP endpoint's options of `createKnowledgeHandler` (`mcp`). */
export interface KnowledgeHandlerMcpOptions {
  /** The server version clients see; default `0.0.0`. */
  readonly version?: string | undefined;
  /** A tool result's text block: `compact` (default) or `json`. */
  readonly text?: 'compact' | 'json' | undefined;
  /** Signs the `resources/list` cursors, as `createCatalogSource` takes it; default the process's. */
  readonly cursorKey?: string | Uint8Array | undefined;
}

/** A Fetch handler: what `createKnowledgeHandler` returns. It never throws. */
export type KnowledgeHandler = (request: Request) => Promise<Response>;

/** Options of `createKnowledgeClient`. */
export interface KnowledgeClientOptions {
  /** The knowledge-base URL, such as `https://api.example.com/openapi/v2/knowledge-bases/handbook`. */
  readonly baseUrl: string | URL;
  /** Sent with every request (the app's own credentials). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Default `globalThis.fetch`. */
  readonly fetch?: ((input: Request) => Promise<Response>) | undefined;
  /** Longest attempt, in milliseconds. Default 10,000. */
  readonly timeoutMs?: number | undefined;
  /** Retries after `RATE_LIMITED`. Default 2. */
  readonly maxRetries?: number | undefined;
  /** Longest `Retry-After` the client waits for; a longer one rejects at once. Default 30. */
  readonly maxRetryAfterSeconds?: number | undefined;
}

/** A `KnowledgeSource` over HTTP, plus `follow` for the `readActions` the server returns. */
export interface KnowledgeClient extends KnowledgeSource {
  /** The knowledge-base URL every request goes under. */
  readonly baseUrl: string;
  /**
   * GET a `readActions` value (a URL path on the same server, under the knowledge base) and resolve
   * to its JSON body; a content route gives `{ file, content }`.
   */
  follow(readAction: string, context?: KnowledgeCallContext): Promise<JsonValue>;
  /** `GET {KB}/versions`: the knowledge base's versions and its default. */
  versions(context?: KnowledgeCallContext): Promise<KnowledgeVersionList>;
  /**
   * `GET {KB}/versions/diff?from=&to=`: the pages and sections added, removed and changed between two
   * versions (`diffVersions` run on the server, one request). Rejects `VERSION_NOT_FOUND` when the
   * knowledge base lacks either.
   */
  diffVersions(
    from: string,
    to: string,
    context?: KnowledgeCallContext,
  ): Promise<KnowledgeVersionDiff>;
}
