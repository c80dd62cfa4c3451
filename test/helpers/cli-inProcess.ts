/**
 * The command line in this process: `cliInProcess` runs it with its output captured (for commands
 * that open a database), and `loadInProcess` loads the same folder through the public Node loader and
 * catalog source: what the command's output must equal.
 */
import { runCli } from '../../src/cli/run.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { createCatalogSource } from '../../src/agent/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import type { LoadedKnowledgeDirectory } from '../../src/node/index.js';
import type { KnowledgeSelection, KnowledgeSnapshot } from '../../src/types.js';
import { folderName } from './cli-knowledge.js';

/** The folder loaded, and a catalog source on it with the ID the command uses (the folder's name unless given). */
export async function loadInProcess(
  dir: string,
  id: string = folderName(dir),
): Promise<{ readonly loaded: LoadedKnowledgeDirectory; readonly source: KnowledgeSource }> {
  const loaded = await loadKnowledgeDirectory(dir);
  return {
    loaded,
    source: createCatalogSource(loaded.catalog, {
      id,
      files: loaded.files,
      linkRoot: loaded.linkRoot,
    }),
  };
}

/** `catalog.read` without a size limit. */
export function readAll(
  loaded: LoadedKnowledgeDirectory,
  documentId: string,
  selection: KnowledgeSelection,
): KnowledgeSnapshot {
  return loaded.catalog.read({ documentId, selection, maxChars: Number.MAX_SAFE_INTEGER });
}

/** Unicode code points in `text`. */
export function codePoints(text: string): number {
  return [...text].length;
}

/** How a run ended and what it printed. */
export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `knowledge-kit …args` in process, capturing stdout and stderr.
 *
 * @param args - the arguments after `knowledge-kit`.
 * @returns the exit code and the output.
 */
export async function cliInProcess(args: readonly string[]): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}
