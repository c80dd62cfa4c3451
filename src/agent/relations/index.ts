/** Internal barrel of page relationships and the Markdown link scanner they are built on. */
export { buildRelations } from './buildRelations.js';
export { linkRootProblem, readLinkRoot } from './readLinkRoot.js';
export type { BuiltRelations, LinkCounts } from './buildRelations.js';
export { PAGE_PATH_ROOT, pageForms, resolveLink } from './resolveLink.js';
export type { LinkRoot, ResolvedLink } from './resolveLink.js';
export { scanLinks } from './scanLinks.js';
export type { LinkRef } from './scanLinks.js';
export { scanBlocks } from './markdownBlocks.js';
export type { BlockScan, Definition, LeafBlock } from './markdownBlocks.js';
export { scanInline } from './inlineScan.js';
export type { InlineLink, InlineScan } from './inlineScan.js';
