/**
 * Opaque cursors bound to the knowledge base, its revision, the operation and every other parameter
 * (Google AIP-158): a stale one is refused, never silently reinterpreted.
 */
import stringify from 'fast-json-stable-stringify';
import { digest64 } from '../internal/digest.js';
import type { ActiveContentRevision } from '../types.js';
import type { CallScope } from './callScope.js';

/** What a cursor is bound to. */
export interface CursorBinding {
  readonly revision: ActiveContentRevision;
  /** Every parameter of the call except `cursor`. */
  readonly params: object;
}

/** A decoded cursor: where the next page starts, and how the listing was ranked when it was issued. */
export interface CursorPosition {
  readonly offset: number;
  /** `''` unless the listing's order depends on optional stages (search: which of them ran). */
  readonly ranking: string;
}

const VERSION = 1;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(cursor: string): string | undefined {
  // The alphabet check keeps `atob` from accepting what it would silently skip.
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95;
    if (!ok) return undefined;
  }
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The cursor text of a position (`at`: a listing's offset, or a search engine's continuation). */
function encodeAt(
  scope: CallScope,
  binding: CursorBinding,
  at: number | string,
  ranking: string,
): string {
  return toBase64Url(
    JSON.stringify([
      VERSION,
      scope.knowledgeBaseId,
      binding.revision,
      scope.tool,
      digest64(stringify(binding.params)),
      at,
      ranking,
    ]),
  );
}

/** A cursor for the page that starts at `offset`; `ranking` records which optional ranking stages ran. */
export function encodeCursor(
  scope: CallScope,
  binding: CursorBinding,
  offset: number,
  ranking = '',
): string {
  return encodeAt(scope, binding, offset, ranking);
}

/**
 * A search cursor: the engine's continuation (its own position, opaque here) wrapped with the binding
 * and the optional stages that ran (`ranking`).
 */
export function encodeContinuation(
  scope: CallScope,
  binding: CursorBinding,
  continuation: string,
  ranking: string,
): string {
  return encodeAt(scope, binding, continuation, ranking);
}

/**
 * The position a cursor holds (an offset or a continuation) and its ranking, after checking what it is
 * bound to; `accepts` says which kind of position the caller issues.
 */
function decodeAt(
  scope: CallScope,
  binding: CursorBinding,
  cursor: string,
  accepts: (at: unknown) => boolean,
): { readonly at: unknown; readonly ranking: string } {
  const restart = 'Call it again without `cursor` to start from the first page.';
  const invalid = (why: string) =>
    scope.fail('INVALID_CURSOR', `\`${scope.tool}\`: the cursor ${why}. ${restart}`);
  const text = fromBase64Url(cursor);
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 7 ||
    parsed[0] !== VERSION ||
    typeof parsed[1] !== 'string' ||
    (typeof parsed[2] !== 'string' && typeof parsed[2] !== 'number') ||
    typeof parsed[3] !== 'string' ||
    typeof parsed[4] !== 'string' ||
    !(
      (Number.isSafeInteger(parsed[5]) && (parsed[5] as number) > 0) ||
      (typeof parsed[5] === 'string' && parsed[5].length > 0)
    ) ||
    typeof parsed[6] !== 'string'
  ) {
    throw invalid('is not one this knowledge base issued');
  }
  if (parsed[1] !== scope.knowledgeBaseId) throw invalid('belongs to another knowledge base');
  if (parsed[3] !== scope.tool)
    throw invalid(`was issued by \`${parsed[3] as string}\`, not \`${scope.tool}\``);
  if (parsed[4] !== digest64(stringify(binding.params))) {
    throw invalid(
      'was issued for other parameters; a cursor is valid only with the same parameters as the call that returned it',
    );
  }
  if (parsed[2] !== binding.revision) {
    throw scope.fail(
      'STALE_CURSOR',
      `\`${scope.tool}\`: the knowledge base changed since this cursor was issued (revision ${JSON.stringify(parsed[2])}, now ${JSON.stringify(binding.revision)}). ${restart}`,
    );
  }
  if (!accepts(parsed[5])) throw invalid('is not one this knowledge base issued');
  return { at: parsed[5], ranking: parsed[6] as string };
}

/**
 * The offset a cursor points at, after checking what it is bound to.
 *
 * @throws {KnowledgeToolError} `INVALID_CURSOR` for an unreadable cursor or one of another knowledge
 *   base, operation or parameters; `STALE_CURSOR` for one of another revision of this knowledge base.
 */
export function decodeCursor(
  scope: CallScope,
  binding: CursorBinding,
  cursor: string,
): CursorPosition {
  const { at, ranking } = decodeAt(scope, binding, cursor, (v) => typeof v === 'number');
  return { offset: at as number, ranking };
}

/** A decoded search cursor: the engine's continuation, and which optional stages ran. */
export interface ContinuationPosition {
  readonly continuation: string;
  readonly ranking: string;
}

/**
 * The engine continuation a search cursor holds, after checking what it is bound to.
 *
 * @throws {KnowledgeToolError} as `decodeCursor`.
 */
export function decodeContinuation(
  scope: CallScope,
  binding: CursorBinding,
  cursor: string,
): ContinuationPosition {
  const { at, ranking } = decodeAt(scope, binding, cursor, (v) => typeof v === 'string');
  return { continuation: at as string, ranking };
}

/**
 * Check the page an engine answered for a search cursor: a continuation this source issued for the
 * same revision and parameters always leads to hits, ranked with the same optional stages.
 *
 * @param hits - how many hits the engine answered for the continuation.
 * @param ranking - which optional stages ran for this page.
 * @throws {KnowledgeToolError} `INVALID_CURSOR` when it answered none (past the end, or a position the
 *   engine does not know); `STALE_CURSOR` when the ranking differs.
 */
export function checkContinued(
  scope: CallScope,
  position: ContinuationPosition,
  hits: number,
  ranking: string,
): void {
  checkPosition(scope, { offset: 0, ranking: position.ranking }, hits, ranking);
}

/**
 * Check a decoded position against the listing it pages: a cursor this source issued for the same
 * revision and parameters always points inside it, with the same ranking.
 *
 * @throws {KnowledgeToolError} `INVALID_CURSOR` past the end; `STALE_CURSOR` when the ranking differs
 *   (an embedder or reranker that ran for the first page failed for this one, or the other way round).
 */
export function checkPosition(
  scope: CallScope,
  position: CursorPosition,
  total: number,
  ranking = '',
): number {
  if (position.offset >= total) {
    throw scope.fail(
      'INVALID_CURSOR',
      `\`${scope.tool}\`: the cursor points past the end of the listing. Call it again without \`cursor\` to start from the first page.`,
    );
  }
  if (position.ranking !== ranking) {
    throw scope.fail(
      'STALE_CURSOR',
      `\`${scope.tool}\`: the ranking changed since this cursor was issued (its optional stages were ${position.ranking}, now ${ranking}), so the next page could repeat or skip candidates. Call it again without \`cursor\` to start from the first page.`,
    );
  }
  return position.offset;
}

/** The cursor of the page after `[offset, offset + limit)` of `total` items, or `null` when that was the last. */
export function nextCursorFor(
  scope: CallScope,
  binding: CursorBinding,
  total: number,
  offset: number,
  limit: number,
  ranking = '',
): string | null {
  return offset + limit < total ? encodeCursor(scope, binding, offset + limit, ranking) : null;
}

/**
 * One page of a listing of `total` items: the offset the call's cursor points at (checked), and the
 * cursor of the next page or `null`.
 */
export function pageOf(
  scope: CallScope,
  binding: CursorBinding,
  position: CursorPosition | undefined,
  total: number,
  limit: number,
  ranking = '',
): { from: number; to: number; nextCursor: string | null } {
  const from = position === undefined ? 0 : checkPosition(scope, position, total, ranking);
  return {
    from,
    to: Math.min(total, from + limit),
    nextCursor: nextCursorFor(scope, binding, total, from, limit, ranking),
  };
}
