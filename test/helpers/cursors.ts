/**
 * A cursor changed by hand: its payload's values read back, edited and written again behind the tag
 * it had, as someone tampering with a cursor would (the format is `src/agent/source/cursor.ts`).
 */
import { readCursorText, writeCursorText } from '../../src/agent/source/cursorText.js';
import type { JsonValue } from '../../src/agent/types.js';

/** Characters of a cursor's tag (base64url of 16 bytes). */
const TAG_CHARS = 22;

/**
 * The cursor with its payload changed by `edit`, behind its old tag.
 *
 * @param cursor - a cursor a source issued.
 * @param edit - changes the payload `[version, knowledgeBaseId, revision, tool, params, at, ranking?]`.
 */
export function forgeCursor(cursor: string, edit: (payload: JsonValue[]) => void): string {
  const payload = readCursorText(cursor.slice(TAG_CHARS));
  if (payload === undefined) throw new Error(`Not a cursor: ${cursor}`);
  edit(payload);
  return `${cursor.slice(0, TAG_CHARS)}${writeCursorText(payload)}`;
}
