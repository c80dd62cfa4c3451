/**
 * Explains a near-miss anchor line: what is wrong, the exact form expected, and — when the intent is
 * clear — the kind and ID the author meant, so the parser can keep pairing anchors after it and report
 * later problems instead of a cascade. Runs only on error paths.
 */
import { DEL, NBSP, SPACE, isSpaceOrTab } from '../markdown/chars.js';
import {
  CLOSE,
  OPEN,
  isIdCharCode,
  isKeywordCode,
  isOpenerCode,
  keywordDistance,
} from './scanText.js';

export interface MalformedAnchor {
  /** `OPEN` or `CLOSE` when the intent is clear, else 0. */
  readonly kind: 0 | typeof OPEN | typeof CLOSE;
  /** The ID the author meant, as written (it may hold characters an ID cannot), or ''. */
  readonly id: string;
  /** What is wrong, as a clause (several joined by `; `). */
  readonly reason: string;
  /** The exact line expected. */
  readonly expected: string;
}

/** Explain the near-miss `line` (the whole line, without its line ending). */
export function explainMalformed(line: string): MalformedAnchor {
  let i = 0;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  const indent = i;
  i++; // `<`
  const openerStart = i;
  while (isOpenerCode(line.charCodeAt(i))) i++;
  const opener = line.slice(indent, i);
  const afterOpener = i;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  let kind: typeof OPEN | typeof CLOSE = OPEN;
  if (line[i] === '/') {
    kind = CLOSE;
    i++;
    while (isSpaceOrTab(line.charCodeAt(i))) i++;
  }
  const slash = kind === CLOSE ? '/' : '';
  const keywordStart = i;
  while (isKeywordCode(line.charCodeAt(i))) i++;
  const colon = i;
  let keywordEnd = colon;
  while (keywordEnd > keywordStart && line[keywordEnd - 1] === ' ') keywordEnd--;
  const keyword = line.slice(keywordStart, keywordEnd);
  const distance =
    line[colon] === ':' && openerStart < afterOpener
      ? keywordDistance(keyword, 0, keyword.length)
      : 3;
  if (distance > 2) {
    return {
      kind: 0,
      id: '',
      reason: 'it mentions `agent-section` but is not an anchor',
      expected: '<!-- agent-section:ID -->',
    };
  }

  // The ID: from after the colon's blanks to ` -->` (or the end of the line).
  i = colon + 1;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  const idStart = i;
  const arrow = line.indexOf('-->', idStart);
  const closed = arrow >= 0;
  let idEnd = closed ? arrow : line.length;
  if (!closed) {
    // `<!-- agent-section:a --` or `… -`: an unfinished ` -->` is not part of the ID.
    const lastBlank = Math.max(line.lastIndexOf(' ', idEnd - 1), line.lastIndexOf('\t', idEnd - 1));
    if (lastBlank >= idStart && /^[->]+$/.test(line.slice(lastBlank + 1, idEnd))) idEnd = lastBlank;
  }
  while (idEnd > idStart && isSpaceOrTab(line.charCodeAt(idEnd - 1))) idEnd--;
  const id = line.slice(idStart, idEnd);
  const rest = closed ? line.slice(arrow + 3) : '';
  const bad = firstInvalidChar(id);
  const fixedId = id === '' ? 'ID' : bad === undefined ? id : repairId(id);
  const expected = `<!-- ${slash}agent-section:${fixedId} -->`;

  const reasons: string[] = [];
  if (indent > 0)
    reasons.push(
      `it is indented by ${indent} character${indent === 1 ? '' : 's'}; anchor lines start in column 1`,
    );
  if (opener !== '<!--') reasons.push(`it starts with \`${opener}\`, not \`<!--\``);
  if (distance > 0) reasons.push(`its keyword \`${keyword}\` is not \`agent-section\``);
  else if (keyword !== 'agent-section' && keyword.length === 13)
    reasons.push('`agent-section` is written in lower case');
  if (id === '') reasons.push('its ID is empty');
  else if (bad !== undefined)
    reasons.push(
      `its ID \`${id}\` contains ${nameOf(bad.char)} at column ${idStart + bad.index + 1}; IDs use only A-Z a-z 0-9 _ . : -`,
    );
  if (!closed) reasons.push('it does not end with ` -->`');
  else if (rest.trim() !== '')
    reasons.push('it has text after `-->`; an anchor stands alone on its line');
  else if (rest !== '') reasons.push('it has whitespace after `-->`');
  const reason =
    reasons.length > 0 ? reasons.join('; ') : spacing(line, keywordStart, colon, expected);
  return { kind: id === '' ? 0 : kind, id, reason, expected };
}

/** The first character of `id` (a whole code point) that an ID cannot hold, and its index. */
function firstInvalidChar(id: string): { char: string; index: number } | undefined {
  let index = 0;
  for (const char of id) {
    if (!isIdCharCode(char.charCodeAt(0))) return { char, index };
    index += char.length;
  }
  return undefined;
}

/** A character, named so that a reader sees it: blanks and invisible ones by name or code point. */
function nameOf(char: string): string {
  if (char === ' ') return 'a space';
  if (char === '\t') return 'a tab';
  const code = char.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < SPACE || (code >= DEL && code <= NBSP) || /^\p{Cf}$/u.test(char))
    return `the invisible character ${hex}`;
  return code < 0x80 ? `\`${char}\`` : `\`${char}\` (${hex})`;
}

/**
 * `id` with what an ID cannot hold replaced: accents dropped (`día` → `dia`), every other run of
 * characters outside `A-Z a-z 0-9 _ . : -` one `-`. Every character the author wrote that an ID can
 * hold is kept. `ID` when nothing is left.
 */
function repairId(id: string): string {
  let out = '';
  let dash = false;
  for (const char of id.normalize('NFD')) {
    const code = char.charCodeAt(0);
    if (code >= 0x300 && code <= 0x36f) continue; // a combining accent
    if (isIdCharCode(code)) {
      out += char;
      dash = false;
    } else if (!dash) {
      out += '-';
      dash = true;
    }
  }
  // A dash made here at either end goes; the author's own are kept.
  const from = out.startsWith('-') && !id.startsWith('-') ? 1 : 0;
  const to = out.endsWith('-') && !id.endsWith('-') ? out.length - 1 : out.length;
  return from >= to ? 'ID' : out.slice(from, to);
}

/** Name the one thing that differs in a line whose parts are all there: its spacing. */
function spacing(line: string, keywordStart: number, colon: number, expected: string): string {
  if (!line.startsWith('<!-- ') || line.startsWith('<!--  '))
    return 'it needs exactly one space after `<!--`';
  if (!line.endsWith(' -->') || line.endsWith('  -->'))
    return 'it needs exactly one space before `-->`';
  if (line.length !== expected.length || line[keywordStart + 13] !== line[colon])
    return 'it has a space inside the marker';
  return 'its spacing or letter case differs from the exact form';
}

/** An explanation's text with the HTML comment's delimiters written as the MDX comment's. */
const toMdx = (text: string): string => text.replaceAll('<!--', '{/*').replaceAll('-->', '*/}');

/**
 * Explain the near-miss MDX comment `line` (`{/* agent-secton:x *\/}`, from an `.mdx` page): read as
 * the HTML comment it stands for, with `{/*` and `*\/}` in place of `<!--` and `-->`, so both forms
 * get the same reasons, spacing rules and repaired ID.
 */
export function explainMdxMalformed(line: string): MalformedAnchor {
  let i = 0;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  let html = `${line.slice(0, i)}<!--${line.slice(i + 3)}`;
  const trimmed = html.trimEnd();
  if (trimmed.endsWith('*/}')) html = `${trimmed.slice(0, -3)}-->${html.slice(trimmed.length)}`;
  const bad = explainMalformed(html);
  return { kind: bad.kind, id: bad.id, reason: toMdx(bad.reason), expected: toMdx(bad.expected) };
}
