/**
 * What the stages of the handler share: its settings (`HandlerConfig`) and what Hono's context
 * carries for one request (`HandlerEnv`): the request ID, deadline and URL given to `app.fetch`, and
 * what each stage sets for the next (the operation, the admitted knowledge base).
 *
 * @module
 */
import type { KnowledgeToolErrorCode } from '../../agent/index.js';
import type { KnowledgeToolRegistry } from '../../agent/internals.js';
import type { Deadline } from '../deadline.js';
import type {
  KnowledgeAccess,
  KnowledgeBaseEntry,
  KnowledgeHandlerOptions,
  KnowledgeOperation,
} from '../types.js';

/** The handler's settings, as every stage reads them. */
export interface HandlerConfig {
  /** The options, checked. */
  readonly options: KnowledgeHandlerOptions;
  readonly registry: KnowledgeToolRegistry;
  /** `''` or `/a/b`. */
  readonly basePath: string;
  readonly maxUrlLength: number;
  readonly maxQueryChars: number;
  readonly timeoutMs: number;
  /** Whether `{KB}/mcp` is served. */
  readonly mcp: boolean;
  /** The app's `onError` hears `error`; its own failure is ignored. */
  readonly reportError: (error: unknown, requestId: string) => void;
}

/** What Hono's context carries for one request. */
export interface HandlerEnv {
  readonly Bindings: { readonly requestId: string; readonly deadline: Deadline; readonly url: URL };
  readonly Variables: {
    /** The route's operation (set first on every route). */
    operation: KnowledgeOperation;
    /** The tool error code of a deadline on this route (`TIMEOUT` when unset). */
    timeoutCode: KnowledgeToolErrorCode | undefined;
    /** What `access` granted (set by `admit`). */
    access: KnowledgeAccess;
    /** The knowledge base of the route, when it names one (set by `admit`). */
    entry: KnowledgeBaseEntry;
  };
}

/** The URL path of a knowledge base. */
export function knowledgeBasePath(config: HandlerConfig, knowledgeBaseId: string): string {
  return `${config.basePath}/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}`;
}
