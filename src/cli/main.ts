#!/usr/bin/env node
/**
 * The `knowledge-kit` command line (the package's `bin`): check, outline, read, search, serve, mcp.
 *
 * @module
 */
import { runCli } from './run.js';

// `knowledge-kit check | head` closes stdout early: stop quietly, as grep and ls do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
});
