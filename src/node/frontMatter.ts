/**
 * YAML front matter: finding the block, parsing it with `js-yaml`, checking the keys Knowledge Kit reads.
 * Every position is a position in the file, so the body's line numbers move by the block's lines.
 */
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import type { KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';
import type { JsonObject, JsonValue } from '../agent/index.js';
import { jsonProblem, MAX_VALUES, type ValueBudget } from './jsonProblem.js';
import { keyPlaces } from './keyPlaces.js';
import { lineEnd, nextLine, skipBlanks } from './lines.js';

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

/** Whether `text[from, end)` is `fence` followed only by spaces or tabs. */
function isFence(text: string, from: number, end: number, fence: string): boolean {
  return text.startsWith(fence, from) && skipBlanks(text, from + fence.length, end) === end;
}

/**
 * Splits and parses the front matter of `text` (a file's text without its BOM).
 *
 * A block is `---` on the first line, closed by a line `---` or `...` (each may be followed by spaces
 * or tabs), holding a YAML mapping or nothing; any other YAML value (`---`, `Foo`, `---` is a setext
 * heading to CommonMark) leaves the text as it is, all body. Problems are pushed onto `issues` as `INVALID_FRONT_MATTER` with file positions.
 *
 * @param text - the file's text.
 * @param file - the file's path, for messages.
 * @param issues - where problems go.
 * @returns the keys, the body and the line offset; `data` is `{}` when the block has a problem.
 */
export function readFrontMatter(text: string, file: string, issues: KnowledgeIssue[]): FrontMatter {
  const nowhere = (): undefined => undefined;
  const none: FrontMatter = { data: {}, body: text, lines: 0, place: nowhere };
  const firstEnd = lineEnd(text, 0);
  if (!isFence(text, 0, firstEnd, '---')) return none;
  const problem = (line: number, column: number, message: string) =>
    issues.push({
      code: 'INVALID_FRONT_MATTER',
      file,
      line,
      column,
      message: `${file}:${line}:${column}: ${message}`,
    });

  const yamlStart = nextLine(text, firstEnd);
  let start = yamlStart;
  let lines = 1;
  let close = -1;
  while (start < text.length) {
    const end = lineEnd(text, start);
    lines++;
    if (isFence(text, start, end, '---') || isFence(text, start, end, '...')) {
      close = start;
      start = nextLine(text, end);
      break;
    }
    start = nextLine(text, end);
  }
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

  let places: Map<string, KnowledgePosition> | undefined;
  const place = (key: string): KnowledgePosition | undefined =>
    (places ??= keyPlaces(raw)).get(key);
  // js-yaml turns a complex key (`? [a, b]`) into a string (`a,b`). One is there when a line starts
  // with `? ` and a key of the result is on no `key:` line; a line of a quoted value that happens to
  // start with `? ` leaves every key placed.
  const complex =
    raw.charCodeAt(0) === 63 || raw.includes('\n?') || raw.includes('\r?')
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
  const object = data as Record<string, unknown>;
  let valid = true;
  const budget: ValueBudget = { values: 0 };
  for (const [key, value] of Object.entries(object)) {
    const bad = (message: string) => {
      valid = false;
      const { line, column } = place(key) ?? { line: 2, column: 1 };
      problem(line, column, `front matter \`${key}\` ${message}`);
    };
    const kind = KNOWN[key];
    if (kind === 'id' && (typeof value !== 'string' || value.trim() === ''))
      bad(
        `must be a non-empty string, not ${show(value)}. Quote it if YAML read it as another type.`,
      );
    else if (kind === 'text' && typeof value !== 'string')
      bad(`must be a string, not ${show(value)}. Quote it if YAML read it as another type.`);
    else if (
      kind === 'tags' &&
      !(Array.isArray(value) && value.every((tag) => typeof tag === 'string'))
    ) {
      const list: readonly unknown[] | undefined = Array.isArray(value) ? value : undefined;
      const odd = list === undefined ? -1 : list.findIndex((tag) => typeof tag !== 'string');
      bad(
        `must be a list of strings, such as \`tags: [returns, billing]\`, not ${odd < 0 ? show(value) : `a list whose item ${odd + 1} is ${show(list![odd])}`}. Quote a tag YAML reads as another type.`,
      );
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
