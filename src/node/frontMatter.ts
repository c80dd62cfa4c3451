/**
 * YAML front matter: finding the block, parsing it with `yaml`, checking the keys Knowledge Kit reads.
 * Every position is a position in the file, so the body's line numbers move by the block's lines.
 */
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { KnowledgeIssue, KnowledgePosition } from '../errors/codes.js';
import type { JsonObject, JsonValue } from '../agent/types.js';

/** What the front matter of one file says, and where the body starts. */
export interface FrontMatter {
  /** Every key, as JSON; `{}` when the file has no block. */
  readonly data: JsonObject;
  /** The text after the block (the whole text when there is none). */
  readonly body: string;
  /** How many lines the block takes, fences included: body line `n` is file line `n + lines`. */
  readonly lines: number;
  /** Where each top-level key's value starts in the file. */
  readonly places: ReadonlyMap<string, KnowledgePosition>;
}

/** The keys Knowledge Kit reads, and the type each must have. */
const KNOWN: Readonly<Record<string, 'id' | 'text' | 'tags'>> = { id: 'id', locale: 'id', title: 'text', description: 'text', tags: 'tags' };

/** The end of the line starting at `from` (the index of its line break, or `text.length`). */
function lineEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
    i++;
  }
  return i;
}

/** The index after the line break at `end` (CRLF, LF or CR). */
function nextLine(text: string, end: number): number {
  if (end >= text.length) return end;
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}

/** Whether `text[from, end)` is `fence` followed only by spaces or tabs. */
function isFence(text: string, from: number, end: number, fence: string): boolean {
  if (!text.startsWith(fence, from)) return false;
  for (let i = from + fence.length; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** JSON's value of `value`, or a phrase saying what is not JSON in it. */
function jsonProblem(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return 'nests more than 64 levels deep';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `has the number ${String(value)}, which JSON cannot hold`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const item of Object.values(value)) {
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  return `has a value JSON cannot hold (${Object.prototype.toString.call(value)})`;
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
  const none: FrontMatter = { data: {}, body: text, lines: 0, places: new Map() };
  const firstEnd = lineEnd(text, 0);
  if (!isFence(text, 0, firstEnd, '---')) return none;
  const problem = (line: number, column: number, message: string) =>
    issues.push({ code: 'INVALID_FRONT_MATTER', file, line, column, message: `${file}:${line}:${column}: ${message}` });

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
    problem(1, 1, 'front matter opened by `---` on line 1 is not closed. Close it with a line `---` (or `...`), or start the file with something other than `---` if it is a thematic break.');
    return { ...none, body: '', lines };
  }

  const lineCounter = new LineCounter();
  // `yaml` ends lines at LF only; a lone CR (which YAML 1.2 and the parser count as a line break)
  // becomes LF, one unit for one, so every offset stays the file's.
  const raw = text.slice(yamlStart, close);
  const source = raw.includes('\r') ? raw.replace(/\r(?!\n)/g, '\n') : raw;
  const document = parseDocument(source, { lineCounter, schema: 'core', uniqueKeys: true, prettyErrors: false });
  // The YAML starts on file line 2; `yaml` counts lines from 1 and columns in UTF-16 units, as we do.
  const at = (offset: number): KnowledgePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: line + 1, column: col };
  };
  const body = text.slice(start);
  if (document.errors.length > 0) {
    for (const error of document.errors) {
      const { line, column } = at(error.pos[0]);
      const reason = error.message.split('\n')[0]!.trim();
      problem(line, column, `front matter is not valid YAML: ${reason}${/[.!?]$/.test(reason) ? '' : '.'} Fix the YAML between the \`---\` lines.`);
    }
    return { data: {}, body, lines, places: new Map() };
  }
  const contents = document.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return { data: {}, body, lines, places: new Map() };
  // `---`, a line of text, `---` is a thematic break and a setext heading to CommonMark (spec example
  // 96): a block that is not a mapping is Markdown, kept whole as body text, not front matter.
  if (!isMap(contents)) return none;

  const places = new Map<string, KnowledgePosition>();
  let keysOk = true;
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    const valueRange = (pair.value as { readonly range?: readonly number[] } | null)?.range;
    const keyRange = (pair.key as { readonly range?: readonly number[] } | null)?.range;
    if (typeof key !== 'string') {
      keysOk = false;
      const place = at(keyRange?.[0] ?? valueRange?.[0] ?? 0);
      const shown = pair.key === null || pair.key === undefined ? '(empty)' : String(pair.key).split('\n')[0];
      problem(place.line, place.column, `front matter key \`${shown}\` is not a string. Keys are names such as \`title\`; quote a key YAML reads as a number, list or mapping.`);
      continue;
    }
    places.set(key, at(valueRange?.[0] ?? keyRange?.[0] ?? 0));
  }
  // JSON has only string keys: do not let `toJS` stringify the others (with a process warning).
  if (!keysOk) return { data: {}, body, lines, places };

  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problem(2, 1, `front matter cannot be read: ${error instanceof Error ? error.message : String(error)}.`);
    return { data: {}, body, lines, places };
  }
  const object = data as Record<string, unknown>;
  let valid = true;
  for (const [key, value] of Object.entries(object)) {
    const place = places.get(key) ?? { line: 2, column: 1 };
    const bad = (message: string) => {
      valid = false;
      problem(place.line, place.column, `front matter \`${key}\` ${message}`);
    };
    const kind = KNOWN[key];
    if (kind === 'id' && (typeof value !== 'string' || value.trim() === '')) bad(`must be a non-empty string, not ${show(value)}. Quote it if YAML read it as another type.`);
    else if (kind === 'text' && typeof value !== 'string') bad(`must be a string, not ${show(value)}. Quote it if YAML read it as another type.`);
    else if (kind === 'tags' && !(Array.isArray(value) && value.every((tag) => typeof tag === 'string'))) bad(`must be a list of strings, such as \`tags: [returns, billing]\`, not ${show(value)}.`);
    else {
      const problemText = jsonProblem(value);
      if (problemText) bad(`${problemText}. Use strings, finite numbers, booleans, null, lists and mappings.`);
    }
  }
  return { data: valid ? (object as { readonly [key: string]: JsonValue }) : {}, body, lines, places };
}

/** A short description of a value for a message. */
function show(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}
