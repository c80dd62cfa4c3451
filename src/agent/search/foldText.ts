/**
 * Fold text the way the tokenizer does before scanning: Unicode NFKC, then lower case.
 *
 * @param text - any text.
 * @returns the folded text (its length may differ from the input's).
 */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}
