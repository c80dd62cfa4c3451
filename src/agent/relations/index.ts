export { buildRelations } from './buildRelations.js';
export { resolveLink } from './resolveLink.js';
export { scanLinks } from './scanLinks.js';
export type { LinkRef } from './scanLinks.js';
