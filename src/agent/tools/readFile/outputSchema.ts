/**
 * The output JSON Schema of `read_file`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import type {
  ContentRange,
  ReadFileOutput,
  ReadFileRecord,
  ReadHeading,
  ReadSelection,
} from './types.js';
import { deepFreeze } from '../../../shared/deepFreeze.js';
import {
  CURSOR_RESTARTED,
  FRONTMATTER,
  READ_ACTIONS,
  SOURCE_FILE_ID,
  nullable,
  objectSchema,
  optional,
  typed,
  ANSWERED_FROM,
} from '../schemas/common.js';

const SELECTION: JsonSchema = {
  description:
    'What was read: the whole document, or sections in a mode; null for navigation files.',
  anyOf: [
    objectSchema<Extract<ReadSelection, { readonly mode: 'document' }>>('The whole document.', {
      mode: { type: 'string', enum: ['document'], description: 'The whole document.' },
    }),
    objectSchema<Exclude<ReadSelection, { readonly mode: 'document' }>>(
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
    ),
    { type: 'null', description: 'A navigation file: no selection.' },
  ],
};

const FILE = objectSchema<ReadFileRecord>('The file read.', {
  ...ANSWERED_FROM,
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
    'The snapshot ID to cite for this content (of the whole selection, also for a part); null for navigation files, which are not evidence.',
  ),
  heading: optional(
    objectSchema<ReadHeading>(
      'Present only on a heading read: the heading and its range [start, end) in code points of the whole page text (the snapshot snapshotId names).',
      {
        id: typed('string', 'The heading ID.'),
        text: typed('string', 'The heading text.'),
        depth: { type: 'integer', minimum: 1, maximum: 6, description: 'Heading level, 1 to 6.' },
        start: {
          type: 'integer',
          minimum: 0,
          description: 'First code point of the range in the whole page.',
        },
        end: {
          type: 'integer',
          minimum: 0,
          description: 'Code point after the range in the whole page.',
        },
      },
    ),
  ),
  contentRange: optional(
    objectSchema<ContentRange>(
      'Present only on a part of a text over the limit: which code points of the selected text (of a heading read: of the heading range) it holds, [start, end) of total.',
      {
        start: { type: 'integer', minimum: 0, description: 'First code point of the part.' },
        end: { type: 'integer', minimum: 1, description: 'Code point after the part.' },
        total: { type: 'integer', minimum: 1, description: 'Code points of the whole selection.' },
      },
    ),
  ),
});

/** Output of `read_file` (`ReadFileOutput`). */
export const READ_FILE_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema<ReadFileOutput>('The file and its content, or one part of it.', {
    file: FILE,
    content: typed(
      'string',
      'The Markdown content read (a part when file.contentRange is present).',
    ),
    nextCursor: nullable(
      'string',
      'Pass as `cursor` (alone) for the next part; null when the content is whole or the last part.',
    ),
    message: optional(
      typed(
        'string',
        'Present only on a part: which part it is, how to go on, and the top-level sections to read by sectionIds instead.',
      ),
    ),
    cursorRestarted: optional(CURSOR_RESTARTED),
  }),
);
