/** Internal barrel of the file table: pages, navigation files, the directory tree, `index.md`. */
export { buildFileTable } from './buildFileTable.js';
export { checkFilesEntry } from './checkFilesEntry.js';
export type { CheckedFilesEntry } from './checkFilesEntry.js';
export { renderIndexMarkdown } from './renderIndexMarkdown.js';
export { collapseWhitespace, cutCodePoints, plainInline, summarize } from './summarize.js';
export type { TextSummary } from './summarize.js';
export { pageHeadings } from './pageHeadings.js';
export type { PageHeading } from './pageHeadings.js';
