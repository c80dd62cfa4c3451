/**
 * Static bundles: the builder behind the export and the bundle's formats, for `src/agent/internals.ts`
 * (the source over a bundle, `createStaticSource`, is exported from `src/agent/index.ts` directly).
 */
export { buildKnowledgeBundle } from './buildKnowledgeBundle.js';
export type { EarlierExport, KnowledgeBundleOptions } from './buildKnowledgeBundle.js';
export { BUNDLE_FORMAT, BUNDLE_PATHS } from './bundleFormat.js';
export type { BundleManifest } from './bundleFormat.js';
export {
  parseVersionsFile,
  versionBundleDir,
  versionsFileText,
  VERSIONS_FORMAT,
  VERSIONS_PATH,
} from './versionsFile.js';
export type { BundleVersionEntry, BundleVersions } from './versionsFile.js';
