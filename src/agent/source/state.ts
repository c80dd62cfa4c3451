/**
 * What one catalog source holds: the catalog, its file table, relationships, search engine, limits,
 * and the generated texts of its navigation files (built on first read). Immutable after creation.
 */
import type { KnowledgeCatalog } from '../../types.js';
import type { FileTable, RelationTable } from '../model.js';
import type { SearchEngine } from '../search/port.js';
import type { FileSectionInfo } from '../tools/getFile/types.js';
import type { ScopeDefaults } from './callScope.js';
import type { CursorSigner } from './cursorKey.js';

/** The state every method of a catalog source reads. */
export interface SourceState {
  readonly catalog: KnowledgeCatalog;
  readonly table: FileTable;
  readonly relations: RelationTable;
  readonly engine: SearchEngine;
  readonly defaults: ScopeDefaults;
  /** Signs and checks cursors (`options.cursorKey`, or the process's random key). */
  readonly cursors: CursorSigner;
  /** The source's version label (`options.version`, default `current`): every output names it. */
  readonly version: string;
  /** When this state's revision was published or loaded (ISO 8601): every output carries it. */
  readonly publishedAt: string;
  /** `options.maxReadChars`, default 20,000. */
  readonly maxReadChars: number;
  /** The text of a navigation file (cached). */
  navText(fileId: string): string;
  /** Section sizes of a page (cached). */
  sectionSizes(documentId: string): readonly SectionSize[];
}

/** A section of a page with its place and the sizes a read returns: `get_file`'s section record. */
export type SectionSize = FileSectionInfo;
