/**
 * `read_file`: one file's content, by `fileId` or `path`; a page read is a citable snapshot.
 *
 * @module
 */
import { atLeastArg, enumArg, stringArg, stringsArg } from '../args.js';
import { defineTool } from '../defineTool.js';
import { READ_FILE_OUTPUT_SCHEMA } from './outputSchema.js';

const READ_ARGS = ['sectionIds', 'mode', 'maxChars'] as const;

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
    'Track fileId and path to avoid rereads. On CONTENT_TOO_LARGE, call get_file for section sizes and read by sectionIds.',
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
    mode: enumArg(
      ['self', 'subtree'],
      'subtree',
      'With sectionIds: "self" reads each section\'s own text, "subtree" includes its subsections.',
    ),
    maxChars: atLeastArg(
      1,
      'Largest content you accept, in code points; over the limit the read fails with CONTENT_TOO_LARGE (nothing is cut). null means the server limit.',
    ),
  },
  outputSchema: READ_FILE_OUTPUT_SCHEMA,
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
      const hasId = input['fileId'] !== undefined && input['fileId'] !== null;
      const hasPath = input['path'] !== undefined && input['path'] !== null;
      return hasId === hasPath
        ? '`read_file` needs exactly one of `fileId` and `path`.'
        : undefined;
    },
  },
});
