/**
 * Explains a near-miss anchor line: what is wrong, the exact form expected, and — when the intent is
 * clear — the kind and ID the author meant, so the parser can keep pairing anchors after it and report
 * later problems instead of a cascade. Runs only on error paths.
 */
import { CLOSE, OPEN, isIdCharCode } from './scanText.js';

export interface MalformedAnchor {
  /** `OPEN` or `CLOSE` when the intent is clear, else 0. */
  readonly kind: 0 | typeof OPEN | typeof CLOSE;
  /** The ID the author meant, or ''. */
  readonly id: string;
  /** What is wrong, as a clause. */
  readonly reason: string;
  /** The exact line expected. */
  readonly expected: string;
}

const isBlank = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';

/** Explain the near-miss `line` (the whole line, without its line ending). */
export function explainMalformed(line: string): MalformedAnchor {
  let i = 0;
  while (isBlank(line[i])) i++;
  const indent = i;
  i += 4; // `<!--`
  while (isBlank(line[i])) i++;
  let kind: typeof OPEN | typeof CLOSE = OPEN;
  if (line[i] === '/') {
    kind = CLOSE;
    i++;
    while (isBlank(line[i])) i++;
  }
  const slash = kind === CLOSE ? '/' : '';
  let j = i + 13;
  while (isBlank(line[j])) j++;
  if (line.slice(i, i + 13).toLowerCase() !== 'agent-section' || line[j] !== ':') {
    return {
      kind: 0,
      id: '',
      reason: 'it mentions `agent-section` but is not an anchor',
      expected: '<!-- agent-section:ID -->',
    };
  }
  const keyword = line.slice(i, i + 13);
  i = j + 1;
  while (isBlank(line[i])) i++;
  const idStart = i;
  while (i < line.length && !isBlank(line[i]) && !line.startsWith('-->', i)) i++;
  const id = line.slice(idStart, i);
  while (isBlank(line[i])) i++;
  const closed = line.startsWith('-->', i);
  const rest = closed ? line.slice(i + 3) : '';
  const bad = firstInvalidChar(id);
  const expected = `<!-- ${slash}agent-section:${id === '' || bad !== undefined ? 'ID' : id} -->`;

  let reason: string;
  if (indent > 0)
    reason = `it is indented by ${indent} character${indent === 1 ? '' : 's'}; anchor lines start in column 1`;
  else if (id === '') reason = 'its ID is empty';
  else if (bad !== undefined)
    reason = `its ID \`${id}\` contains \`${bad}\`; IDs use only A-Z a-z 0-9 _ . : -`;
  else if (!closed) reason = 'it does not end with ` -->`';
  else if (rest === '') reason = spacingOrCase(line, keyword, expected);
  else if (rest.trim() === '') reason = 'it has whitespace after `-->`';
  else reason = 'it has text after `-->`; an anchor stands alone on its line';
  return { kind: id === '' ? 0 : kind, id, reason, expected };
}

function firstInvalidChar(id: string): string | undefined {
  for (const ch of id) if (!isIdCharCode(ch.charCodeAt(0))) return ch;
  return undefined;
}

/** Name the one thing that differs in a line whose parts are all there. */
function spacingOrCase(line: string, keyword: string, expected: string): string {
  if (!line.startsWith('<!-- ') || line.startsWith('<!--  '))
    return 'it needs exactly one space after `<!--`';
  if (keyword !== 'agent-section') return '`agent-section` is written in lower case';
  if (!line.endsWith(' -->') || line.endsWith('  -->'))
    return 'it needs exactly one space before `-->`';
  if (line.length !== expected.length) return 'it has a space inside the marker';
  return 'its spacing or letter case differs from the exact form';
}
