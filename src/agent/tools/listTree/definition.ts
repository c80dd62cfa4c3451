/**
 * `list_tree`: the direct children of a directory, directories first.
 *
 * @module
 */
import { CURSOR_ARG, rangeArg, stringArg } from '../args.js';
import { defineTool } from '../defineTool.js';
import { listTree } from './run.js';
import { CURSOR_ADVICE } from '../schemas/common.js';
import { LIST_TREE_OUTPUT_SCHEMA } from './outputSchema.js';

/** The `list_tree` tool. */
export const listTreeTool = defineTool({
  name: 'list_tree',
  method: 'listTree',
  title: 'List knowledge files',
  description: [
    'List the files and directories directly under parentPath: directories first, then files.',
    'Use it with index.md to discover files when search_files finds nothing; read pages (pages/**) before answering.',
    CURSOR_ADVICE,
  ].join(' '),
  args: {
    parentPath: stringArg({
      description:
        'Directory to list, such as "pages", without leading or trailing "/"; "" (the default) is the root.',
    }),
    cursor: CURSOR_ARG,
    limit: rangeArg(1, 200, 50, 'Items per page,'),
  },
  outputSchema: LIST_TREE_OUTPUT_SCHEMA,
  run: listTree,
  reads: () => ({ listing: true }),
  inputOptional: true,
  http: { routes: [{ id: 'tree', listed: 1, path: '/tree' }] },
  client: { shape: { items: 'array' } },
});
