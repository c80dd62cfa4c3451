/**
 * Opaque cursors bound to the knowledge base, its revision, the operation and every other parameter
 * (Google AIP-158): a stale one is refused, never silently reinterpreted. A cursor carries the
 * parameters it was issued for, so it continues alone; parameters given beside it must equal them.
 * It is signed (HMAC-SHA256, `cursorKey.ts`): one decoded, changed and encoded again is refused.
 * A model reads and repeats every cursor, so it is short: the parameters left at their defaults are
 * not written, and the payload is text (`cursorText.ts`), not base64.
 */
import stringify from 'fast-json-stable-stringify';
import type { ActiveContentRevision, JsonValue } from '../types.js';
import type { CallScope } from './callScope.js';
import { CURSOR_TAG_BYTES, type CursorSigner } from './cursorKey.js';
import { readCursorText, writeCursorText } from './cursorText.js';
import type { CheckedInput } from './readInput.js';
import { DASH, UNDERSCORE, isAlnum } from '../../markdown/chars.js';

/** What a cursor is bound to. */
export interface CursorBinding {
  readonly revision: ActiveContentRevision;
  /** Every parameter of the call except `cursor`, defaults filled in. */
  readonly params: { readonly [name: string]: JsonValue };
  /** The parameters' defaults: a parameter equal to its default is bound without being written. */
  readonly defaults?: { readonly [name: string]: JsonValue } | undefined;
}

/** A decoded cursor: where the next page starts, and how the listing was ranked when it was issued. */
export interface CursorPosition {
  readonly offset: number;
  /** `''` unless the listing's order depends on optional stages (search: which of them ran). */
  readonly ranking: string;
}

/** A decoded search cursor: the engine's continuation, and which optional stages ran. */
export interface ContinuationPosition {
  readonly continuation: string;
  readonly ranking: string;
}

/** A paged call, resumed: its parameters (the cursor's, when it has one) and where it starts. */
export interface Resumed<P, Position> {
  readonly binding: CursorBinding & { readonly params: P };
  /** `undefined` for a first page. */
  readonly position: Position | undefined;
}

const VERSION = 3;
/** Characters of the tag at the start of a cursor: base64url of `CURSOR_TAG_BYTES` bytes. */
const TAG_CHARS = Math.ceil((CURSOR_TAG_BYTES * 4) / 3);
const RESTART = 'Call it again without `cursor` to start from the first page.';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(cursor: string): Uint8Array | undefined {
  // The alphabet check keeps `atob` from accepting what it would silently skip.
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i);
    const ok = isAlnum(c) || c === DASH || c === UNDERSCORE;
    if (!ok) return undefined;
  }
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Whether two tags are equal, reading every byte whatever differs (no early exit to time). */
function sameTag(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * The cursor of a position (`at`: a listing's offset, a search engine's continuation, a part's place),
 * signed: the base64url of the 16-byte tag, then the payload
 * `version, knowledgeBaseId, revision, tool, params, at[, ranking]` as text (`writeCursorText`), its
 * `params` without those equal to their default and `ranking` left out when empty.
 */
export function encodeCursor(
  scope: CallScope,
  signer: CursorSigner,
  binding: CursorBinding,
  at: JsonValue,
  ranking = '',
): string {
  const params: Record<string, JsonValue> = {};
  const defaults = binding.defaults;
  for (const name in binding.params) {
    if (!Object.hasOwn(binding.params, name)) continue;
    const value = binding.params[name]!;
    const fallback = defaults?.[name];
    if (fallback === undefined || !sameJson(value, fallback)) params[name] = value;
  }
  const fields: JsonValue[] = [
    VERSION,
    scope.knowledgeBaseId,
    binding.revision,
    scope.tool,
    params,
    at,
  ];
  if (ranking !== '') fields.push(ranking);
  const payload = writeCursorText(fields);
  return `${toBase64Url(signer.tag(UTF8.encode(payload)))}${payload}`;
}

/** One encoder for every cursor (`TextEncoder` keeps no state between calls). */
const UTF8 = new TextEncoder();

/**
 * Whether two JSON values write the same (`stringify` equal): at once for the same primitive (a
 * parameter left at its default: `null`, a number, a string), by `stringify` for lists and records.
 */
function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  // Two different primitives never write the same.
  if ((typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null)) return false;
  return stringify(a) === stringify(b);
}

/** The payload of a cursor this source signed, or `undefined`. */
function verified(signer: CursorSigner, cursor: string): unknown[] | undefined {
  if (cursor.length <= TAG_CHARS) return undefined;
  const tag = fromBase64Url(cursor.slice(0, TAG_CHARS));
  if (tag === undefined || tag.length !== CURSOR_TAG_BYTES) return undefined;
  const payload = cursor.slice(TAG_CHARS);
  if (!sameTag(signer.tag(UTF8.encode(payload)), tag)) return undefined;
  return readCursorText(payload);
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A resumed call before its position is typed: the binding, and the cursor's raw position. */
interface RawResume<P> {
  readonly binding: CursorBinding & { readonly params: P };
  readonly at: unknown;
  readonly ranking: string;
}

/**
 * Resume a paged call: without a cursor, its parameters are those given (the rest from `defaults`);
 * with one, the cursor's, after checking its tag, knowledge base, tool and revision, and that every
 * parameter given beside it equals the cursor's.
 *
 * @param scope - the call.
 * @param signer - the source's cursor key.
 * @param revision - the source's `activeContentRevision`.
 * @param args - the checked input (`cursor` included).
 * @param defaults - every parameter the cursor binds, with its default (`null` for none).
 * @param accepts - whether the cursor's position is one this tool issues.
 * @returns the binding, and the cursor's position (`undefined` without a cursor).
 * @throws {KnowledgeToolError} `INVALID_CURSOR` for a cursor that is unreadable, forged, of another
 *   knowledge base or tool, or given with other parameters; `STALE_CURSOR` for one of another revision.
 */
export function resumeCall<P extends { readonly [name: string]: JsonValue }>(
  scope: CallScope,
  signer: CursorSigner,
  revision: ActiveContentRevision,
  args: CheckedInput,
  defaults: P,
  accepts: (at: unknown) => boolean,
): RawResume<P> {
  const names = Object.keys(defaults);
  const cursor = args['cursor'] as string | undefined;
  if (cursor === undefined) {
    const params: Record<string, JsonValue> = {};
    for (const name of names)
      params[name] = (args[name] as JsonValue | undefined) ?? defaults[name]!;
    return { binding: { revision, params: params as P, defaults }, at: undefined, ranking: '' };
  }
  const invalid = (why: string) =>
    scope.fail('INVALID_CURSOR', `\`${scope.tool}\`: the cursor ${why}. ${RESTART}`);
  const parsed = verified(signer, cursor);
  if (parsed?.length === 6) parsed.push('');
  if (
    parsed === undefined ||
    parsed.length !== 7 ||
    parsed[0] !== VERSION ||
    typeof parsed[1] !== 'string' ||
    (typeof parsed[2] !== 'string' && typeof parsed[2] !== 'number') ||
    typeof parsed[3] !== 'string' ||
    !isRecord(parsed[4]) ||
    typeof parsed[6] !== 'string'
  ) {
    throw invalid('is not one this knowledge base issued');
  }
  if (parsed[1] !== scope.knowledgeBaseId) throw invalid('belongs to another knowledge base');
  if (parsed[3] !== scope.tool)
    throw invalid(`was issued by \`${parsed[3] as string}\`, not \`${scope.tool}\``);
  const written = parsed[4];
  if (Object.keys(written).some((name) => !Object.hasOwn(defaults, name)))
    throw invalid('is not one this knowledge base issued');
  // The parameters left at their default were not written.
  const issued: Record<string, JsonValue> = {};
  for (const name of names)
    issued[name] = Object.hasOwn(written, name) ? written[name]! : defaults[name]!;
  for (const name of names) {
    const given = args[name];
    if (given === undefined || stringify(given) === stringify(issued[name])) continue;
    throw invalid(
      `was issued for other parameters (\`${name}\` ${JSON.stringify(issued[name])}, not ${JSON.stringify(given)}); a cursor continues with the parameters it was issued for: give it alone, or with the same parameters`,
    );
  }
  if (parsed[2] !== revision) {
    throw scope.fail(
      'STALE_CURSOR',
      `\`${scope.tool}\`: the knowledge base changed since this cursor was issued (revision ${JSON.stringify(parsed[2])}, now ${JSON.stringify(revision)}). ${RESTART}`,
    );
  }
  if (parsed[5] === undefined || !accepts(parsed[5]))
    throw invalid('is not one this knowledge base issued');
  return {
    binding: { revision, params: issued as P, defaults },
    at: parsed[5],
    ranking: parsed[6] as string,
  };
}

/**
 * `resumeCall` for the tools whose cursor holds one kind of position: `accepts` tells it apart,
 * `position` makes it with the cursor's ranking.
 */
function resumer<Position>(
  accepts: (at: unknown) => boolean,
  position: (at: unknown, ranking: string) => Position,
) {
  return <P extends { readonly [name: string]: JsonValue }>(
    scope: CallScope,
    signer: CursorSigner,
    revision: ActiveContentRevision,
    args: CheckedInput,
    defaults: P,
  ): Resumed<P, Position> => {
    const { binding, at, ranking } = resumeCall(scope, signer, revision, args, defaults, accepts);
    return { binding, position: at === undefined ? undefined : position(at, ranking) };
  };
}

/**
 * Resume a listing (`list_tree`, `read_related`, `expand_graph`): its parameters and the offset its
 * cursor points at (`resumeCall`).
 */
export const resumeListing = resumer(
  (v) => Number.isSafeInteger(v) && (v as number) > 0,
  (at, ranking): CursorPosition => ({ offset: at as number, ranking }),
);

/** Resume a search: its parameters and the engine continuation its cursor holds (`resumeCall`). */
export const resumeSearch = resumer(
  (v) => typeof v === 'string' && v.length > 0,
  (at, ranking): ContinuationPosition => ({ continuation: at as string, ranking }),
);

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
      `\`${scope.tool}\`: the cursor points past the end of the listing. ${RESTART}`,
    );
  }
  if (position.ranking !== ranking) {
    throw scope.fail(
      'STALE_CURSOR',
      `\`${scope.tool}\`: the ranking changed since this cursor was issued (its optional stages were ${position.ranking}, now ${ranking}), so the next page could repeat or skip candidates. ${RESTART}`,
    );
  }
  return position.offset;
}

/**
 * One page of a listing of `total` items: the offset the call's cursor points at (checked), and the
 * cursor of the next page or `null` after the last.
 */
export function pageOf(
  scope: CallScope,
  signer: CursorSigner,
  resumed: Resumed<{ readonly [name: string]: JsonValue }, CursorPosition>,
  total: number,
  limit: number,
  ranking = '',
): { from: number; to: number; nextCursor: string | null } {
  const { position, binding } = resumed;
  const from = position === undefined ? 0 : checkPosition(scope, position, total, ranking);
  return {
    from,
    to: Math.min(total, from + limit),
    nextCursor:
      from + limit < total ? encodeCursor(scope, signer, binding, from + limit, ranking) : null,
  };
}

/**
 * The parameters a cursor says it was issued for, unverified: for a source that must plan what to
 * read before the call checks the cursor (the PostgreSQL store reads one page's row for a `read_file`
 * cursor given alone). The call itself verifies the cursor; a forged one only changes what was read
 * before it is refused.
 *
 * @param cursor - a `cursor` argument, of any type.
 * @returns the cursor's parameters, or `undefined` when it is not a cursor of this format.
 */
export function peekCursorParams(
  cursor: unknown,
): { readonly [name: string]: JsonValue } | undefined {
  if (typeof cursor !== 'string' || cursor.length <= TAG_CHARS) return undefined;
  const parsed = readCursorText(cursor.slice(TAG_CHARS));
  return parsed !== undefined && parsed[0] === VERSION && isRecord(parsed[4])
    ? parsed[4]
    : undefined;
}
