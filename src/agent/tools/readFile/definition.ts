/**
 * `read_file`: one file's content, by `fileId` or `path`; a page read is a citable snapshot.
 *
 * @module
 */
import { atLeastArg, booleanArg, enumArg, stringArg, stringsArg } from '../args.js';
import { defineTool } from '../defineTool.js';
import { readFile } from './run.js';
import { planString } from '../../source/readPlan.js';
import { READ_FILE_OUTPUT_SCHEMA } from './outputSchema.js';

const READ_ARGS = ['sectionIds', 'heading', 'mode', 'maxChars', 'cursor', 'whole'] as const;

/**
 * The `read_file` tool. "Exactly one of fileId and path" is not expressed in the input schema (strict
 * tool schemas cannot say it); both are optional and nullable and the tool refuses both or neither
 * with `INVALID_ARGUMENT`.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  method: 'readFile',
  title: 'Read a knowledge file',
  description: [
    'Read one file by exactly one of fileId or path (set the other to null), using values returned by the other tools or Markdown links.',
    'Pages (pages/**) are answer evidence: answer from them and cite file.snapshotId. index.md and _graph/** are navigation aids, never evidence.',
    'Track fileId and path to avoid rereads.',
    'A text over the limit comes in parts: the first part, cut at a paragraph boundary, with file.contentRange, a message and nextCursor; call read_file with { cursor: nextCursor } alone for the next part, until nextCursor is null.',
    'For a long page, reading only what you need is better than reading every part: sections by sectionIds, or one heading by heading (an ID from get_file headings, which reads from that heading to the next of the same or a higher level; file.heading gives its place in the page).',
  ].join(' '),
  inputDescription:
    'Arguments of read_file. Give exactly one of fileId and path (set the other to null); both or neither is INVALID_ARGUMENT.',
  args: {
    fileId: stringArg({
      description: 'A fileId returned by another tool; null when reading by path.',
      nonEmpty: true,
    }),
    path: stringArg({
      description:
        'A path returned by another tool or a Markdown link, such as "pages/guide.md" or "index.md"; null when reading by fileId.',
      nonEmpty: true,
    }),
    sectionIds: stringsArg(
      'A section ID from get_file.',
      'Read only these sections of a page (IDs from get_file); null reads the whole page. Navigation files refuse it.',
    ),
    heading: stringArg({
      description:
        'A heading ID from get_file headings: read only from that heading to the next heading of the same or a higher level. null reads the whole page (or sectionIds). Not with sectionIds.',
      nonEmpty: true,
    }),
    mode: enumArg(
      ['self', 'subtree'],
      'subtree',
      'With sectionIds: "self" reads each section\'s own text, "subtree" includes its subsections.',
    ),
    maxChars: atLeastArg(
      1,
      'Largest content per answer, in code points (at most the server limit); longer text comes in parts. null means the server limit.',
    ),
    cursor: stringArg({
      description:
        'nextCursor of the previous part, alone (it carries the other arguments) or with the same arguments; null (or absent) for the first part. On STALE_CURSOR start again without it.',
    }),
    whole: booleanArg(
      'true: all or nothing, CONTENT_TOO_LARGE over the limit instead of a first part; null means false.',
    ),
  },
  outputSchema: READ_FILE_OUTPUT_SCHEMA,
  run: readFile,
  reads: (args) => ({
    file: { fileId: planString(args['fileId']), path: planString(args['path']) },
    text: true,
  }),
  http: {
    routes: [
      {
        id: 'contentById',
        listed: 3,
        path: '/files/:fileId/content',
        query: READ_ARGS,
        content: true,
      },
      {
        id: 'contentByPath',
        listed: 4,
        path: '/files/content',
        query: ['path', ...READ_ARGS],
        required: ['path'],
        content: true,
      },
    ],
  },
  client: {
    shape: { file: 'object', content: 'string' },
    check: (input) => {
      const given = (name: string) => input[name] !== undefined && input[name] !== null;
      // A cursor alone carries the file it was issued for.
      if (given('cursor') && !given('fileId') && !given('path')) return undefined;
      return given('fileId') === given('path')
        ? '`read_file` needs exactly one of `fileId` and `path`.'
        : undefined;
    },
  },
});
