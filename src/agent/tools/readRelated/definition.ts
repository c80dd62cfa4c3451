/**
 * `read_related`: pages related to one page by links and shared tags.
 *
 * @module
 */
import { CURSOR_ARG, rangeArg, stringArg } from '../args.js';
import { defineTool } from '../defineTool.js';
import { readRelated } from './run.js';
import { planString } from '../../source/readPlan.js';
import { CURSOR_ADVICE } from '../schemas/common.js';
import { READ_RELATED_OUTPUT_SCHEMA } from './outputSchema.js';

/** The `read_related` tool. */
export const readRelatedTool = defineTool({
  name: 'read_related',
  method: 'readRelated',
  title: 'Read related knowledge files',
  description: [
    'List pages related to one page: links to and from it, and pages sharing its tags, strongest first.',
    'Relationships are discovery hints, not evidence: read a related page with read_file before using it, and skip pages already read.',
    CURSOR_ADVICE,
  ].join(' '),
  args: {
    fileId: stringArg({ description: 'The fileId of a page.', required: true, nonEmpty: true }),
    cursor: CURSOR_ARG,
    limit: rangeArg(1, 50, 20, 'Items per page,'),
  },
  outputSchema: READ_RELATED_OUTPUT_SCHEMA,
  run: readRelated,
  reads: (args) => ({ file: { fileId: planString(args['fileId']), path: null }, related: true }),
  http: { routes: [{ id: 'related', listed: 5, path: '/files/:fileId/related' }] },
  client: { shape: { items: 'array' } },
});
