// Where a small `read_file` spends the server's CPU: the servers of bench/http.mjs (bench/http-server.mjs)
// in a child process under `node --cpu-prof`, this process sending the bench's small read_file over
// 127.0.0.1 (keep-alive, 50 concurrent), then the profile summed per 1,000 reads: by kind of code
// (this package's dist/, Hono and its Node adapter, Node's own, the garbage collector) and the
// functions of this package and Hono by inclusive time. On a machine other work also loads, CPU time
// per request and these sums move far less than requests per second; compare two builds by running
// this on each, one after the other, more than once.
//
//   node scripts/build.mjs && node --expose-gc bench/http-profile.mjs
//
// HTTP_PROFILE_REQUESTS (default 20,000 counted reads after 3,000 not counted) and
// HTTP_PROFILE_TOP (25 functions) change the run; the profile is left in a temporary folder, named.
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REQUESTS = Number(process.env.HTTP_PROFILE_REQUESTS ?? 20_000);
const WARMUP = 3_000;
const TOP = Number(process.env.HTTP_PROFILE_TOP ?? 25);
const CONCURRENCY = 50;
const dir = mkdtempSync(join(tmpdir(), 'http-profile-'));

const child = fork(fileURLToPath(new URL('./http-server.mjs', import.meta.url)), [], {
  execArgv: ['--expose-gc', '--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const ready = await new Promise((resolve, reject) => {
  child.once('message', resolve);
  child.once('error', reject);
});
const ask = (type, answer) =>
  new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.type !== answer) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type });
  });

const { knowledge, smallRead } = ready;
const path = `${knowledge.knowledgeBasePath}/files/${encodeURIComponent(smallRead.fileId)}/content?sectionIds=${smallRead.sectionIds.map(encodeURIComponent).join(',')}&mode=${smallRead.mode}`;
const target = new URL(knowledge.origin);
const headers = { accept: 'application/json', authorization: knowledge.authorization };

/** `count` small reads through `CONCURRENCY` workers; any answer but a 200 stops the run. */
async function load(count) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: target.hostname, port: target.port, path, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) await one();
    }),
  );
  agent.destroy();
  return performance.now() - started;
}

await load(WARMUP);
await ask('gc', 'gc-done');
const wallMs = await load(REQUESTS);
const cpuMicros = (await ask('cpu', 'cpu')).micros;
child.send({ type: 'stop' });
await new Promise((resolve) => child.once('exit', resolve));

// The profile: self time per node, then sums per kind of code and inclusive time per function.
const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
const reads = WARMUP + REQUESTS; // the profile covers the warm-up too
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const id of node.children ?? []) parentOf.set(id, node.id);
const selfMicros = new Map();
profile.samples.forEach((id, i) =>
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const short = (url) =>
  /\/node_modules\//.test(url)
    ? url.replace(/^.*\/node_modules\//, '')
    : url.replace(/^.*\/dist\//, 'dist/');
const kindOf = ({ url, functionName }) =>
  /\/node_modules\/(@hono|hono)\//.test(url)
    ? 'Hono and its Node adapter'
    : /\/node_modules\//.test(url)
      ? 'other packages'
      : /\/dist\//.test(url)
        ? 'this package (dist/)'
        : url.startsWith('node:')
          ? "Node's JavaScript"
          : functionName.startsWith('(')
            ? functionName
            : 'native (V8, syscalls)';
const nameOf = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
const kinds = new Map();
const inclusive = new Map();
for (const [id, micros] of selfMicros) {
  const frame = byId.get(id).callFrame;
  kinds.set(kindOf(frame), (kinds.get(kindOf(frame)) ?? 0) + micros);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const caller = byId.get(at).callFrame;
    if (!/\/(dist|node_modules\/(@hono|hono))\//.test(caller.url)) continue;
    const name = nameOf(caller);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
}
const perThousand = (micros) => (micros / reads).toFixed(1); // µs per read = ms per 1,000 reads

console.log(
  `${REQUESTS.toLocaleString('en-US')} small reads (${smallRead.fileId} § ${smallRead.sectionIds.join(',')}, ${smallRead.mode}) at ${CONCURRENCY} concurrent: ${Math.round(REQUESTS / (wallMs / 1000))} req/s, server CPU ${Math.round(cpuMicros / REQUESTS)} µs a read (under the profiler).`,
);
console.log(`Profile: ${join(dir, file)}\n\nms per 1,000 reads, by kind of code:`);
for (const [kind, micros] of [...kinds].sort((a, b) => b[1] - a[1]))
  console.log(`  ${perThousand(micros).padStart(8)}  ${kind}`);
console.log(
  `\nms per 1,000 reads, inclusive, the ${TOP} heaviest functions of this package and Hono:`,
);
for (const [name, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`  ${perThousand(micros).padStart(8)}  ${name}`);
