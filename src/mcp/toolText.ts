/**
 * The compact text of a knowledge tool's result: what an MCP client shows the model, written for a
 * model rather than a parser. Every continuity field stays (IDs, paths, cursors, statuses,
 * `snapshotId`); what a model cannot use is left to `structuredContent` (JSON quoting, a `sourceFileId`
 * equal to the `fileId`, `contentAvailable: true` on a search candidate, scores past four digits, and
 * the read-action URLs unless the transport is HTTP).
 *
 * @module
 */
import type {
  ExpandGraphOutput,
  GetFileOutput,
  KnowledgeReadActions,
  ListTreeOutput,
  ReadFileOutput,
  ReadRelatedOutput,
  SearchFilesOutput,
} from '../agent/index.js';
import { extraLines, inline, plain, shortNumber, word } from './textValue.js';
import { BANG, CR, HASH, LF, PERIOD, QUESTION, SPACE } from '../markdown/chars.js';

/** What the compact text holds beyond the continuity fields. */
export interface ToolTextOptions {
  /** Write each record's `readActions` URLs (over HTTP, where a client can fetch them). */
  readonly readActions: boolean;
}

/** The tools with a compact text, by their unprefixed names. */
const RENDER: Readonly<Record<string, (output: never, options: ToolTextOptions) => string>> = {
  search_files: searchText,
  read_file: readText,
  list_tree: treeText,
  get_file: fileText,
  read_related: relatedText,
  expand_graph: graphText,
};

/**
 * The compact text of `output`, the successful output of the tool named `tool` (with or without a
 * prefix); the JSON text for a tool it does not know.
 *
 * @param tool - the tool's listed name, such as `search_files` or `kb_read_file`.
 * @param output - the tool's `structuredContent`.
 * @param options - `readActions`.
 * @returns the text block's text.
 * @example
 * ```ts
 * toolText('read_file', output, { readActions: false }); // 'path: pages/guide.md · fileId: guide …\n\n# Guide…'
 * ```
 */
export function toolText(
  tool: string,
  output: Readonly<Record<string, unknown>>,
  options: ToolTextOptions,
): string {
  for (const name of Object.keys(RENDER))
    if (tool === name || (tool.endsWith(name) && tool.length > name.length))
      return RENDER[name]!(output as never, options);
  return JSON.stringify(output);
}

/**
 * The keys of an output of type `T` that its text writes, or leaves to `structuredContent` on purpose:
 * `extraLines` writes any other (a field a newer source adds). Each checked against `T`.
 */
function known<T>(...keys: readonly (keyof T & string)[]): ReadonlySet<string> {
  return new Set(keys);
}

/** The keys every output answered from one version opens with (the header names them). */
const ANSWERED_FROM = ['activeContentRevision', 'version', 'publishedAt'] as const;

const SEARCH_KEYS = known<SearchFilesOutput>(
  ...ANSWERED_FROM,
  'items',
  'searchStatus',
  'searchMode',
  'semanticStatus',
  'rerankerStatus',
  'message',
  'nextActions',
  'nextCursor',
);
const ITEM_KEYS = known<SearchFilesOutput['items'][number]>(
  'fileId',
  'sourceFileId',
  'path',
  'title',
  'description',
  'score',
  'matchedFields',
  'evidenceTypes',
  'sourceExcerpt',
  'contentAvailable',
  'readActions',
  'sectionIds',
  'heading',
);

/** A heading as the text names it: its text and the ID `read_file { heading }` takes. */
function headingText(heading: { readonly id: string; readonly text: string }): string {
  return `${plain(heading.text)} {#${plain(heading.id)}}`;
}

function searchText(output: SearchFilesOutput, options: ToolTextOptions): string {
  const stage = (status: { state: string; safeCode: string | null }): string =>
    status.safeCode === null ? status.state : `${status.state} ${status.safeCode}`;
  const lines = [
    `${output.items.length === 1 ? '1 candidate' : `${output.items.length} candidates`} (searchStatus ${output.searchStatus}, searchMode ${output.searchMode}, semantic ${stage(output.semanticStatus)}, reranker ${stage(output.rerankerStatus)}, activeContentRevision ${inline(output.activeContentRevision)}${versionText(output)})`,
  ];
  if (output.message !== null) lines.push(`message: ${plain(output.message)}`);
  for (const next of output.nextActions)
    lines.push(`next: ${next.tool} ${JSON.stringify(next.input)}: ${plain(next.reason)}`);
  if (output.nextCursor !== null) lines.push(`nextCursor: ${plain(output.nextCursor)}`);
  lines.push(...extraLines(output as never, SEARCH_KEYS));
  output.items.forEach((item, index) => {
    const sections =
      item.sectionIds.length === 0 ? '' : ` sectionIds=${item.sectionIds.map(word).join(',')}`;
    const source =
      item.sourceFileId === item.fileId ? '' : ` sourceFileId=${word(item.sourceFileId)}`;
    // The ID read_file { heading } takes; the excerpt, cut from that heading's range, shows its text.
    const heading = item.heading === null ? '' : ` heading=${word(item.heading.id)}`;
    lines.push(
      `${index + 1}. ${plain(item.title)}`,
      `${word(item.path)} fileId=${word(item.fileId)}${source} score=${shortNumber(item.score)} evidence=${item.evidenceTypes.join(',')}${sections}${heading}`,
    );
    // The summary, unless the excerpt already says it (a match in the page's first lines).
    const short = item.description === null ? null : summary(item.description);
    if (
      short !== null &&
      !item.sourceExcerpt.includes(short.endsWith('…') ? short.slice(0, -1) : short)
    )
      lines.push(plain(short));
    lines.push(plain(item.sourceExcerpt));
    if (item.contentAvailable !== true)
      lines.push(`contentAvailable: ${inline(item.contentAvailable)}`);
    if (options.readActions) lines.push(actionsText(item.readActions));
    lines.push(...extraLines(item as never, ITEM_KEYS));
  });
  return lines.join('\n');
}

/** Longest summary of a candidate's description, in UTF-16 units (its first sentence when shorter). */
const SUMMARY_CHARS = 100;

/**
 * A description's first sentence, or its first `SUMMARY_CHARS` cut at a space with `…`: what tells a
 * model whether to read the page (the whole description is in `structuredContent` and `get_file`).
 */
function summary(description: string): string {
  const limit = Math.min(description.length, SUMMARY_CHARS + 1);
  for (let i = 1; i < limit; i++) {
    const c = description.charCodeAt(i);
    if (
      c === 0x3002 ||
      ((c === PERIOD || c === BANG || c === QUESTION) && description.charCodeAt(i + 1) === SPACE)
    )
      return description.slice(0, i + 1);
  }
  if (description.length <= SUMMARY_CHARS) return description;
  const space = description.lastIndexOf(' ', SUMMARY_CHARS);
  let end = space > SUMMARY_CHARS / 2 ? space : SUMMARY_CHARS;
  // Never half a surrogate pair.
  if (end === SUMMARY_CHARS && (description.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${description.slice(0, end)}…`;
}

const READ_KEYS = known<ReadFileOutput>('file', 'content', 'nextCursor', 'message');
const READ_FILE_KEYS = known<ReadFileOutput['file']>(
  ...ANSWERED_FROM,
  'fileId',
  'sourceFileId',
  'path',
  'title',
  'frontmatter',
  'readActions',
  'revision',
  'locale',
  'selection',
  'snapshotId',
  'contentRange',
  'heading',
);

/**
 * A short header, a blank line, then the text as it is. Left out of the header: the title when the
 * text starts with it as a heading; the file ID, the revision and the selection when the `snapshotId`
 * holds them (navigation files have none); and the part message's sentences that the `contentRange` and
 * `nextCursor` lines already say (`partMessage`).
 */
function readText(output: ReadFileOutput, options: ToolTextOptions): string {
  const { file } = output;
  const snapshot = file.snapshotId;
  const titled = startsWithHeading(output.content, file.title);
  // A page's snapshotId holds its fileId as the documentId: written once.
  const idInSnapshot =
    snapshot !== null && snapshot.includes(`"documentId":${JSON.stringify(file.fileId)}`);
  const lines = [
    `path: ${plain(file.path)}${idInSnapshot ? '' : ` · fileId: ${plain(file.fileId)}`}${file.sourceFileId === file.fileId ? '' : ` · sourceFileId: ${inline(file.sourceFileId)}`}${titled ? '' : ` · title: ${plain(file.title)}`}`,
  ];
  if (snapshot !== null) lines.push(`snapshotId: ${plain(snapshot)}`);
  const tail = [
    `activeContentRevision: ${inline(file.activeContentRevision)}${file.version === undefined ? '' : ` · version: ${plain(file.version)}`}`,
  ];
  if (snapshot === null || !snapshot.includes(String(file.revision)))
    tail.push(`revision: ${inline(file.revision)}`);
  if (snapshot === null && file.selection !== null)
    tail.push(`selection: ${inline(file.selection)}`);
  if (file.locale !== null) tail.push(`locale: ${plain(file.locale)}`);
  lines.push(tail.join(' · '));
  if (Object.keys(file.frontmatter).length > 0)
    lines.push(`frontmatter: ${JSON.stringify(file.frontmatter)}`);
  if (options.readActions) lines.push(actionsText(file.readActions));
  if (file.heading !== undefined) {
    const { depth, start, end } = file.heading;
    lines.push(
      `heading: ${headingText(file.heading)} · depth ${depth} · code points ${start}-${end} of the whole page`,
    );
  }
  if (file.contentRange !== undefined) {
    const { start, end, total } = file.contentRange;
    lines.push(
      `contentRange: ${start}-${end} of ${total} code points${output.nextCursor === null ? ', the last part' : ''}`,
    );
  }
  if (output.nextCursor !== null) lines.push(`nextCursor: ${plain(output.nextCursor)}`);
  const message = output.message === undefined ? '' : partMessage(output.message, file.path);
  if (message !== '') lines.push(`message: ${plain(message)}`);
  lines.push(...extraLines(file as never, READ_FILE_KEYS, 'file.'));
  lines.push(...extraLines(output as never, READ_KEYS));
  return `${lines.join('\n')}\n\n${output.content}`;
}

/** Whether `content` starts with an ATX heading (`#` to `######`) whose text is `title`. */
function startsWithHeading(content: string, title: string): boolean {
  let level = 0;
  while (level < 6 && content.charCodeAt(level) === HASH) level++;
  if (level === 0 || content.charCodeAt(level) !== SPACE) return false;
  const end = level + 1 + title.length;
  if (content.slice(level + 1, end) !== title) return false;
  return end === content.length || content.charCodeAt(end) === LF || content.charCodeAt(end) === CR;
}

/**
 * What a part's message says beyond its range and how to go on (the page's sections, when it has
 * some): the sentences `Part of … (Unicode code points), cut at … of N.`, `Cite … with this range.` and
 * `Call … for the next part.` / `This is the last part.` are left out when the message starts with
 * them; any other message is kept whole.
 */
function partMessage(message: string, path: string): string {
  const opening = `Part of \`${path}\`: characters `;
  if (!message.startsWith(opening)) return message;
  const cite = '. Cite `file.snapshotId` with this range. ';
  const at = message.indexOf(cite);
  if (at === -1) return message;
  const rest = message.slice(at + cite.length);
  for (const next of [
    'Call `read_file` with `cursor: nextCursor` for the next part.',
    'This is the last part.',
  ])
    if (rest.startsWith(next)) return rest.slice(next.length).trim();
  return message;
}

const TREE_KEYS = known<ListTreeOutput>(...ANSWERED_FROM, 'versions', 'items', 'nextCursor');

function treeText(output: ListTreeOutput, options: ToolTextOptions): string {
  const lines = [
    `${output.items.length} entries (activeContentRevision ${inline(output.activeContentRevision)}${versionText(output)}); files are available and current_available unless marked`,
  ];
  // The versions, when there is more than the one answering (the header names that one).
  const versions = output.versions ?? [];
  if (versions.length > 1 || (versions.length === 1 && versions[0]!.version !== output.version))
    lines.push(
      `versions: ${versions.map((v) => `${plain(v.version)}${v.default ? ' (default)' : ''}`).join(', ')}`,
    );
  if (output.nextCursor !== null) lines.push(`nextCursor: ${plain(output.nextCursor)}`);
  lines.push(...extraLines(output as never, TREE_KEYS));
  for (const item of output.items) {
    if (item.entryType === 'directory') {
      lines.push(`dir ${plain(item.path)} · title: ${plain(item.title)} · ${item.fileCount} files`);
    } else {
      const marks: string[] = [];
      if (item.state !== 'available') marks.push(`state ${item.state}`);
      if (item.generatedOutputStatus !== 'current_available')
        marks.push(`generatedOutputStatus ${item.generatedOutputStatus}`);
      if (!item.contentAvailable) marks.push('contentAvailable false');
      lines.push(
        `file ${fileLine(item.path, item.fileId, item.sourceFileId)} · title: ${plain(item.title)} · ${item.fileKind}${marks.length === 0 ? '' : ` · ${marks.join(', ')}`}`,
      );
    }
    if (options.readActions) lines.push(`  ${actionsText(item.readActions)}`);
  }
  return lines.join('\n');
}

const GET_KEYS = known<GetFileOutput>(
  ...ANSWERED_FROM,
  'fileId',
  'sourceFileId',
  'path',
  'title',
  'fileKind',
  'description',
  'frontmatter',
  'contentAvailable',
  'state',
  'generatedOutputStatus',
  'readActions',
  'revision',
  'locale',
  'sections',
  'headings',
);

function fileText(output: GetFileOutput, options: ToolTextOptions): string {
  const lines = [
    `${fileLine(output.path, output.fileId, output.sourceFileId)} · title: ${plain(output.title)} · ${output.fileKind}`,
    `state ${output.state} · generatedOutputStatus ${output.generatedOutputStatus} · contentAvailable ${output.contentAvailable}`,
    `revision: ${inline(output.revision)} · activeContentRevision: ${inline(output.activeContentRevision)}${output.version === undefined ? '' : ` · version: ${plain(output.version)}`}${output.locale === null ? '' : ` · locale: ${plain(output.locale)}`}`,
  ];
  if (output.description !== null) lines.push(`description: ${plain(output.description)}`);
  if (Object.keys(output.frontmatter).length > 0)
    lines.push(`frontmatter: ${JSON.stringify(output.frontmatter)}`);
  if (options.readActions) lines.push(actionsText(output.readActions));
  lines.push(...extraLines(output as never, GET_KEYS));
  if (output.sections.length > 0) {
    lines.push('sections (code points of own text / with subsections), nested by depth:');
    // Indentation says the parent when the list is in document order; a parent it cannot say is written.
    const open: string[] = [];
    for (const section of output.sections) {
      open.length = Math.min(open.length, section.depth - 1);
      const implied =
        open.length === section.depth - 1 ? (open[open.length - 1] ?? null) : undefined;
      const parent = implied === section.parentId ? '' : ` (parent ${inline(section.parentId)})`;
      lines.push(
        `${'  '.repeat(section.depth - 1)}- ${plain(section.id)}${parent}: ${section.selfChars} / ${section.subtreeChars}`,
      );
      open[section.depth - 1] = section.id;
    }
  }
  if (output.headings.length > 0) {
    lines.push('headings (code points of each range), indented by depth:');
    for (const heading of output.headings)
      lines.push(
        `${'  '.repeat(heading.depth - 1)}${'#'.repeat(heading.depth)} ${headingText(heading)} ${heading.chars}`,
      );
  }
  return lines.join('\n');
}

const RELATED_KEYS = known<ReadRelatedOutput>('fileId', 'items', 'nextCursor');

function relatedText(output: ReadRelatedOutput): string {
  const lines = [`${output.items.length} related to fileId ${plain(output.fileId)}`];
  if (output.nextCursor !== null) lines.push(`nextCursor: ${plain(output.nextCursor)}`);
  lines.push(...extraLines(output as never, RELATED_KEYS));
  for (const item of output.items) {
    const section = item.sectionId === null ? '' : ` · sectionId ${plain(item.sectionId)}`;
    lines.push(
      `- ${fileLine(item.path, item.fileId)} · title: ${plain(item.title)} · ${item.relationType} ${item.direction} ${shortNumber(item.weight)}${section} · ${plain(item.reason)}`,
    );
  }
  return lines.join('\n');
}

const GRAPH_KEYS = known<ExpandGraphOutput>(
  ...ANSWERED_FROM,
  'seedFile',
  'relationships',
  'graphPaths',
  'nextCursor',
);

function graphText(output: ExpandGraphOutput, options: ToolTextOptions): string {
  const lines = [
    `seedFile ${fileLine(output.seedFile.path, output.seedFile.fileId)} · ${output.relationships.length} relationships (activeContentRevision ${inline(output.activeContentRevision)}${versionText(output)})`,
  ];
  if (output.nextCursor !== null) lines.push(`nextCursor: ${plain(output.nextCursor)}`);
  lines.push(...extraLines(output as never, GRAPH_KEYS));
  for (const edge of output.relationships) {
    lines.push(
      `- depth ${edge.depth} via ${plain(edge.viaFileId)}: ${fileLine(edge.path, edge.fileId)} · title: ${plain(edge.title)} · ${edge.relationType} ${edge.direction} ${shortNumber(edge.weight)}`,
    );
    if (options.readActions) lines.push(`  ${actionsText(edge.readActions)}`);
  }
  if (output.graphPaths.length > 0)
    lines.push(`graphPaths: ${output.graphPaths.map(plain).join(', ')}`);
  return lines.join('\n');
}

/**
 * `, version LABEL` for a header: the version that answered (its `publishedAt` is left to
 * `structuredContent`); nothing for an output of a source that names none (an earlier server's).
 */
function versionText(output: { readonly version?: string }): string {
  return output.version === undefined ? '' : `, version ${plain(output.version)}`;
}

/** `path: … · fileId: …`, and `sourceFileId` when it differs from the file ID. */
function fileLine(path: string, fileId: string, sourceFileId?: string | null): string {
  const source =
    sourceFileId === undefined || sourceFileId === fileId
      ? ''
      : ` · sourceFileId: ${sourceFileId === null ? 'null' : plain(sourceFileId)}`;
  return `path: ${plain(path)} · fileId: ${plain(fileId)}${source}`;
}

/** `readActions: key url, …`. */
function actionsText(actions: KnowledgeReadActions): string {
  const pairs = Object.entries(actions).map(([key, url]) => `${key} ${plain(String(url))}`);
  return `readActions: ${pairs.join(', ')}`;
}
