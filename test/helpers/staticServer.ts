/**
 * A plain static file server on loopback (node:http): what any web host does with a bundle. GET and
 * HEAD of a file under its folder (the URL path percent-decoded once), 404 otherwise; it counts the
 * requests and the bytes it sent, for the tests and the bench.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/** A running server. */
export interface StaticServer {
  /** The URL of the folder's root, ending with `/`. */
  readonly url: string;
  /** Requests answered, and bytes of bodies sent, since the start or the last `reset()`. */
  readonly stats: { requests: number; bytes: number; paths: string[] };
  reset(): void;
  close(): Promise<void>;
}

/**
 * Serve `dir` on 127.0.0.1 at a free port.
 *
 * @param dir - the folder.
 */
export async function serveStaticFolder(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const stats = { requests: 0, bytes: 0, paths: [] as string[] };
  const server: Server = createServer((request, response) => {
    void (async () => {
      stats.requests++;
      const url = new URL(request.url ?? '/', 'http://localhost');
      let path: string;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        response.writeHead(400).end();
        return;
      }
      stats.paths.push(path);
      const file = join(root, ...path.split('/'));
      if (!file.startsWith(root + sep)) {
        response.writeHead(404).end();
        return;
      }
      try {
        const body = await readFile(file);
        stats.bytes += body.length;
        const type = file.endsWith('.json')
          ? 'application/json'
          : file.endsWith('.md')
            ? 'text/markdown; charset=utf-8'
            : 'text/plain; charset=utf-8';
        response.writeHead(200, { 'content-type': type, 'content-length': body.length });
        response.end(request.method === 'HEAD' ? undefined : body);
      } catch {
        response.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    stats,
    reset() {
      stats.requests = 0;
      stats.bytes = 0;
      stats.paths = [];
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
