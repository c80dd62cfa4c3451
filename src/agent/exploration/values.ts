/**
 * The value helpers the exploration layer uses: plain-object checks and code-point counts (the core's,
 * `src/shared/values.ts` and `src/shared/codePoints.ts`) and short descriptions of bad values.
 */
export { isPlainObject } from '../../shared/values.js';
export { countCodePoints as codePointLength } from '../../shared/codePoints.js';
export { show } from '../../shared/show.js';
