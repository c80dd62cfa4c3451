export { buildFileTable, compareCodePoints, graphFilePath } from './buildFileTable.js';
export { renderIndexMarkdown } from './renderIndexMarkdown.js';
export { plainInline, summarize } from './summarize.js';
