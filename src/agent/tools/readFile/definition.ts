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

const READ_ARGS = [
  'sectionIds',
  'heading',
  'mode',
  'maxChars',
  'cursor',
  'whole',
  'version',
] as const;

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
    'Read one file by fileId or path, as the other tools or Markdown links give them.',
    'Pages (pages/**) are answer evidence: answer from them and cite file.snapshotId; index.md and _graph/** are navigation aids, never evidence.',
    'Track fileId and path to avoid rereads.',
    'A text over the limit comes in parts, cut at paragraph boundaries, with file.contentRange and nextCursor: call read_file with { cursor: nextCursor } alone for the next part, until nextCursor is null; on STALE_CURSOR start again without it.',
    'For a long page, read only what you need: sections by sectionIds, or one heading by heading (IDs from get_file).',
  ].join(' '),
  inputDescription:
    'Give exactly one of fileId and path (the other null); both or neither is INVALID_ARGUMENT.',
  args: {
    fileId: stringArg({ description: 'A fileId from another tool.', nonEmpty: true }),
    path: stringArg({
      description:
        'A path from another tool or a Markdown link, such as "pages/guide.md" or "index.md".',
      nonEmpty: true,
    }),
    sectionIds: stringsArg(
      'Section IDs from get_file: read only these sections of a page (not of a navigation file).',
    ),
    heading: stringArg({
      description:
        'A heading ID from get_file: read from that heading to the next of the same or a higher level (file.heading gives its place). Not with sectionIds.',
      nonEmpty: true,
    }),
    mode: enumArg(
      ['self', 'subtree'],
      'subtree',
      'With sectionIds: "self" reads each section\'s own text, "subtree" includes its subsections.',
    ),
    maxChars: atLeastArg(1, 'Largest part, in code points; default and most: the server limit.'),
    cursor: stringArg({ description: 'nextCursor of the previous part; null for the first part.' }),
    whole: booleanArg(
      'true: all or nothing, CONTENT_TOO_LARGE over the limit instead of a first part. Default false.',
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
