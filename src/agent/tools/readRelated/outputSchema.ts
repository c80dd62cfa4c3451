/**
 * The output JSON Schema of `read_related`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import type { ReadRelatedOutput, RelatedItem } from './types.js';
import { deepFreeze } from '../../../shared/deepFreeze.js';
import {
  DIRECTION,
  NEXT_CURSOR,
  CURSOR_RESTARTED,
  RELATION_TYPE,
  arrayOf,
  nullable,
  objectSchema,
  optional,
  typed,
} from '../schemas/common.js';

const ITEM = objectSchema<RelatedItem>('A related page: a discovery hint, not evidence.', {
  fileId: typed('string', 'The related page fileId.'),
  path: typed('string', 'The related page path.'),
  title: typed('string', 'The related page title.'),
  relationType: RELATION_TYPE,
  direction: DIRECTION,
  weight: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    description: 'Strength in [0, 1]: links 1, shared tags the Jaccard index of the tag sets.',
  },
  reason: typed('string', 'The relationship in words.'),
  contentAvailable: {
    type: 'boolean',
    enum: [true],
    description: 'Always true: the content can be read.',
  },
  sectionId: nullable('string', "The section a link's #fragment names; else null."),
});

/** Output of `read_related` (`ReadRelatedOutput`). */
export const READ_RELATED_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema<ReadRelatedOutput>('Pages related to fileId, strongest first.', {
    fileId: typed('string', 'The page asked about.'),
    items: arrayOf(ITEM, 'One item per (page, relationType), by weight.'),
    nextCursor: NEXT_CURSOR,
    cursorRestarted: optional(CURSOR_RESTARTED),
  }),
);
