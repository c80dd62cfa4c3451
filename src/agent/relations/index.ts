/** Internal barrel of page relationships and the Markdown link scanner they are built on. */
export { buildRelations } from './buildRelations.js';
export { linkRootProblem, readLinkRoot } from './readLinkRoot.js';
export type { LinkCounts } from './buildRelations.js';
export { pageForms, resolveLink } from './resolveLink.js';
export { scanLinks } from './scanLinks.js';
