/**
 * The folder layer's one internal entry, for the package's command line (`src/cli`): the folder reading
 * behind `loadKnowledgeDirectory`, with every problem and progress, and its whole-file writes. Not a
 * package export; everything public comes from `./index.ts`. `test/layers.test.ts` allows the command
 * line these two entries and nothing else of this layer.
 *
 * @module
 */
export { readKnowledgeDirectory } from './readKnowledgeDirectory.js';
export { loadKnowledgeDirectoryWith } from './loadKnowledgeDirectory.js';
export { linkRootOf } from './linkRootOf.js';
export { noMarkdownFiles } from './walk.js';
export { temporaryBeside, writeWhole } from './writeWhole.js';
