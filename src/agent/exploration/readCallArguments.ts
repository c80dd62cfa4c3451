/**
 * The arguments of `search` and `read` as the session needs them: the input passed to the source as
 * given (so the source's own checks see every field), and the keys that tell a search's continuation
 * and a repeated read. Only what the session interprets is checked here; the source checks the rest.
 */
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import type { KnowledgeCallContext } from '../types.js';
import type { ReadFileInput, ReadSelection } from '../tools/readFile/types.js';
import type { SearchFilesInput } from '../tools/searchFiles/types.js';
import { isPlainObject, show } from './values.js';

/** A search call, ready for the source. */
export interface SearchCall {
  readonly input: SearchFilesInput;
  /** The query, trimmed. */
  readonly query: string;
  /** The query, trimmed, and every parameter but `cursor` with its default: equal keys page one search. */
  readonly paramsKey: string;
  readonly cursor: unknown;
}

/** A read call, ready for the source. */
export interface ReadCall {
  readonly input: ReadFileInput;
  readonly fileId: string | undefined;
  readonly path: string | undefined;
  /** The requested selection (`document`, or mode and section IDs); `null` for a malformed read (never answered from an earlier one). */
  readonly selectionKey: string | null;
  readonly maxChars: number | undefined;
}

const fail = (message: string, context: KnowledgeCallContext | undefined): KnowledgeToolError =>
  new KnowledgeToolError('INVALID_ARGUMENT', message, {
    requestId:
      typeof context?.requestId === 'string' && context.requestId !== ''
        ? context.requestId
        : undefined,
  });

const absent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** A parameter for a key: JSON for plain values, the default when absent, a marker otherwise. */
function keyPart(value: unknown, fallback: string | number | boolean): string {
  if (absent(value)) return JSON.stringify(fallback);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? JSON.stringify(value)
    : `?${typeof value}`;
}

/**
 * Check the arguments of `session.search`.
 *
 * @param question - the session's trimmed question, used when `query` is absent.
 * @throws KnowledgeToolError `INVALID_ARGUMENT` for a query that is not a string, options that are not an object or hold `query`.
 */
export function readSearchCall(
  question: string,
  query: unknown,
  options: unknown,
  context: KnowledgeCallContext | undefined,
): SearchCall {
  if (!absent(query) && typeof query !== 'string')
    throw fail(`\`search\`: \`query\` must be a string or omitted, not ${show(query)}.`, context);
  if (!absent(options) && !isPlainObject(options))
    throw fail(`\`search\`: the options must be an object, not ${show(options)}.`, context);
  const rest: Record<string, unknown> = absent(options) ? {} : options;
  if (Object.hasOwn(rest, 'query'))
    throw fail('`search`: pass the query as the first argument, not in the options.', context);
  const text = absent(query) ? question : query;
  const trimmed = text.trim();
  const paramsKey = [
    JSON.stringify(trimmed),
    keyPart(rest['mode'], 'hybrid'),
    keyPart(rest['graphDepth'], 1),
    keyPart(rest['graphFanout'], 10),
    keyPart(rest['rerank'], false),
    keyPart(rest['limit'], 10),
  ].join(',');
  return {
    input: { ...rest, query: text } as SearchFilesInput,
    query: trimmed,
    paramsKey,
    cursor: rest['cursor'],
  };
}

/** The key of a selection as a read result reports it; navigation files (`null`) read as `document`. */
export function selectionKeyOf(selection: ReadSelection | null): string {
  return selection === null || selection.mode === 'document'
    ? 'document'
    : `${selection.mode}:${JSON.stringify(selection.sectionIds)}`;
}

const READ_OPTION_KEYS = ['sectionIds', 'heading', 'mode', 'maxChars'];

/** The key of a heading read: a page read of its own, apart from the whole page's. */
export function headingKeyOf(id: string): string {
  return `heading:${JSON.stringify(id)}`;
}
const TARGET_KEYS = ['fileId', 'path'];

/**
 * The requested selection's key, or `null` unless every field is well-formed by the source's rules
 * (known keys, non-empty IDs, `mode` only with `sectionIds`, `heading` alone, `maxChars` a non-negative integer): a
 * malformed read must reach the source and fail there, never be answered from an earlier result.
 */
function requestedSelectionKey(
  target: Record<string, unknown>,
  options: Record<string, unknown>,
): string | null {
  if (!Object.keys(target).every((key) => TARGET_KEYS.includes(key))) return null;
  if (!Object.keys(options).every((key) => READ_OPTION_KEYS.includes(key))) return null;
  if (target['fileId'] === '' || target['path'] === '') return null;
  const { sectionIds, heading, mode, maxChars } = options;
  if (
    !absent(maxChars) &&
    !(typeof maxChars === 'number' && Number.isSafeInteger(maxChars) && maxChars >= 0)
  )
    return null;
  if (!absent(heading)) {
    if (typeof heading !== 'string' || heading === '' || !absent(sectionIds) || !absent(mode))
      return null;
    return headingKeyOf(heading);
  }
  if (absent(sectionIds)) return absent(mode) ? 'document' : null;
  if (
    !Array.isArray(sectionIds) ||
    sectionIds.length === 0 ||
    !sectionIds.every((id) => typeof id === 'string' && id !== '')
  )
    return null;
  const m = absent(mode) ? 'subtree' : mode;
  return m === 'self' || m === 'subtree' ? `${m}:${JSON.stringify(sectionIds)}` : null;
}

/**
 * Check the arguments of `session.read`.
 *
 * @throws KnowledgeToolError `INVALID_ARGUMENT` unless the target is an object naming exactly one of a string `fileId` and a string `path`.
 */
export function readReadCall(
  target: unknown,
  options: unknown,
  context: KnowledgeCallContext | undefined,
): ReadCall {
  if (!isPlainObject(target))
    throw fail(`\`read\` takes a target { fileId } or { path }, not ${show(target)}.`, context);
  if (!absent(options) && !isPlainObject(options))
    throw fail(`\`read\`: the options must be an object, not ${show(options)}.`, context);
  const rest: Record<string, unknown> = absent(options) ? {} : options;
  if (Object.hasOwn(rest, 'fileId') || Object.hasOwn(rest, 'path')) {
    throw fail(
      '`read`: name the file in the target ({ fileId } or { path }), not in the options.',
      context,
    );
  }
  const fileId = target['fileId'];
  const path = target['path'];
  if (absent(fileId) === absent(path))
    throw fail('`read` needs exactly one of `fileId` and `path`.', context);
  if (!absent(fileId) && typeof fileId !== 'string')
    throw fail(`\`read\`: \`fileId\` must be a string, not ${show(fileId)}.`, context);
  if (!absent(path) && typeof path !== 'string')
    throw fail(`\`read\`: \`path\` must be a string, not ${show(path)}.`, context);
  const maxChars = rest['maxChars'];
  return {
    input: { ...target, ...rest } as ReadFileInput,
    fileId: absent(fileId) ? undefined : fileId,
    path: absent(path) ? undefined : path,
    selectionKey: requestedSelectionKey(target, rest),
    maxChars: typeof maxChars === 'number' ? maxChars : undefined,
  };
}
