/** What a command writes to and how it fails: streams passed in, so a command is a plain function. */
import type { KnowledgeError } from '../errors/KnowledgeError.js';

/** The process's output streams, as a command uses them. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean | undefined };
}

/** Exit codes: 0 success, 1 problems found, 2 usage or I/O error. */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

/**
 * A failure that ends the command with `exitCode` after printing `message` (one line, to stderr).
 * Usage and I/O errors use 2; problems in the knowledge use 1.
 */
export class CliExit extends Error {
  override readonly name = 'CliExit';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}

/** The one-line exit 2 for a folder or file that cannot be read (`READ_FAILED`). */
export function readFailed(command: string, error: KnowledgeError): CliExit {
  return new CliExit(
    `knowledge-kit ${command}: ${error.issues[0]!.message.replace(/^loadKnowledgeDirectory: /, '')}`,
  );
}
