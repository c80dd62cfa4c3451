/**
 * The value helpers the exploration layer uses: plain-object checks and code-point counts (the core's,
 * `src/internal/values.ts` and `src/internal/codePoints.ts`) and short descriptions of bad values.
 */
export { isPlainObject } from '../../internal/values.js';
export { countCodePoints as codePointLength } from '../../internal/codePoints.js';
export { show } from '../../internal/show.js';
