/** The command line run in this process, its output captured: for commands that open a database. */
import { runCli } from '../../src/cli/run.js';

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
