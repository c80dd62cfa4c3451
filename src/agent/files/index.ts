/** Internal barrel of the file table: pages, navigation files, the directory tree, `index.md`. */
export { buildFileTable } from './buildFileTable.js';
export { renderIndexMarkdown } from './renderIndexMarkdown.js';
export { cutCodePoints, plainInline, summarize } from './summarize.js';
