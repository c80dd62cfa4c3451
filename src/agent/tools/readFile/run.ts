import type { KnowledgeSelection, KnowledgeSnapshot } from '../../../types.js';
import type { FileRecord } from '../../model.js';
import type { JsonValue } from '../../types.js';
import type { ReadFileOutput, ReadFileRecord } from './types.js';
import type { ReadFileInput } from './types.js';
import type { ToolArgs } from '../defineTool.js';
import { isKnowledgeError } from '../../../errors/isKnowledgeError.js';
import { type CallScope, toToolError } from '../../source/callScope.js';
import { fileHeader, findById } from '../getFile/run.js';
import { unavailableError } from '../../source/fileStatus.js';
import { cloneJson } from '../../../shared/cloneJson.js';
import { fileActions } from '../../source/readActions.js';
import { advanceCodePoints, countCodePoints as codePoints } from '../../../shared/codePoints.js';
import { type PartBoundaries, partBoundaries, partEndIn } from '../../../markdown/partEnd.js';
import { encodeCursor, resumeCall } from '../../source/cursor.js';
import type { SourceState } from '../../source/state.js';
import type { PageHeading } from '../../files/pageHeadings.js';
import { pageOutline } from '../getFile/headings.js';
import { suggest } from '../../../shared/suggest.js';

/**
 * The most `sectionIds` one `read_file` call takes. More is refused before any is looked up, so a
 * request's cost stays bounded whatever the page; reading that many sections one by one is rarely
 * what an agent wants (a `subtree` read of their parent, or the whole page, is).
 */
export const MAX_READ_SECTION_IDS = 1_000;

/** The file at `path`: `INVALID_ARGUMENT` for a directory, `NOT_FOUND` offering the closest paths. */
function findByPath(state: SourceState, scope: CallScope, path: string): FileRecord {
  const file = state.table.byPath(path);
  if (file !== undefined) return file;
  if (state.table.directory(path) !== undefined) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`read_file\`: \`${path}\` is a directory. List it with \`list_tree\` { parentPath: ${JSON.stringify(path)} }.`,
    );
  }
  const close = state.table.closestPaths(path, 3);
  throw scope.fail(
    'NOT_FOUND',
    `\`read_file\`: no file has the path \`${path}\`.${close.length > 0 ? ` Close paths: ${close.map((p) => `\`${p}\``).join(', ')}.` : ''} Read \`index.md\` or call \`list_tree\` to see what exists.`,
  );
}

/**
 * What the agent can do instead of reading a long file whole: for a page with sections, read it by
 * `sectionIds` (its top-level sections listed with their sizes); otherwise `none` (for pages), or
 * `list_tree` for navigation files.
 */
function sectionAdvice(state: SourceState, file: FileRecord, none: string): string {
  if (file.kind !== 'page') return ' Use `list_tree` to walk the files in pages instead.';
  const top = state.sectionSizes(file.fileId).filter((s) => s.depth === 1);
  if (top.length === 0) return headingAdvice(state, file.fileId) ?? none;
  const listed = top
    .slice(0, 40)
    .map((s) => `\`${s.id}\` ${s.subtreeChars}`)
    .join(', ');
  const more = top.length > 40 ? `, and ${top.length - 40} more (see \`get_file\`)` : '';
  return ` Reading it by \`sectionIds\` is the better way. Top-level sections (subtree size in characters): ${listed}${more}.`;
}

/** How many headings a part's advice names at most. */
const ADVISED_HEADINGS = 8;

/**
 * For a page without sections, its headings of one level to read one by `heading`: below a title
 * heading (the only one of the highest level, first in the page, whose range is the whole page), else
 * of the highest level; `undefined` when it has none.
 */
function headingAdvice(state: SourceState, fileId: string): string | undefined {
  const headings = pageOutline(state, fileId).headings;
  if (headings.length === 0) return undefined;
  let top = 6;
  for (const h of headings) top = Math.min(top, h.depth);
  const titled = headings[0]!.depth === top && headings.every((h, i) => i === 0 || h.depth > top);
  let level = top;
  if (titled && headings.length > 1) {
    level = 6;
    for (const h of headings) if (h.depth > top) level = Math.min(level, h.depth);
  }
  const shown = headings.filter((h) => h.depth === level);
  // A few, so that the advice costs the model little beside the part; get_file lists them all.
  const listed = shown
    .slice(0, ADVISED_HEADINGS)
    .map((h) => `\`${h.id}\` ${h.end - h.start}`)
    .join(', ');
  const more =
    shown.length > ADVISED_HEADINGS
      ? `, and ${shown.length - ADVISED_HEADINGS} more (see \`get_file\`)`
      : '';
  return ` Read one heading by \`heading\` instead (size in characters): ${listed}${more}.`;
}

/** The `CONTENT_TOO_LARGE` error of a `whole: true` read, listing the top-level sections and their sizes. */
function tooLarge(
  state: SourceState,
  scope: CallScope,
  file: FileRecord,
  actual: number,
  limit: number,
) {
  const advice = sectionAdvice(
    state,
    file,
    ' It has no sections to read separately: read it in parts (omit `whole`), or raise `maxChars` only if the budget allows.',
  );
  return scope.fail(
    'CONTENT_TOO_LARGE',
    `\`read_file\`: \`${file.path}\` is ${actual} characters (Unicode code points), over the limit of ${limit}, and \`whole: true\` asked for all of it at once. Nothing was cut; omit \`whole\` to read it in parts.${advice}`,
    { actual, limit },
  );
}

/** The parameters a `read_file` cursor carries (`null`: not given). */
const READ_PARAMS = {
  fileId: null,
  path: null,
  sectionIds: null,
  heading: null,
  mode: null,
  maxChars: null,
} as const satisfies Record<string, JsonValue>;

/** `read_file`: a page read through the catalog (a citable snapshot), or a navigation file's text; in parts when over the limit. */
export function readFile(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<ReadFileInput>,
): ReadFileOutput {
  const whole = args['whole'] === true;
  if (whole && args['cursor'] !== undefined) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      '`read_file`: `whole: true` reads all at once and has no parts; omit `cursor`, or omit `whole` to go on reading in parts.',
    );
  }
  // The cursor first: it carries the parameters it was issued for; after a change it is stale.
  // `mode` defaults to "subtree" with `sectionIds`: bind the cursor to the mode read, so that the
  // same read with `mode` spelt out continues it.
  const bound =
    args['sectionIds'] !== undefined && args['mode'] === undefined
      ? { ...args, mode: 'subtree' }
      : args;
  const resumed = resumeCall(
    scope,
    state.cursors,
    state.table.activeContentRevision,
    bound,
    READ_PARAMS as Record<keyof typeof READ_PARAMS, JsonValue>,
    isPartStart,
  );
  const params = resumed.binding.params;
  const fileId = (params.fileId ?? undefined) as string | undefined;
  const path = (params.path ?? undefined) as string | undefined;
  if ((fileId === undefined) === (path === undefined)) {
    throw scope.fail('INVALID_ARGUMENT', '`read_file` takes exactly one of `fileId` and `path`.');
  }
  const sectionIds = (params.sectionIds ?? undefined) as string[] | undefined;
  if (sectionIds !== undefined && sectionIds.length > MAX_READ_SECTION_IDS) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`read_file\`: \`sectionIds\` has ${sectionIds.length} IDs, over the limit of ${MAX_READ_SECTION_IDS} per call. Read their parent section with \`mode: "subtree"\`, or split the IDs over several calls.`,
      { actual: sectionIds.length, limit: MAX_READ_SECTION_IDS },
    );
  }
  const heading = (params.heading ?? undefined) as string | undefined;
  if (heading !== undefined && sectionIds !== undefined) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      '`read_file`: `heading` and `sectionIds` are exclusive: read one heading, or sections. Omit one of them.',
    );
  }
  const mode = (params.mode ?? undefined) as 'self' | 'subtree' | undefined;
  if (mode !== undefined && sectionIds === undefined) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      '`read_file`: `mode` applies only with `sectionIds`. Omit `mode` to read the whole file (or one `heading`).',
    );
  }
  const file =
    fileId !== undefined ? findById(state, scope, fileId) : findByPath(state, scope, path!);
  if (file.kind === 'unavailable') throw unavailableError(scope, file);
  const requested = (params.maxChars ?? undefined) as number | undefined;
  let limit = Math.min(requested ?? Number.MAX_SAFE_INTEGER, state.maxReadChars);
  const revision = state.table.activeContentRevision;
  const page = file.kind === 'page';
  // `Object.assign` onto the header, not a literal opening with `...fileHeader()`: V8 (Node 20) adds
  // each property after a leading spread slowly (about 0.5 µs each, half of a small read's time).
  const record: Mutable<ReadFileRecord> = Object.assign(fileHeader(state, file), {
    frontmatter: page ? cloneJson(file.frontmatter) : {},
    readActions: fileActions(scope.actionBase, file),
    revision: page ? file.revision : revision,
    locale: page ? file.locale : null,
    selection: null,
    snapshotId: null,
  });

  let content: string;
  let read: Measured | undefined;
  if (file.kind !== 'page') {
    if (sectionIds !== undefined || heading !== undefined) {
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`read_file\`: \`${file.path}\` is a navigation file and has no ${heading !== undefined ? 'headings' : 'sections'}. Omit \`${heading !== undefined ? 'heading' : 'sectionIds'}\`.`,
      );
    }
    content = state.navText(file.fileId);
  } else if (heading !== undefined) {
    const found = readHeading(state, scope, file.fileId, heading);
    read = found.measured;
    // The whole page's snapshot: what a citation of the heading's range names.
    const pageRead = readSelection(state, scope, file, { mode: 'document' });
    if (pageRead.catalogLimit !== undefined) limit = Math.min(limit, pageRead.catalogLimit);
    const snapshot = pageRead.snapshot;
    record.selection = { mode: 'document' };
    record.snapshotId = snapshot.id;
    const h = found.heading;
    record.heading = { id: h.id, text: h.text, depth: h.depth, start: h.start, end: h.end };
    content = found.content;
  } else {
    const selection: KnowledgeSelection =
      sectionIds === undefined ? { mode: 'document' } : { mode: mode ?? 'subtree', sectionIds };
    const selected = readSelection(state, scope, file, selection);
    read = selected;
    if (selected.catalogLimit !== undefined) limit = Math.min(limit, selected.catalogLimit);
    const snapshot = selected.snapshot;
    record.selection =
      snapshot.selection.mode === 'document'
        ? { mode: 'document' }
        : { mode: snapshot.selection.mode, sectionIds: [...snapshot.selection.sectionIds] };
    record.snapshotId = snapshot.id;
    content = snapshot.content;
  }

  const position = resumed.at as PartStart | undefined;
  const fits = content.length <= limit || pointsOf(read, content) <= limit;
  if (position === undefined && fits) return { file: record, content, nextCursor: null };
  if (whole || limit < 1) throw tooLarge(state, scope, file, pointsOf(read, content), limit);
  // The limit is part of what the cursor is bound to: parts of another size would not line up.
  const ranking = `limit:${limit}`;
  if (position !== undefined && resumed.ranking !== ranking) {
    throw scope.fail(
      'STALE_CURSOR',
      `\`read_file\`: the read limit changed since this cursor was issued (${resumed.ranking.slice(6)} code points, now ${limit}). Call it again without \`cursor\` to read from the first part.`,
    );
  }
  const [from, fromPoint] = position ?? [0, 0];
  if (from >= content.length) {
    throw scope.fail(
      'INVALID_CURSOR',
      '`read_file`: the cursor points past the end of the content. Call it again without `cursor` to read from the first part.',
    );
  }
  const to = partEndIn(
    boundariesOf(read, content),
    content.length,
    from,
    advanceCodePoints(content, from, limit),
  );
  const text = content.slice(from, to);
  const toPoint = fromPoint + codePoints(text);
  const total = to === content.length ? toPoint : pointsOf(read, content);
  const nextCursor =
    to < content.length
      ? encodeCursor(scope, state.cursors, resumed.binding, [to, toPoint], ranking)
      : null;
  record.contentRange = { start: fromPoint, end: toPoint, total };
  const next =
    nextCursor === null
      ? 'This is the last part.'
      : 'Call `read_file` with `cursor: nextCursor` for the next part.';
  // The better way in is said with the first part; an agent that goes on with the cursor chose parts.
  const advice =
    heading === undefined && fromPoint === 0 && (record.selection?.mode === 'document' || !page)
      ? sectionAdvice(state, file, '')
      : '';
  const of = heading === undefined ? '' : `heading \`${heading}\` of `;
  return {
    file: record,
    content: text,
    nextCursor,
    message: `Part of ${of}\`${file.path}\`: characters ${fromPoint} to ${toPoint} of ${total} (Unicode code points), cut at a block boundary where one is within the limit of ${limit}. Cite \`file.snapshotId\` with this range. ${next}${advice}`,
  };
}

/** A part's place: its start as a UTF-16 index and in code points. */
type PartStart = readonly [index: number, point: number];

/** Whether a cursor's position is a part's place (never the first part's, which needs no cursor). */
function isPartStart(at: unknown): boolean {
  return (
    Array.isArray(at) &&
    at.length === 2 &&
    Number.isSafeInteger(at[0]) &&
    Number.isSafeInteger(at[1]) &&
    (at[1] as number) > 0 &&
    (at[0] as number) >= (at[1] as number)
  );
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The whole selection, as a snapshot: read without a request limit so that the catalog's own default
 * applies; over that default, read again without it, and `catalogLimit` says what it was (parts are
 * cut within it).
 */
function readSelection(
  state: SourceState,
  scope: CallScope,
  file: FileRecord,
  selection: KnowledgeSelection,
): SelectionRead {
  // Reading a long page part by part reads the same selection once per part: keep the last few
  // reads of each state (a state is one revision, so a kept read never goes stale), so that every
  // part after the first costs what it returns, not a read of the whole page again.
  // The selection written out directly (its two shapes), not by a stable stringify of the object:
  // a small read's key is built on every call.
  const key =
    selection.mode === 'document'
      ? `${file.fileId}\u0000document`
      : `${file.fileId}\u0000${selection.mode}\u0000${JSON.stringify(selection.sectionIds)}`;
  let recent = RECENT_READS.get(state);
  const kept = recent?.get(key);
  if (kept !== undefined) return kept;
  const read = readSelectionOnce(state, scope, file, selection);
  if (recent === undefined) RECENT_READS.set(state, (recent = new Map()));
  if (recent.size >= RECENT_READS_KEPT) recent.delete(recent.keys().next().value!);
  recent.set(key, read);
  return read;
}

/**
 * A selection's snapshot, and the catalog's own read limit when the selection is over it; its length
 * in code points and where its parts may end, computed once when first asked for.
 */
interface SelectionRead extends Measured {
  readonly snapshot: KnowledgeSnapshot;
  readonly catalogLimit: number | undefined;
}

/** A text's length in code points and where its parts may end, computed once when first asked for. */
interface Measured {
  points?: number;
  boundaries?: PartBoundaries;
}

/** The code points of `content`, kept with its read when it has one. */
function pointsOf(read: Measured | undefined, content: string): number {
  if (read === undefined) return codePoints(content);
  return (read.points ??= codePoints(content));
}

/** Where parts of `content` may end, kept with its read when it has one. */
function boundariesOf(read: Measured | undefined, content: string): PartBoundaries {
  if (read === undefined) return partBoundaries(content);
  return (read.boundaries ??= partBoundaries(content));
}

/** A heading's range read: the heading, its text, and its measures kept for the parts after the first. */
interface HeadingRead {
  readonly heading: PageHeading;
  readonly content: string;
  readonly measured: Measured;
}

/** The recent heading reads of each source state, by page and heading ID. */
const RECENT_HEADINGS = new WeakMap<SourceState, Map<string, HeadingRead>>();

/**
 * The range of the heading `id` of the page `fileId`, or `NOT_FOUND` naming the closest heading IDs.
 * Kept like the recent selection reads, so each part of a long range costs what it returns.
 */
function readHeading(
  state: SourceState,
  scope: CallScope,
  fileId: string,
  id: string,
): HeadingRead {
  const key = `${fileId}\u0000${id}`;
  let recent = RECENT_HEADINGS.get(state);
  const kept = recent?.get(key);
  if (kept !== undefined) return kept;
  const outline = pageOutline(state, fileId);
  const heading = outline.headings.find((h) => h.id === id);
  if (heading === undefined) {
    const ids = outline.headings.map((h) => h.id);
    const close = suggest(id, ids);
    const hint =
      ids.length === 0
        ? ' The page has no headings: read it whole or in parts.'
        : `${close.length > 0 ? ` Close IDs: ${close.map((c) => `\`${c}\``).join(', ')}.` : ''} Call \`get_file\` { fileId: ${JSON.stringify(fileId)} } to list its headings.`;
    throw scope.fail(
      'NOT_FOUND',
      `\`read_file\`: the page \`${fileId}\` has no heading with the ID \`${id}\`.${hint}`,
    );
  }
  const read: HeadingRead = {
    heading,
    content: outline.text.slice(heading.from, heading.to),
    measured: {},
  };
  if (recent === undefined) RECENT_HEADINGS.set(state, (recent = new Map()));
  if (recent.size >= RECENT_READS_KEPT) recent.delete(recent.keys().next().value!);
  recent.set(key, read);
  return read;
}

/** How many recent selection reads a source state keeps (oldest out first). */
const RECENT_READS_KEPT = 4;

/** The recent selection reads of each source state. */
const RECENT_READS = new WeakMap<SourceState, Map<string, SelectionRead>>();

/** `readSelection` without the recent reads. */
function readSelectionOnce(
  state: SourceState,
  scope: CallScope,
  file: FileRecord,
  selection: KnowledgeSelection,
): SelectionRead {
  try {
    try {
      return {
        snapshot: state.catalog.read({ documentId: file.fileId, selection }),
        catalogLimit: undefined,
      };
    } catch (error) {
      const issue = isKnowledgeError(error) ? error.issues[0] : undefined;
      if (issue?.code !== 'MAX_CHARS_EXCEEDED') throw error;
      const snapshot = state.catalog.read({
        documentId: file.fileId,
        selection,
        maxChars: Number.MAX_SAFE_INTEGER,
      });
      return { snapshot, catalogLimit: issue.limit ?? 0 };
    }
  } catch (error) {
    const issue = isKnowledgeError(error) ? error.issues[0] : undefined;
    if (issue?.code === 'UNKNOWN_SECTION') {
      const mapped = toToolError(scope, error);
      throw scope.fail(
        'NOT_FOUND',
        `${mapped.message} Call \`get_file\` { fileId: ${JSON.stringify(file.fileId)} } to list its sections.`,
        mapped.details,
      );
    }
    throw error;
  }
}
