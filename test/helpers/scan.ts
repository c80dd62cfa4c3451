import { type AnchorKind, scanText } from '../../src/parse/scanText.js';

/** The scanner's anchor lines in `text`, in order, as objects. */
export function anchorEvents(
  text: string,
): { kind: AnchorKind; id: string; line: number; column: number }[] {
  const events: { kind: AnchorKind; id: string; line: number; column: number }[] = [];
  scanText(text, (kind, id, line, column) => events.push({ kind, id, line, column }));
  return events;
}
