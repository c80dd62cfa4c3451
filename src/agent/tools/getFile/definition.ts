/**
 * `get_file`: one file's metadata and section sizes, without its content.
 *
 * @module
 */
import { stringArg } from '../args.js';
import { defineTool } from '../defineTool.js';
import { getFile } from './run.js';
import { planString } from '../../source/readPlan.js';
import { GET_FILE_OUTPUT_SCHEMA } from './outputSchema.js';

/** The `get_file` tool. */
export const getFileTool = defineTool({
  name: 'get_file',
  method: 'getFile',
  title: 'Get knowledge file metadata',
  description: [
    "Get one file's metadata without its content: title, description, front matter, revision, and its sections and headings with the size of each.",
    'Use it before read_file to choose sectionIds or a heading within your budget; metadata is not evidence.',
  ].join(' '),
  args: {
    fileId: stringArg({
      description: 'A fileId from another tool (exact, case-sensitive).',
      required: true,
      nonEmpty: true,
    }),
  },
  outputSchema: GET_FILE_OUTPUT_SCHEMA,
  run: getFile,
  // A page's headings come from its text; a navigation file (`index.md`, `_graph/…`) has none, so
  // its text (the file list, a page's relationships) is not read.
  reads: (args) => {
    const fileId = planString(args['fileId']);
    const navigation = fileId === 'index.md' || (fileId?.startsWith('_graph/') ?? false);
    return { file: { fileId, path: null }, ...(navigation ? {} : { text: true }) };
  },
  http: { routes: [{ id: 'file', listed: 2, path: '/files/:fileId' }] },
  client: { shape: { fileId: 'string', path: 'string' } },
});
