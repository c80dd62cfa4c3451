// `npm run bench` (HTTP part): the load run of shared/spec/http.md. Knowledge Kit's endpoint
// (`createKnowledgeHandler` + `serveKnowledge`, bearer-token `access`, the bundled example knowledge)
// beside the floor, a bare `node:http` server answering one fixed JSON body: the bytes of the small
// `read_file` below. Both servers run in one child process (bench/http-server.mjs), so serving and load
// generation do not share an event loop; this process generates the load over 127.0.0.1 with
// `node:http`, a keep-alive Agent (maxSockets 50) and 50 concurrent workers.
//
// Each round runs, in turn, after a full GC in both processes: the floor, Knowledge Kit on mixed routes
// (tree, get file, small read_file, read by path, search, related, expand graph), and Knowledge Kit on
// the small read_file alone; 10,000 requests each. One warm-up round (2,000 requests each) is not
// counted. Figures are medians over the rounds. Every response must be a 200 with a JSON body of the
// route's shape: a single failed request makes the bench say which and exit 1.
//
//   node --expose-gc bench/http.mjs          tables
//   node --expose-gc bench/http.mjs --json   one JSON object
//
// HTTP_BENCH_ROUNDS (default 3), HTTP_BENCH_REQUESTS (10,000), HTTP_BENCH_CONCURRENCY (50),
// HTTP_BENCH_WARMUP_REQUESTS (2,000) change the run; the spec's figure is the default one.
import { fork } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { median, printTable, requireGc, round } from './harness.mjs';

const json = process.argv.includes('--json');
const ROUNDS = Number(process.env.HTTP_BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.HTTP_BENCH_REQUESTS ?? 10_000);
const CONCURRENCY = Number(process.env.HTTP_BENCH_CONCURRENCY ?? 50);
const WARMUP_REQUESTS = Number(process.env.HTTP_BENCH_WARMUP_REQUESTS ?? 2_000);
/** No new request starts after this long in one run; the rest count as failed. */
const RUN_LIMIT_MS = 60_000;
/** One request with no full answer after this long is failed. */
const REQUEST_TIMEOUT_MS = 10_000;
/** The whole bench, child included, is stopped after this long. */
const BENCH_LIMIT_MS = 300_000;
const TARGET_READ_FILE = 0.5;
const gc = requireGc();
const log = (line) => {
  if (!json) console.error(line);
};

let child;
let stopping = false;
const watchdog = setTimeout(() => {
  console.error(`http bench: stopped after ${BENCH_LIMIT_MS / 1000} s without finishing.`);
  child?.kill('SIGKILL');
  process.exit(1);
}, BENCH_LIMIT_MS);
watchdog.unref();

// ---------------------------------------------------------------------------------------------------
// The servers, in their own process.
log('starting the servers (bench/http-server.mjs) …');
const ready = await new Promise((resolve, reject) => {
  child = fork(fileURLToPath(new URL('./http-server.mjs', import.meta.url)), [], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  child.once('message', resolve);
  child.once('error', reject);
  child.once('exit', (code, signal) =>
    reject(new Error(`the server process exited (${signal ?? code}) before it was ready`)),
  );
});
child.removeAllListeners('exit');
child.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`http bench: the server process exited (${signal ?? code}) during the run.`);
    process.exit(1);
  }
});
process.on('exit', () => child.kill());
for (const origin of [ready.knowledge.origin, ready.floor.origin]) {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(origin))
    throw new Error(`http bench: ${origin} is not on 127.0.0.1; the load goes to loopback only`);
}

const kb = ready.knowledge.knowledgeBasePath;
const small = ready.smallRead;
const smallReadPath = `${kb}/files/${encodeURIComponent(small.fileId)}/content?sectionIds=${small.sectionIds.map(encodeURIComponent).join(',')}&mode=${small.mode}`;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const readShape = (b) => isObject(b.file) && typeof b.content === 'string' && b.content.length > 0;

/** The mixed run's routes, two requests each, sent in turn. `check` is the body's shape. */
const MIXED = [
  {
    route: 'tree',
    path: `${kb}/tree?limit=50`,
    check: (b) => Array.isArray(b.items) && b.items.length > 0,
  },
  {
    route: 'tree',
    path: `${kb}/tree?parentPath=pages`,
    check: (b) => Array.isArray(b.items) && b.items.length > 0,
  },
  {
    route: 'get file',
    path: `${kb}/files/agent-tools`,
    check: (b) => b.fileId === 'agent-tools' && Array.isArray(b.sections),
  },
  {
    route: 'get file',
    path: `${kb}/files/knowledge-kit-guide`,
    check: (b) => b.fileId === 'knowledge-kit-guide' && Array.isArray(b.sections),
  },
  { route: 'small read_file', path: smallReadPath, check: readShape },
  {
    route: 'small read_file',
    path: `${kb}/files/agent-tools/content?sectionIds=search.empty&mode=self`,
    check: readShape,
  },
  { route: 'read by path', path: `${kb}/files/content?path=index.md`, check: readShape },
  {
    route: 'read by path',
    path: `${kb}/files/content?path=${encodeURIComponent('pages/anchored-markdown.md')}`,
    check: readShape,
  },
  {
    route: 'search',
    path: `${kb}/search?query=${encodeURIComponent('When does a cursor go stale, and what should the agent do then?')}`,
    check: (b) => b.searchStatus === 'ok' && b.items.length > 0,
  },
  {
    route: 'search',
    path: `${kb}/search?query=${encodeURIComponent('后续搜索最多可以执行几轮?')}`,
    check: (b) => b.searchStatus === 'ok' && b.items.length > 0,
  },
  {
    route: 'related',
    path: `${kb}/files/agent-tools/related`,
    check: (b) => Array.isArray(b.items) && b.items.length > 0,
  },
  {
    route: 'related',
    path: `${kb}/files/exploration/related`,
    check: (b) => Array.isArray(b.items) && b.items.length > 0,
  },
  {
    route: 'expand graph',
    path: `${kb}/graph/expand?fileId=exploration&depth=2`,
    check: (b) => Array.isArray(b.relationships) && b.relationships.length > 0,
  },
  {
    route: 'expand graph',
    path: `${kb}/graph/expand?fileId=anchored-markdown`,
    check: (b) => Array.isArray(b.relationships),
  },
];
const READ_FILE = [{ route: 'small read_file', path: smallReadPath, check: readShape }];
const FLOOR = [{ route: 'fixed JSON body', path: '/', check: readShape }];

const CONTENDERS = {
  'node:http floor (fixed JSON body)': { origin: ready.floor.origin, routes: FLOOR, headers: {} },
  'Knowledge Kit, mixed routes': {
    origin: ready.knowledge.origin,
    routes: MIXED,
    headers: { authorization: ready.knowledge.authorization },
  },
  'Knowledge Kit, small read_file': {
    origin: ready.knowledge.origin,
    routes: READ_FILE,
    headers: { authorization: ready.knowledge.authorization },
  },
};
const [FLOOR_NAME, MIXED_NAME, READ_NAME] = Object.keys(CONTENDERS);

/** One GET: resolves to `{ status, type, text }`, or rejects on a network failure or the timeout. */
function get(agent, target, path, headers) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path, agent, headers },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, type: res.headers['content-type'] ?? '', text }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
    );
    req.on('error', reject);
    req.end();
  });
}

/** Why a response fails the bench, or `undefined` when it is a 200 with a body of the route's shape. */
function failure(route, response) {
  if (response.status !== 200) return `status ${response.status}: ${response.text.slice(0, 200)}`;
  if (!response.type.startsWith('application/json')) return `Content-Type ${response.type}`;
  let body;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `a body that is not JSON: ${response.text.slice(0, 200)}`;
  }
  return isObject(body) && route.check(body)
    ? undefined
    : `JSON that is not a ${route.route} result: ${response.text.slice(0, 200)}`;
}

/** `count` requests through `concurrency` workers over one fresh keep-alive Agent. */
async function load(name, count) {
  const { origin, routes } = CONTENDERS[name];
  const target = new URL(origin);
  const headers = { accept: 'application/json', ...CONTENDERS[name].headers };
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies = new Float64Array(count);
  const failures = [];
  let next = 0;
  let answered = 0;
  const start = performance.now();
  const stopAt = start + RUN_LIMIT_MS;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const route = routes[i % routes.length];
      if (performance.now() > stopAt) {
        failures.push({
          route: route.route,
          path: route.path,
          why: `not sent: the run passed ${RUN_LIMIT_MS / 1000} s`,
        });
        continue;
      }
      const t0 = performance.now();
      let why;
      try {
        why = failure(route, await get(agent, target, route.path, headers));
      } catch (error) {
        why = `no answer: ${error.message}`;
      }
      const ms = performance.now() - t0;
      latencies[answered++] = ms;
      if (why !== undefined) failures.push({ route: route.route, path: route.path, why });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wallMs = performance.now() - start;
  agent.destroy();
  const sorted = latencies.subarray(0, answered).sort();
  return {
    requests: count,
    failures,
    requestsPerSecond: count / (wallMs / 1000),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}

function percentile(sorted, p) {
  return sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/** Send `{ type }` to the server process and resolve to its answer of type `answer` (10 s at most). */
function ask(type, answer) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`http bench: the server process did not answer \`${type}\` within 10 s`));
    }, 10_000);
    const onMessage = (message) => {
      if (message?.type !== answer) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

// ---------------------------------------------------------------------------------------------------
// Warm-up, then the interleaved rounds.
const runs = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
const failed = [];
const started = performance.now();
for (let r = 0; r < 1 + ROUNDS; r++) {
  const warm = r === 0;
  log(
    warm
      ? `warm-up: ${WARMUP_REQUESTS.toLocaleString('en-US')} requests each …`
      : `round ${r} of ${ROUNDS}: ${REQUESTS.toLocaleString('en-US')} requests each …`,
  );
  for (const name of Object.keys(CONTENDERS)) {
    gc();
    await ask('gc', 'gc-done');
    const cpu = process.cpuUsage();
    const result = await load(name, warm ? WARMUP_REQUESTS : REQUESTS);
    const client = process.cpuUsage(cpu);
    result.clientCpuMicros = (client.user + client.system) / result.requests;
    result.serverCpuMicros = (await ask('cpu', 'cpu')).micros / result.requests;
    for (const f of result.failures)
      failed.push({ contender: name, round: warm ? 'warm-up' : r, ...f });
    if (!warm) runs[name].push(result);
  }
}
const elapsedSeconds = (performance.now() - started) / 1000;
stopping = true;
child.send({ type: 'stop' });
await new Promise((resolve) => child.once('exit', resolve));

// ---------------------------------------------------------------------------------------------------
// Figures: medians over the rounds; ratios of the median throughputs, with the per-round range.
const summary = Object.fromEntries(
  Object.entries(runs).map(([name, list]) => [
    name,
    {
      requests: list.reduce((sum, x) => sum + x.requests, 0),
      failures: list.reduce((sum, x) => sum + x.failures.length, 0),
      requestsPerSecond: round(median(list.map((x) => x.requestsPerSecond)), 0),
      p50Ms: round(median(list.map((x) => x.p50Ms)), 2),
      p99Ms: round(median(list.map((x) => x.p99Ms)), 2),
      serverCpuMicrosPerRequest: round(median(list.map((x) => x.serverCpuMicros)), 0),
      clientCpuMicrosPerRequest: round(median(list.map((x) => x.clientCpuMicros)), 0),
      perRound: list.map((x) => round(x.requestsPerSecond, 0)),
    },
  ]),
);
const ratio = (name) => {
  const perRound = runs[name].map((x, i) =>
    round(x.requestsPerSecond / runs[FLOOR_NAME][i].requestsPerSecond, 2),
  );
  return {
    value: round(summary[name].requestsPerSecond / summary[FLOOR_NAME].requestsPerSecond, 2),
    min: Math.min(...perRound),
    max: Math.max(...perRound),
    perRound,
  };
};
const cpuRatio = (name) => {
  const perRound = runs[name].map((x, i) =>
    round(runs[FLOOR_NAME][i].serverCpuMicros / x.serverCpuMicros, 2),
  );
  return {
    value: round(
      summary[FLOOR_NAME].serverCpuMicrosPerRequest / summary[name].serverCpuMicrosPerRequest,
      2,
    ),
    min: Math.min(...perRound),
    max: Math.max(...perRound),
    perRound,
  };
};
const readRatio = ratio(READ_NAME);
const mixedRatio = ratio(MIXED_NAME);
const figures = [
  {
    figure: 'small read_file throughput / node:http floor',
    ...readRatio,
    target: TARGET_READ_FILE,
    at: 'least',
    met: readRatio.value >= TARGET_READ_FILE,
  },
  { figure: 'mixed routes throughput / node:http floor', ...mixedRatio },
  // Beside them, without a target: server CPU time per request, which other load on the machine moves
  // far less than wall-clock throughput. Floor CPU ÷ ours is the throughput ratio a CPU-bound server would reach.
  { figure: 'small read_file: floor server CPU / ours, per request', ...cpuRatio(READ_NAME) },
  { figure: 'mixed routes: floor server CPU / ours, per request', ...cpuRatio(MIXED_NAME) },
];
const report = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  setup: {
    requestsPerRun: REQUESTS,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    warmupRequests: WARMUP_REQUESTS,
    transport: 'node:http over 127.0.0.1, keep-alive Agent (maxSockets = concurrency)',
    servers:
      'one child process: serveKnowledge(createKnowledgeHandler) and a bare node:http server',
    floorBody: `the small read_file's JSON (${small.fileId} § ${small.sectionIds.join(',')}, ${small.mode}), ${small.jsonBytes} bytes`,
    mixedRoutes: MIXED.map((r) => r.path.slice(kb.length)),
  },
  contenders: summary,
  figures,
  failures: failed.length,
  failedRequests: failed.slice(0, 20),
  allTargetsMet: figures.every((f) => f.met !== false),
  elapsedSeconds: round(elapsedSeconds, 1),
};

if (json) {
  console.log(JSON.stringify(report));
} else {
  console.log(
    `Knowledge Kit HTTP load — ${report.node}, ${report.cpu} (${report.cores} cores); ${REQUESTS.toLocaleString('en-US')} requests a run at ${CONCURRENCY} concurrent over 127.0.0.1 (keep-alive); medians of ${ROUNDS} interleaved rounds, ${report.elapsedSeconds} s in all`,
  );
  console.log(`Servers in one child process; the floor answers ${report.setup.floorBody}.\n`);
  printTable(
    Object.entries(summary).map(([name, s]) => ({
      contender: name,
      requests: s.requests,
      failures: s.failures,
      'req/s': s.requestsPerSecond,
      'p50 ms': s.p50Ms,
      'p99 ms': s.p99Ms,
      'server CPU µs/req': s.serverCpuMicrosPerRequest,
      'client CPU µs/req': s.clientCpuMicrosPerRequest,
      'req/s per round': s.perRound.join(', '),
    })),
  );
  console.log('');
  printTable(
    figures.map((f) => ({
      figure: f.figure,
      value: f.value,
      'per round': `${f.min}–${f.max}`,
      target: f.target === undefined ? '' : `>= ${f.target}`,
      met: f.met === undefined ? '' : f.met ? 'yes' : 'MISSED',
    })),
  );
}

if (failed.length > 0) {
  console.error(
    `\nhttp bench: ${failed.length} failed request(s); the first ${Math.min(failed.length, 20)}:`,
  );
  for (const f of failed.slice(0, 20))
    console.error(`  ${f.contender}, round ${f.round}, ${f.route} GET ${f.path}: ${f.why}`);
  process.exitCode = 1;
}
