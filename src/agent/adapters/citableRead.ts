/**
 * What the citation adapters accept: a `read_file` output, or a core snapshot with the file it came
 * from. Navigation files (no snapshot) are refused: they are never evidence.
 *
 * @module
 */
import type { KnowledgeSnapshot } from '../../types.js';
import type { KnowledgeReadActions } from '../types.js';
import type { ReadFileOutput } from '../tools/readFile/types.js';

/** The file a snapshot was read from: at least its title and path. */
export interface CitableFile {
  readonly title: string;
  readonly path: string;
  readonly readActions?: KnowledgeReadActions | undefined;
}

/** A read, normalized for citation. */
export interface CitableRead {
  readonly snapshotId: string;
  readonly revision: string;
  readonly title: string;
  readonly path: string;
  readonly readActions: KnowledgeReadActions;
  readonly content: string;
}

/**
 * Normalize either form.
 *
 * @throws {TypeError} for a navigation file (`snapshotId` null) or a value of neither form.
 */
export function citableRead(
  call: string,
  readOrSnapshot: ReadFileOutput | KnowledgeSnapshot,
  file: CitableFile | undefined,
): CitableRead {
  if (file !== undefined) {
    const snapshot = readOrSnapshot as KnowledgeSnapshot;
    if (typeof snapshot.id !== 'string' || typeof snapshot.content !== 'string') {
      throw new TypeError(
        `${call}(snapshot, file) needs a snapshot from catalog.read and the file it was read from.`,
      );
    }
    return {
      snapshotId: snapshot.id,
      revision: snapshot.revision,
      title: file.title,
      path: file.path,
      readActions: file.readActions ?? {},
      content: snapshot.content,
    };
  }
  const read = readOrSnapshot as ReadFileOutput;
  if (typeof read.file !== 'object' || read.file === null || typeof read.content !== 'string') {
    throw new TypeError(
      `${call}(read) needs a read_file output { file, content }, or call ${call}(snapshot, file).`,
    );
  }
  if (read.file.snapshotId === null) {
    throw new TypeError(
      `${call}: \`${read.file.path}\` is a navigation file, not evidence; cite the pages (pages/**) read instead.`,
    );
  }
  return {
    snapshotId: read.file.snapshotId,
    revision: String(read.file.revision),
    title: read.file.title,
    path: read.file.path,
    readActions: read.file.readActions,
    content: read.content,
  };
}
