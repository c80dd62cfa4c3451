/**
 * The output JSON Schema of `list_tree`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import type { ListTreeOutput, TreeDirectoryItem, TreeFileItem } from './types.js';
import { deepFreeze } from '../../../shared/deepFreeze.js';
import {
  CONTENT_AVAILABLE,
  FILE_STATE,
  GENERATED_OUTPUT_STATUS,
  FILE_KIND,
  NEXT_CURSOR,
  CURSOR_RESTARTED,
  READ_ACTIONS,
  VERSIONS,
  SOURCE_FILE_ID,
  objectSchema,
  optional,
  typed,
  ANSWERED_FROM,
} from '../schemas/common.js';

const FILE_ITEM = objectSchema<TreeFileItem>('A file.', {
  fileId: typed('string', 'The file ID to pass to get_file, read_file and read_related.'),
  sourceFileId: SOURCE_FILE_ID,
  path: typed('string', 'The file path, also accepted by read_file.'),
  title: typed('string', 'The file title.'),
  entryType: { type: 'string', enum: ['file'], description: 'Always "file".' },
  fileKind: FILE_KIND,
  contentAvailable: CONTENT_AVAILABLE,
  state: FILE_STATE,
  generatedOutputStatus: GENERATED_OUTPUT_STATUS,
  readActions: READ_ACTIONS,
});

const DIRECTORY_ITEM = objectSchema<TreeDirectoryItem>('A directory.', {
  path: typed('string', 'The directory path, to pass as parentPath.'),
  title: typed('string', 'The directory name.'),
  entryType: { type: 'string', enum: ['directory'], description: 'Always "directory".' },
  fileCount: {
    type: 'integer',
    minimum: 0,
    description: 'Files below this directory, at any depth.',
  },
  readActions: READ_ACTIONS,
});

/** Output of `list_tree` (`ListTreeOutput`). */
export const LIST_TREE_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema<ListTreeOutput>(
    'One page of the direct children of parentPath: directories first, then files.',
    {
      ...ANSWERED_FROM,
      versions: optional(VERSIONS),
      items: {
        type: 'array',
        description: 'Directories, then files, each in code-point order of their names.',
        items: { anyOf: [DIRECTORY_ITEM, FILE_ITEM] },
      },
      nextCursor: NEXT_CURSOR,
      cursorRestarted: optional(CURSOR_RESTARTED),
    },
  ),
);
