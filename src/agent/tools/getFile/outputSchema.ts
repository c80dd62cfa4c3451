/**
 * The output JSON Schema of `get_file`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import type { FileHeadingInfo, FileSectionInfo, GetFileOutput } from './types.js';
import { deepFreeze } from '../../../shared/deepFreeze.js';
import {
  CONTENT_AVAILABLE,
  FILE_STATE,
  GENERATED_OUTPUT_STATUS,
  FILE_KIND,
  FRONTMATTER,
  READ_ACTIONS,
  SOURCE_FILE_ID,
  arrayOf,
  nullable,
  objectSchema,
  typed,
  ANSWERED_FROM,
} from '../schemas/common.js';

const SECTION = objectSchema<FileSectionInfo>(
  'A section of the page, with the sizes a read of it returns.',
  {
    id: typed('string', 'The section ID, to pass in read_file sectionIds.'),
    parentId: nullable('string', 'The enclosing section ID; null at top level.'),
    depth: { type: 'integer', minimum: 1, description: 'Nesting depth, 1 at top level.' },
    selfChars: {
      type: 'integer',
      minimum: 0,
      description: 'Code points of a read of this section in mode "self".',
    },
    subtreeChars: {
      type: 'integer',
      minimum: 0,
      description: 'Code points of a read of this section in mode "subtree".',
    },
  },
);

const HEADING = objectSchema<FileHeadingInfo>(
  'A heading of the page, with the size of a read of it.',
  {
    id: typed('string', 'The heading ID, to pass in read_file heading.'),
    text: typed('string', 'The heading text.'),
    depth: { type: 'integer', minimum: 1, maximum: 6, description: 'Heading level, 1 to 6.' },
    chars: {
      type: 'integer',
      minimum: 0,
      description:
        'Code points of a read of this heading (up to the next heading of the same or a higher level).',
    },
  },
);

/** Output of `get_file` (`GetFileOutput`). */
export const GET_FILE_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema<GetFileOutput>('Metadata of one file.', {
    ...ANSWERED_FROM,
    fileId: typed('string', 'The file ID.'),
    sourceFileId: SOURCE_FILE_ID,
    path: typed('string', 'The file path.'),
    title: typed('string', 'The file title.'),
    fileKind: FILE_KIND,
    description: nullable('string', 'A short summary; null when the page has none.'),
    frontmatter: FRONTMATTER,
    contentAvailable: CONTENT_AVAILABLE,
    state: FILE_STATE,
    generatedOutputStatus: GENERATED_OUTPUT_STATUS,
    readActions: READ_ACTIONS,
    revision: {
      type: ['string', 'integer'],
      description: "The page's revision (for navigation files, the knowledge base's).",
    },
    locale: nullable('string', 'The page locale; null when none.'),
    sections: arrayOf(SECTION, 'Sections in source order; [] for navigation files.'),
    headings: arrayOf(HEADING, 'Headings outside code in page order; [] for navigation files.'),
  }),
);
