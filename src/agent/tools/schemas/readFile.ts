/**
 * JSON Schemas of `read_file`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import { deepFreeze } from './deepFreeze.js';
import {
  FRONTMATTER,
  READ_ACTIONS,
  REVISION,
  SOURCE_FILE_ID,
  nullable,
  nullableEnum,
  objectSchema,
  typed,
} from './common.js';

/**
 * Input of `read_file` (`ReadFileInput`). "Exactly one of fileId and path" is not expressed in the
 * schema (strict tool schemas cannot say it); both are optional and nullable and the tool refuses
 * both or neither with `INVALID_ARGUMENT`.
 */
export const READ_FILE_INPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema(
    'Arguments of read_file. Give exactly one of fileId and path (set the other to null); both or neither is INVALID_ARGUMENT.',
    {
      fileId: nullable('string', 'A fileId returned by another tool; null when reading by path.'),
      path: nullable(
        'string',
        'A path returned by another tool or a Markdown link, such as "pages/guide.md" or "index.md"; null when reading by fileId.',
      ),
      sectionIds: {
        type: ['array', 'null'],
        items: typed('string', 'A section ID from get_file.'),
        description:
          'Read only these sections of a page (IDs from get_file); null reads the whole page. Navigation files refuse it.',
      },
      mode: nullableEnum(
        ['self', 'subtree'],
        'subtree',
        'With sectionIds: "self" reads each section\'s own text, "subtree" includes its subsections.',
      ),
      maxChars: {
        type: ['integer', 'null'],
        minimum: 1,
        description:
          'Largest content you accept, in code points; over the limit the read fails with CONTENT_TOO_LARGE (nothing is cut). null means the server limit.',
      },
    },
    [],
  ),
);

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
