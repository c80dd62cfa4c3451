/**
 * The cursor of `resources/list`: where the walk over `list_tree` stands (the pages first, then the
 * navigation files; the default version, then each other version), in the knowledge base's own cursor format (`encodeCursor`): signed with the cursor
 * key and bound to the knowledge base and its revision, so a listing paged across a reload is
 * `STALE_CURSOR` and a forged or foreign one `INVALID_CURSOR`.
 *
 * @module
 */
import {
  cursorSigner,
  encodeCursor,
  openScope,
  resumeCall,
  type CallScope,
  type CursorSigner,
} from '../agent/internals.js';
import type { ActiveContentRevision } from '../agent/index.js';

/** One directory still to list, from `cursor` (`null`: from its start). */
export interface WalkFrame {
  readonly dir: string;
  readonly cursor: string | null;
}

/**
 * Where a walk stands: `pages` while `pages/` is walked, `rest` while the other files are (the root
 * without `pages/`); `stack` holds the frames still to visit, the next on top; `version` is the
 * version walked (absent: the default, walked first; then each other version in the knowledge base's
 * order).
 */
export interface Walk {
  readonly phase: 'pages' | 'rest';
  readonly stack: readonly WalkFrame[];
  readonly version?: string | undefined;
}

/** The tool name cursors of the listing carry. */
const LISTING = 'resources/list';

/** Signs and reads listing cursors for one knowledge base. */
export interface WalkCursors {
  /** The cursor of `walk`, issued under `revision`. */
  encode(walk: Walk, revision: ActiveContentRevision): string;
  /**
   * The walk a cursor holds.
   *
   * @throws {KnowledgeToolError} `INVALID_CURSOR` (not one this server issued, or of another knowledge
   *   base), `STALE_CURSOR` (issued under another revision).
   */
  decode(cursor: string, revision: ActiveContentRevision): Walk;
}

/**
 * The listing cursors of `knowledgeBaseId`, signed with `key` (the process's random key without one:
 * such cursors do not outlive the process).
 *
 * @param knowledgeBaseId - bound into every cursor.
 * @param key - the cursor key, as a source takes it.
 */
export function walkCursors(knowledgeBaseId: string, key?: string | Uint8Array): WalkCursors {
  const signer: CursorSigner = cursorSigner(key);
  const scope = (): CallScope =>
    openScope(LISTING, { knowledgeBaseId }, { actionBase: '', knowledgeBaseId });
  return {
    encode: (walk, revision) =>
      encodeCursor(scope(), signer, { revision, params: {} }, [
        walk.phase,
        walk.stack.map((frame) => [frame.dir, frame.cursor]),
        ...(walk.version === undefined ? [] : [walk.version]),
      ]),
    decode: (cursor, revision) =>
      readWalk(resumeCall(scope(), signer, revision, { cursor }, {}, isWalk).at),
  };
}

/** Whether `at` is a walk position as `encode` writes it. */
function isWalk(at: unknown): boolean {
  return (
    Array.isArray(at) &&
    (at.length === 2 || (at.length === 3 && typeof at[2] === 'string')) &&
    (at[0] === 'pages' || at[0] === 'rest') &&
    Array.isArray(at[1]) &&
    at[1].length > 0 &&
    (at[1] as unknown[]).every(
      (frame) =>
        Array.isArray(frame) &&
        frame.length === 2 &&
        typeof frame[0] === 'string' &&
        (typeof frame[1] === 'string' || frame[1] === null),
    )
  );
}

function readWalk(at: unknown): Walk {
  const [phase, frames, version] = at as ['pages' | 'rest', [string, string | null][], string?];
  const stack = frames.map(([dir, cursor]) => ({ dir, cursor }));
  return version === undefined ? { phase, stack } : { phase, stack, version };
}
