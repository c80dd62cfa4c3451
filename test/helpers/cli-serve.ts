/** `knowledge-kit serve` as a running child: its knowledge-base URL, the curl lines it printed, its request log. */
import { execFileSync } from 'node:child_process';
import type { KnowledgeCallContext } from '../../src/agent/types.js';
import { startCli, type RunningCli, type RunOptions } from './cli.js';

/** A running `serve`, once it printed its URL. */
export interface Served {
  readonly cli: RunningCli;
  /** `KNOWLEDGE_BASE_URL` as printed. */
  readonly url: string;
}

/**
 * Starts `serve …args` and waits for the `export KNOWLEDGE_BASE_URL=…` line.
 *
 * @param timeoutMs - how long to wait for that line (longer for tests that start several at once).
 */
export async function startServe(
  args: readonly string[],
  options: RunOptions = {},
  timeoutMs = 15_000,
): Promise<Served> {
  const cli = startCli(['serve', ...args], options);
  const match = await cli.stdoutMatch(/^export KNOWLEDGE_BASE_URL=(\S+)$/m, timeoutMs);
  return { cli, url: match[1]! };
}

/** The context the HTTP handler passes to the source for knowledge base `id` under `basePath`. */
export function httpContext(id: string, basePath = ''): KnowledgeCallContext {
  return {
    actionBase: `${basePath}/knowledge-bases/${encodeURIComponent(id)}`,
    knowledgeBaseId: id,
  };
}

/** GETs `url` and returns the status, the headers and the body parsed as JSON. */
export async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ readonly status: number; readonly headers: Headers; readonly body: unknown }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/** The request log lines `METHOD path status N ms` in `stderr`. */
export function requestLog(
  stderr: string,
): { readonly method: string; readonly path: string; readonly status: number }[] {
  return [...stderr.matchAll(/^([A-Z]+) (\S+) (\d{3}) \d+(?:\.\d+)? ms$/gm)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
    status: Number(m[3]),
  }));
}

/** Whether a `curl` binary runs here. */
export const HAS_CURL = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
})();
