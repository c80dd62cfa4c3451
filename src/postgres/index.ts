/**
 * `knowledge-kit/postgres`: a PostgreSQL knowledge store. Many knowledge bases in one database, each
 * published by revision (`publishKnowledge`, in one transaction), read by any number of processes
 * (`createPostgresSource`, a `KnowledgeSource` with the same outputs as `createCatalogSource`), each
 * in one or more labelled versions (`listKnowledgeVersions`, `setDefaultKnowledgeVersion`,
 * `unpublishKnowledgeVersion`).
 * `db` is anything with `query(text, params)`: `pg` and PGlite both fit, and neither is a dependency.
 *
 * @module
 */
export { createPostgresSource } from './createPostgresSource.js';
export { listKnowledgeBases } from './listKnowledgeBases.js';
export { migrateKnowledgeStore } from './migrateKnowledgeStore.js';
export { publishKnowledge } from './publishKnowledge.js';
export {
  listKnowledgeVersions,
  setDefaultKnowledgeVersion,
  unpublishKnowledgeVersion,
} from './versions.js';
export type {
  KnowledgeDatabase,
  KnowledgeQueryResult,
  KnowledgeStoreMigration,
  KnowledgeStoreOptions,
  ListKnowledgeVersionsOptions,
  PostgresSourceOptions,
  PublishedKnowledge,
  PublishKnowledgeOptions,
  SetDefaultKnowledgeVersionOptions,
  StoredKnowledgeBase,
  StoredKnowledgeVersion,
  UnpublishedKnowledgeVersion,
  UnpublishKnowledgeVersionOptions,
} from './types.js';
