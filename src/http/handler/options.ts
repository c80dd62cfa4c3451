/**
 * The options of `createKnowledgeHandler`, read once into plain data and checked: every problem is one
 * issue of a `KnowledgeError` `INVALID_INPUT` naming the option.
 *
 * @module
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import {
  checkOptions,
  func,
  nonNegativeInteger,
  positiveInteger,
  timeoutMs as timeoutCheck,
  type OptionCheck,
} from '../../shared/checkOptions.js';
import { guardInput } from '../../shared/guard.js';
import { cursorKeyProblem } from '../../agent/internals.js';
import { snapshotOptions } from '../../shared/snapshotOptions.js';
import { isPlainObject } from '../../shared/values.js';
import type { KnowledgeHandlerOptions } from '../types.js';

/** The API the messages name. */
export const API = 'createKnowledgeHandler';

const CHECKS: Readonly<Record<keyof KnowledgeHandlerOptions, OptionCheck>> = {
  access: func,
  basePath: (v) =>
    typeof v === 'string' &&
    (v === '' || (v.startsWith('/') && !v.endsWith('/') && !/[?#\s\\]/.test(v)))
      ? undefined
      : "'' or a path that starts with '/' and does not end with '/' (such as '/openapi/v2')",
  // Visible ASCII, spaces and tabs only, trimmed: what every runtime accepts in a header (RFC 9110).
  authenticateHeader: (v) =>
    typeof v === 'string' && /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/.test(v)
      ? undefined
      : 'a header value of visible ASCII characters, spaces and tabs, with none at either end',
  rateLimit: func,
  cors: (v) =>
    isPlainObject(v) &&
    (typeof v['origin'] === 'string' ||
      (Array.isArray(v['origin']) && v['origin'].every((o) => typeof o === 'string')))
      ? undefined
      : "an object { origin } with one origin, a list of origins, or '*'",
  limits: (v) =>
    isPlainObject(v)
      ? undefined
      : 'an object { maxUrlLength?, maxQueryChars?, maxListenStreamsPerClient?, maxBatchMembers?, maxBatchAnswerBytes? }',
  timeoutMs: timeoutCheck,
  onError: func,
  mcp: (v) =>
    typeof v === 'boolean' ||
    (isPlainObject(v) &&
      Object.keys(v).every((key) => key === 'version' || key === 'text' || key === 'cursorKey') &&
      (v['version'] === undefined || (typeof v['version'] === 'string' && v['version'] !== '')) &&
      (v['text'] === undefined || v['text'] === 'compact' || v['text'] === 'json') &&
      (v['cursorKey'] === undefined || cursorKeyProblem(v['cursorKey']) === undefined))
      ? undefined
      : "true, false, or { version?, text?, cursorKey? } with a non-empty version string, text 'compact' or 'json', and a cursorKey of at least 16 bytes",
};

const LIMIT_CHECKS: Readonly<Record<string, OptionCheck>> = {
  maxUrlLength: positiveInteger,
  maxQueryChars: positiveInteger,
  maxListenStreamsPerClient: positiveInteger,
  maxBatchMembers: positiveInteger,
  maxBatchAnswerBytes: positiveInteger,
};
const CORS_CHECKS: Readonly<Record<string, OptionCheck>> = {
  origin: () => undefined,
  maxAgeSeconds: nonNegativeInteger,
  credentials: (v) => (typeof v === 'boolean' ? undefined : 'a boolean'),
};

/**
 * `raw` read once and checked.
 *
 * @throws KnowledgeError `INVALID_INPUT` listing every problem.
 */
export function readHandlerOptions(raw: unknown): KnowledgeHandlerOptions {
  const issues: KnowledgeIssue[] = [];
  // Read once into plain data (`limits` and `cors` too): a getter or Proxy that throws is
  // `INVALID_INPUT` naming the option, and what was checked is what is used.
  const options = snapshotOptions(API, raw);
  if (isPlainObject(options))
    for (const key of ['limits', 'cors'])
      if (isPlainObject(options[key]))
        options[key] = snapshotOptions(API, options[key], ['options', key]);
  const checked = guardInput(API, () => checkOptions(API, options, CHECKS, issues));
  if (options === undefined || (isPlainObject(options) && options['access'] === undefined)) {
    issues.push({
      code: 'INVALID_INPUT',
      path: ['options', 'access'],
      message: `${API}: \`options.access\` is required: a function (request) => { knowledgeBases } | null.`,
    });
  }
  if (isPlainObject(checked['limits']))
    checkNested('limits', checked['limits'], LIMIT_CHECKS, issues);
  if (isPlainObject(checked['cors'])) {
    checkNested('cors', checked['cors'], CORS_CHECKS, issues);
    if (checked['cors']['origin'] === '*' && checked['cors']['credentials'] === true) {
      issues.push({
        code: 'INVALID_INPUT',
        path: ['options', 'cors', 'credentials'],
        message: `${API}: browsers refuse credentials with origin '*'; list the origins that may send them.`,
      });
    }
  }
  if (issues.length > 0) throw new KnowledgeError(issues);
  return checked as unknown as KnowledgeHandlerOptions;
}

function checkNested(
  key: string,
  value: Record<string, unknown>,
  checks: Readonly<Record<string, OptionCheck>>,
  issues: KnowledgeIssue[],
): void {
  const inner: KnowledgeIssue[] = [];
  checkOptions(`${API}: options.${key}`, value, checks, inner);
  for (const issue of inner)
    issues.push({ ...issue, path: ['options', key, ...(issue.path ?? []).slice(1)] });
}
