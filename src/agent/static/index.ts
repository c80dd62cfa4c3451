/**
 * Static bundles: a knowledge base as files any static host serves, and a source over them.
 */
export { buildKnowledgeBundle } from './buildKnowledgeBundle.js';
export type { KnowledgeBundle, KnowledgeBundleOptions } from './buildKnowledgeBundle.js';
export { createStaticSource } from './createStaticSource.js';
export type { StaticSourceOptions } from './createStaticSource.js';
export type { StaticBundleRead } from './bundleReader.js';
export { BUNDLE_FORMAT, BUNDLE_PATHS, BUNDLE_VERSION } from './bundleFormat.js';
export type { BundleFiles, BundleManifest, BundlePage, SearchManifest } from './bundleFormat.js';
