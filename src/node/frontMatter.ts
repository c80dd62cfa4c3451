/**
 * Front matter: finding the block (YAML between `---` lines, or TOML between `+++` lines), parsing it
 * with `js-yaml` or `smol-toml`, checking the keys Knowledge Kit reads. Every position is a position in
 * the file, so the body's line numbers move by the block's lines.
 */
import { fileIssue } from './fileIssue.js';
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';
import type { JsonObject, JsonValue } from '../agent/index.js';
import { jsonProblem, MAX_VALUES, type ValueBudget } from './jsonProblem.js';
import { keyPlaces } from './keyPlaces.js';
import { lineEnd, nextLine, skipBlanks } from './lines.js';
import { OPEN_BRACKET, QUESTION } from '../markdown/chars.js';

/** What the front matter of one file says, and where the body starts. */
export interface FrontMatter {
  /** Every key, as JSON; `{}` when the file has no block. */
  readonly data: JsonObject;
  /** The text after the block (the whole text when there is none). */
  readonly body: string;
  /** How many lines the block takes, fences included: body line `n` is file line `n + lines`. */
  readonly lines: number;
  /** Where a top-level key's value starts in the file (worked out on first use: only messages need it). */
  readonly place: (key: string) => KnowledgePosition | undefined;
}

/** The keys Knowledge Kit reads, and the type each must have. */
const KNOWN: Readonly<Record<string, 'id' | 'text' | 'tags'>> = {
  id: 'id',
  locale: 'id',
  title: 'text',
  description: 'text',
  tags: 'tags',
};

/** Where each top-level key of a TOML block is (`key = value` at column 1, before the first table). */
function tomlKeyPlaces(raw: string): Map<string, KnowledgePosition> {
  const places = new Map<string, KnowledgePosition>();
  let line = 2;
  for (let from = 0; from < raw.length; line++) {
    const end = lineEnd(raw, from);
    if (raw.charCodeAt(from) === OPEN_BRACKET) break;
    const equals = raw.indexOf('=', from);
    if (equals > from && equals < end) {
      let key = raw.slice(from, equals).trim();
      if (key.length > 1 && (key[0] === '"' || key[0] === "'") && key.endsWith(key[0]!))
        key = key.slice(1, -1);
      if (key !== '' && !places.has(key))
        places.set(key, { line, column: skipBlanks(raw, equals + 1, end) - from + 1 });
    }
    from = nextLine(raw, end);
  }
  return places;
}

/**
 * A block of plain `key: text` lines (a name at column 1, `: `, any text; blank lines allowed) as
 * strings by key, or `undefined` when a line is anything else or a key repeats.
 */
function plainLines(raw: string): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (let from = 0; from < raw.length;) {
    const end = lineEnd(raw, from);
    if (skipBlanks(raw, from, end) !== end) {
      const colon = raw.indexOf(': ', from);
      if (colon <= from || colon >= end) return undefined;
      const key = raw.slice(from, colon);
      if (!/^[A-Za-z_][\w-]*$/.test(key) || Object.prototype.hasOwnProperty.call(data, key))
        return undefined;
      Object.defineProperty(data, key, {
        value: raw.slice(colon + 2, end).trim(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    from = nextLine(raw, end);
  }
  return data;
}

/**
 * `tags` as sites write it, as a list of tags: a list of strings, one string (one tag) or a
 * comma-separated string (`a, b`), each tag trimmed and empty ones dropped; `undefined` for any other
 * value.
 */
function tagsOf(value: unknown): string[] | undefined {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
  if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) return value;
  return undefined;
}

/** Whether `text[from, end)` is `fence` followed only by spaces or tabs. */
function isFence(text: string, from: number, end: number, fence: string): boolean {
  return text.startsWith(fence, from) && skipBlanks(text, from + fence.length, end) === end;
}

/**
 * Splits and parses the front matter of `text` (a file's text without its BOM).
 *
 * A block is `---` on the first line, closed by a line `---` or `...` (each may be followed by spaces
 * or tabs), holding a YAML mapping or nothing; any other YAML value (`---`, `Foo`, `---` is a setext
 * heading to CommonMark) leaves the text as it is, all body. A TOML block (Hugo) is `+++` on the first
 * line, closed by a line `+++`, holding a TOML table. Problems are pushed onto `issues` as
 * `INVALID_FRONT_MATTER` with file positions.
 *
 * A key Knowledge Kit reads whose value has a type it cannot use (a `title` that is a mapping, a
 * `locale` that is a number) is left out of `data` and reported on `warnings` (`INVALID_FRONT_MATTER`,
 * placed): it never makes the page unavailable. `tags` may be a list of strings, one string or a
 * comma-separated string; `data.tags` is always the list.
 *
 * @param text - the file's text.
 * @param file - the file's path, for messages.
 * @param issues - where problems go.
 * @param warnings - where keys left out go.
 * @returns the keys, the body and the line offset; `data` is `{}` when the block has a problem.
 */
export function readFrontMatter(
  text: string,
  file: string,
  issues: KnowledgeIssue[],
  warnings: KnowledgeIssue[] = [],
): FrontMatter {
  const nowhere = (): undefined => undefined;
  const none: FrontMatter = { data: {}, body: text, lines: 0, place: nowhere };
  const firstEnd = lineEnd(text, 0);
  const toml = isFence(text, 0, firstEnd, '+++');
  if (!toml && !isFence(text, 0, firstEnd, '---')) return none;
  const problem = (line: number, column: number, message: string, to = issues) =>
    to.push(fileIssue('INVALID_FRONT_MATTER', file, { line, column }, message));

  const yamlStart = nextLine(text, firstEnd);
  let start = yamlStart;
  let lines = 1;
  let close = -1;
  while (start < text.length) {
    const end = lineEnd(text, start);
    lines++;
    if (
      toml
        ? isFence(text, start, end, '+++')
        : isFence(text, start, end, '---') || isFence(text, start, end, '...')
    ) {
      close = start;
      start = nextLine(text, end);
      break;
    }
    start = nextLine(text, end);
  }
  // `+++` on a first line that nothing closes is text, not TOML front matter.
  if (close < 0 && toml) return none;
  if (close < 0) {
    problem(
      1,
      1,
      'front matter opened by `---` on line 1 is not closed. Close it with a line `---` (or `...`), or start the file with something other than `---` if it is a thematic break.',
    );
    return { ...none, body: '', lines };
  }

  const raw = text.slice(yamlStart, close);
  const body = text.slice(start);
  if (toml)
    return checkKeys(readToml(raw, problem), raw, body, lines, tomlKeyPlaces, problem, warnings);
  let data: unknown;
  try {
    data = load(raw, { schema: CORE_SCHEMA });
  } catch (error) {
    // js-yaml reads nested flow and block collections by recursion: about 2,000 `[` or a 5,000-deep
    // block mapping overflow the call stack. That is this file's problem, not the loader's.
    if (error instanceof RangeError) {
      problem(
        2,
        1,
        `front matter nests too deeply for the YAML reader (${error.message}). Nest lists and mappings at most 64 levels deep, as values may be.`,
      );
      return { data: {}, body, lines, place: nowhere };
    }
    if (!(error instanceof YAMLException)) throw error;
    // js-yaml counts lines and columns from 0, in UTF-16 units; the YAML starts on file line 2.
    const reason = error.reason.trim();
    // Sites whose own reader takes each line as `key: text` write values YAML cannot read
    // (`title: {#if ...}`): such a block is read that way, with a warning, rather than refused.
    const plain = plainLines(raw);
    if (plain !== undefined) {
      problem(
        error.mark.line + 2,
        error.mark.column + 1,
        `front matter is not valid YAML (${reason}); it is read as plain \`key: text\` lines, each value a string. Quote the value to make it valid YAML.`,
        warnings,
      );
      return checkKeys(plain, raw, body, lines, keyPlaces, problem, warnings);
    }
    problem(
      error.mark.line + 2,
      error.mark.column + 1,
      `front matter is not valid YAML: ${reason}${/[.!?]$/.test(reason) ? '' : '.'} Fix the YAML between the \`---\` lines.`,
    );
    return { data: {}, body, lines, place: nowhere };
  }
  if (data === null || data === undefined) return { data: {}, body, lines, place: nowhere };
  // `---`, a line of text, `---` is a thematic break and a setext heading to CommonMark (spec example
  // 96): a block that is not a mapping is Markdown, kept whole as body text, not front matter.
  if (typeof data !== 'object' || Array.isArray(data)) return none;

  return checkKeys(data, raw, body, lines, keyPlaces, problem, warnings);
}

/** Reports a problem at a file place, on `issues` or on the list given. */
type Report = (line: number, column: number, message: string, to?: KnowledgeIssue[]) => void;

/** Parses a TOML block into plain JSON values (dates as written), or `undefined` after a problem. */
function readToml(raw: string, problem: Report): unknown {
  try {
    // Dates become the strings they were written as (`TomlDate.toJSON`); tables become plain objects.
    return JSON.parse(JSON.stringify(parseToml(raw, { maxDepth: 64 }))) as unknown;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    problem(
      error.line + 1,
      error.column,
      `front matter is not valid TOML: ${reason}. Fix the TOML between the \`+++\` lines.`,
    );
    return {};
  }
}

/**
 * Checks a parsed block's keys: the block's data, with the keys Knowledge Kit reads that have a type
 * it cannot use left out (warnings), or `{}` when a value is one JSON cannot hold (a problem).
 */
function checkKeys(
  data: unknown,
  raw: string,
  body: string,
  lines: number,
  placesOf: (raw: string) => Map<string, KnowledgePosition>,
  problem: Report,
  warnings: KnowledgeIssue[],
): FrontMatter {
  const language = placesOf === keyPlaces ? 'YAML' : 'TOML';
  const nowhere = (): undefined => undefined;
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data))
    return { data: {}, body, lines, place: nowhere };
  let places: Map<string, KnowledgePosition> | undefined;
  const place = (key: string): KnowledgePosition | undefined => (places ??= placesOf(raw)).get(key);
  // js-yaml turns a complex key (`? [a, b]`) into a string (`a,b`). One is there when a line starts
  // with `? ` and a key of the result is on no `key:` line; a line of a quoted value that happens to
  // start with `? ` leaves every key placed.
  const complex =
    raw.charCodeAt(0) === QUESTION || raw.includes('\n?') || raw.includes('\r?')
      ? Object.keys(data).some((key) => place(key) === undefined)
        ? place('?')
        : undefined
      : undefined;
  if (complex !== undefined) {
    problem(
      complex.line,
      complex.column,
      'front matter has a complex key (`? …`). Keys are names such as `title`.',
    );
    return { data: {}, body, lines, place };
  }
  const object: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  let valid = true;
  const budget: ValueBudget = { values: 0 };
  for (const [key, value] of Object.entries(object)) {
    const at = () => place(key) ?? { line: 2, column: 1 };
    const bad = (message: string) => {
      valid = false;
      const { line, column } = at();
      problem(line, column, `front matter \`${key}\` ${message}`);
    };
    // A key read with a type it cannot have is left out: the page loads without it.
    const leftOut = (message: string) => {
      delete object[key];
      const { line, column } = at();
      problem(
        line,
        column,
        `front matter \`${key}\` ${message}; the page loads without it. Quote it if ${language} read it as another type.`,
        warnings,
      );
    };
    const kind = KNOWN[key];
    if (kind === 'id' && (typeof value !== 'string' || value.trim() === ''))
      leftOut(`must be a non-empty string, not ${show(value)}`);
    else if (kind === 'text' && typeof value !== 'string')
      leftOut(`must be a string, not ${show(value)}`);
    else if (kind === 'tags') {
      const tags = tagsOf(value);
      if (tags !== undefined) object[key] = tags;
      else {
        const list: readonly unknown[] | undefined = Array.isArray(value) ? value : undefined;
        const odd = list === undefined ? -1 : list.findIndex((tag) => typeof tag !== 'string');
        leftOut(
          `must be a list of strings (\`tags: [returns, billing]\`), one tag or tags separated by commas (\`tags: returns, billing\`), not ${odd < 0 ? show(value) : `a list whose item ${odd + 1} is ${show(list![odd])}`}`,
        );
      }
    } else {
      const problemText = jsonProblem(value, budget);
      if (problemText)
        bad(`${problemText}. Use strings, finite numbers, booleans, null, lists and mappings.`);
    }
    // One report of the block's size is enough: the keys after it would all repeat it.
    if (budget.values > MAX_VALUES) break;
  }
  return {
    data: valid ? (object as { readonly [key: string]: JsonValue }) : {},
    body,
    lines,
    place,
  };
}

/** A short description of a value for a message. */
function show(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}
