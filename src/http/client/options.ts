/**
 * The options of `createKnowledgeClient`, checked (every problem one issue of a `KnowledgeError`
 * `INVALID_INPUT`), and what the client's stages read of them.
 *
 * @module
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  nonNegativeInteger,
  timeoutMs as timeoutCheck,
  type OptionCheck,
} from '../../shared/checkOptions.js';
import { isPlainObject } from '../../shared/values.js';
import type { KnowledgeClientOptions } from '../types.js';

/** The API the messages name. */
const API = 'createKnowledgeClient';

/** What the client's stages read: the knowledge base's URL, the `fetch`, the limits. */
export interface ClientConfig {
  /** The knowledge base's URL. */
  readonly base: URL;
  /** Its path, without a trailing `/`. */
  readonly basePath: string;
  /** Its origin and path. */
  readonly baseUrl: string;
  readonly fetch: (request: Request) => Promise<Response>;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryAfterSeconds: number;
  /** `headers`, sent with every request. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The client's settings from `options`, checked.
 *
 * @throws KnowledgeError `INVALID_INPUT` listing every problem.
 */
export function clientConfig(options: KnowledgeClientOptions): ClientConfig {
  const opts = readClientOptions(options);
  const base = new URL(String(opts.baseUrl));
  const basePath = base.pathname.replace(/\/+$/, '');
  return {
    base,
    basePath,
    baseUrl: `${base.origin}${basePath}`,
    fetch: opts.fetch ?? ((request: Request) => globalThis.fetch(request)),
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxRetries: opts.maxRetries ?? 2,
    maxRetryAfterSeconds: opts.maxRetryAfterSeconds ?? 30,
    headers: { ...(opts.headers ?? {}) },
  };
}

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

/** Whether `new Headers(record)` accepts these names and values (no line breaks, no bad characters). */
function validHeaders(record: Record<string, unknown>): boolean {
  try {
    new Headers(record as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** `options` checked: the base URL an http(s) URL without query, fragment or credentials. */
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
