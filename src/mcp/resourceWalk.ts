/**
 * The cursor of `resources/list`: the stack of the depth-first walk over `list_tree`, as base64url
 * JSON. Opaque to clients; a cursor this server did not give is refused.
 *
 * @module
 */

/** One directory still to list, from `cursor` (`null`: from its start). */
export interface WalkFrame {
  readonly dir: string;
  readonly cursor: string | null;
}

/** Longest cursor read: a walk is as deep as the tree, and each frame holds one `list_tree` cursor. */
const MAX_CURSOR_CHARS = 65_536;

/**
 * The cursor of a walk.
 *
 * @param stack - the frames still to visit, the next on top.
 */
export function encodeWalk(stack: readonly WalkFrame[]): string {
  const bytes = new TextEncoder().encode(
    JSON.stringify(stack.map((frame) => [frame.dir, frame.cursor])),
  );
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/**
 * The walk a cursor holds, or `undefined` when it is not one `encodeWalk` made.
 *
 * @param cursor - a client's `cursor`.
 */
export function decodeWalk(cursor: string): WalkFrame[] | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS) return undefined;
  try {
    const binary = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const stack: WalkFrame[] = [];
    for (const frame of value) {
      if (
        !Array.isArray(frame) ||
        frame.length !== 2 ||
        typeof frame[0] !== 'string' ||
        !(typeof frame[1] === 'string' || frame[1] === null)
      )
        return undefined;
      stack.push({ dir: frame[0], cursor: frame[1] });
    }
    return stack;
  } catch {
    return undefined;
  }
}
