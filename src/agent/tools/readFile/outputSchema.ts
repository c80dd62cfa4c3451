/**
 * The output JSON Schema of `read_file`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import { deepFreeze } from '../../../internal/deepFreeze.js';
import {
  FRONTMATTER,
  READ_ACTIONS,
  REVISION,
  SOURCE_FILE_ID,
  nullable,
  objectSchema,
  typed,
} from '../schemas/common.js';

const SELECTION: JsonSchema = {
  description:
    'What was read: the whole document, or sections in a mode; null for navigation files.',
  anyOf: [
    objectSchema(
      'The whole document.',
      { mode: { type: 'string', enum: ['document'], description: 'The whole document.' } },
      ['mode'],
    ),
    objectSchema(
      'Sections of the document.',
      {
        mode: {
          type: 'string',
          enum: ['self', 'subtree'],
          description: 'Own text only, or with subsections.',
        },
        sectionIds: {
          type: 'array',
          items: typed('string', 'A section ID.'),
          description: 'The sections read, in order.',
        },
      },
      ['mode', 'sectionIds'],
    ),
    { type: 'null', description: 'A navigation file: no selection.' },
  ],
};

const FILE = objectSchema(
  'The file read.',
  {
    activeContentRevision: REVISION,
    fileId: typed('string', 'The file ID.'),
    sourceFileId: SOURCE_FILE_ID,
    path: typed('string', 'The file path.'),
    title: typed('string', 'The file title.'),
    frontmatter: FRONTMATTER,
    readActions: READ_ACTIONS,
    revision: {
      type: ['string', 'integer'],
      description: "The page's revision (for navigation files, the knowledge base's).",
    },
    locale: nullable('string', 'The page locale; null when none.'),
    selection: SELECTION,
    snapshotId: nullable(
      'string',
      'The snapshot ID to cite for this content; null for navigation files, which are not evidence.',
    ),
  },
  [
    'activeContentRevision',
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
  ],
);

/** Output of `read_file` (`ReadFileOutput`). */
export const READ_FILE_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema(
    'The file and its content.',
    { file: FILE, content: typed('string', 'The Markdown content read.') },
    ['file', 'content'],
  ),
);
