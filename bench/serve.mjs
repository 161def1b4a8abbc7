#!/usr/bin/env node
// Throughput and latency of `flowgen serve` against a bare Fastify route, on loopback.
//
// Two servers, each in its own child process (this file, forked with BENCH_SERVE_ROLE; 127.0.0.1
// only, port from the OS, each stops when this process goes or after --max-seconds):
//   flowgen   startServe() from dist/serve/serve.js on a temporary project: one flow, @bench/echo,
//             input and output { text: string } (required), with the handler
//             handlers/@bench/echo.mjs returning { text: input.text }. Bearer auth, the per-key
//             rate limiter (on, with rate and burst far above what the run can send), the
//             content-type check, the input and output schema checks, request ids and the
//             RateLimit-* headers, the body's depth and number checks all run; the access log is off (no `log` option).
//   bare      Fastify of the same installation, one route: app.post("/echo", async (req) => req.body).
// autocannon (in this process) sends the same request to both: POST, the same JSON body, the same
// headers (the bare route ignores Authorization), --connections keep-alive connections, for
// --duration seconds, after one --warmup-second run of each that is not counted. --reps reps, the
// order alternating each rep. Every answer must be 200 with the body sent. Per run: requests/s,
// p50/p99 latency (from every response's own time, not autocannon's 1 ms histogram), and the CPU
// used by the server's process and by this one (the load generator), to show which side was busy.
// Writes bench/out/serve.json (and serve-auth-header.json). About 65 s with the defaults (the
// auth-header case adds a few); it gives up after --max-seconds.
// Short reps, many of them, alternating: other load on the machine comes and goes over seconds, so
// short alternating runs meet it about equally, and the median of the per-rep ratios is steadier
// than a few long runs.
//
// --profile DIR starts both servers with `node --cpu-prof --cpu-prof-dir DIR`: one profile per server,
// named with its pid (printed first), written when it exits.
//
// The auth-header case (bench/serve-auth-header.mjs) runs after it: a 64 KB Authorization header
// and the longest one under the head limit, each against an ordinary 401. `--case` runs one case.
//
//   npm run build && node bench/serve.mjs [--case all|throughput|auth-header] [--duration 3] [--warmup 2] [--reps 10] [--connections 10] [--auth-reps 5] [--auth-requests 200] [--max-seconds 180] [--profile dir]

import { fork } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { printAuthHeaderCase, runAuthHeaderCase } from "./serve-auth-header.mjs";
import { median, percentile, ratios } from "./stats.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const SERVE_JS = path.join(ROOT, "dist/serve/serve.js");
const TARGET = 0.8;
const KEY = "k_bench_0123456789abcdef";
const BODY = JSON.stringify({ text: "hello, flowgen" });
const HEADERS = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
const PATHS = { flowgen: "/v1/@bench/echo", bare: "/echo" };
const LABELS = {
  flowgen: "flowgen serve `POST /v1/@bench/echo`",
  bare: "bare Fastify `POST /echo`",
};
const VARIANTS = ["flowgen", "bare"];
/** What `--case all` runs, in order. */
const CASES = ["throughput", "auth-header"];
/** Run by fail() too, which exits without unwinding. */
const cleanups = [];

if (process.env.BENCH_SERVE_ROLE) {
  await runServer(
    process.env.BENCH_SERVE_ROLE,
    JSON.parse(process.env.BENCH_SERVE_OPTIONS ?? "{}"),
  );
} else {
  await main().catch((error) =>
    fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(SERVE_JS))
    fail(`${path.relative(ROOT, SERVE_JS)} is missing: run npm run build first`);
  const giveUp = setTimeout(
    () => fail(`gave up after ${args.maxSeconds} s`),
    args.maxSeconds * 1000,
  );
  giveUp.unref();
  const cases = args.case === "all" ? CASES : [args.case];
  // The auth-header case needs flowgen serve alone.
  const roles = cases.includes("throughput") ? VARIANTS : ["flowgen"];

  const project = mkdtempSync(path.join(tmpdir(), "flowgen-bench-serve-"));
  const children = [];
  const cleanup = () => {
    for (const child of children) if (child.connected) child.disconnect();
    rmSync(project, { recursive: true, force: true });
  };
  cleanups.push(cleanup);
  try {
    writeProject(project);
    const servers = {};
    for (const role of roles) {
      const execArgv = args.profile
        ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(args.profile)]
        : [];
      servers[role] = await startChild(
        role,
        { project, maxSeconds: args.maxSeconds + 10 },
        execArgv,
      );
      children.push(servers[role].child);
    }
    // The servers must answer as the bench expects before anything is timed.
    for (const role of roles) {
      const response = await fetch(servers[role].url + PATHS[role], {
        method: "POST",
        headers: HEADERS,
        body: BODY,
      });
      const text = await response.text();
      if (response.status !== 200 || text !== BODY)
        fail(`${role}: expected 200 ${BODY}, got ${response.status} ${text}`);
    }
    const limit = await fetch(servers.flowgen.url + PATHS.flowgen, {
      method: "POST",
      headers: HEADERS,
      body: BODY,
    });
    if (limit.headers.get("ratelimit-limit") === null)
      fail("flowgen serve sent no RateLimit-Limit header: is the rate limiter on?");

    console.log(
      `flowgen serve bench: ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}, fastify ${fastifyVersion()}`,
    );
    console.log(
      roles
        .map((role) => `${LABELS[role]}: pid ${servers[role].child.pid} on ${servers[role].url}`)
        .join("; "),
    );
    if (cases.includes("throughput")) await runThroughput(servers, args);
    if (cases.includes("auth-header")) {
      const settings = { reps: args.authReps, requests: args.authRequests, body: BODY };
      const outcome = await runAuthHeaderCase(servers.flowgen, settings);
      printAuthHeaderCase(outcome, settings);
      writeSummary("serve-auth-header.json", { ...settings, ...outcome });
    }
  } finally {
    cleanup();
  }
}

/** The throughput case: autocannon against flowgen serve and the bare route, reps alternating. */
async function runThroughput(servers, args) {
  const autocannon = createRequire(import.meta.url)("autocannon");
  console.log(
    `autocannon: ${args.connections} connections, ${args.duration} s per run after a ${args.warmup} s warm-up of each, ${args.reps} reps, order alternating\n`,
  );

  const warmups = [];
  for (const role of VARIANTS)
    warmups.push({
      variant: role,
      ...(await load(autocannon, servers[role], role, args.warmup, args.connections)),
    });
  const results = [];
  for (let rep = 1; rep <= args.reps; rep++) {
    const order = rep % 2 === 1 ? VARIANTS : [...VARIANTS].reverse();
    for (const role of order) {
      const result = await load(autocannon, servers[role], role, args.duration, args.connections);
      results.push({ rep, variant: role, ...result });
      console.error(
        `rep ${rep} ${role.padEnd(7)} ${result.perSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms  server CPU ${result.serverCpuPercent.toFixed(0)}% (${result.serverCpuUsPerRequest.toFixed(1)} µs/req)  autocannon CPU ${result.clientCpuPercent.toFixed(0)}%`,
      );
    }
  }

  const rows = VARIANTS.map((variant) => {
    const mine = results.filter((r) => r.variant === variant);
    const vsBare = mine.map(
      (r) => r.perSecond / results.find((x) => x.variant === "bare" && x.rep === r.rep).perSecond,
    );
    return {
      variant,
      perSecond: median(mine.map((r) => r.perSecond)),
      p50: median(mine.map((r) => r.p50)),
      p99: median(mine.map((r) => r.p99)),
      serverCpuUsPerRequest: median(mine.map((r) => r.serverCpuUsPerRequest)),
      serverCpuPercent: median(mine.map((r) => r.serverCpuPercent)),
      clientCpuPercent: median(mine.map((r) => r.clientCpuPercent)),
      vsBare: median(vsBare),
      vsBarePerRep: vsBare,
    };
  });

  console.log(
    `\n| server | requests/s | p50 ms | p99 ms | server CPU µs/request | server CPU | autocannon CPU | requests/s vs bare (per rep) |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${LABELS[r.variant]} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.serverCpuUsPerRequest.toFixed(1)} | ${r.serverCpuPercent.toFixed(0)}% | ${r.clientCpuPercent.toFixed(0)}% | ${ratios(r.vsBare, r.vsBarePerRep)} |`,
    );
  }
  const fg = rows.find((r) => r.variant === "flowgen");
  const bare = rows.find((r) => r.variant === "bare");
  console.log(
    `\nflowgen serve: ${fg.vsBare.toFixed(2)}x the bare route's requests/s (target ≥ ${TARGET}x), p99 ${fg.p99.toFixed(2)} ms vs ${bare.p99.toFixed(2)} ms`,
  );
  console.log(
    `  target ≥ ${TARGET}x: ${fg.vsBare >= TARGET ? "met" : "MISSED"} (median of ${args.reps} reps; medians of requests/s and p99 over reps)`,
  );
  writeSummary("serve.json", {
    connections: args.connections,
    durationSeconds: args.duration,
    warmupSeconds: args.warmup,
    reps: args.reps,
    body: BODY,
    target: { vsBare: TARGET },
    rows,
    results,
    warmups,
  });
}

/** bench/out/<name>: the run's figures with the date, Node version and core count. */
function writeSummary(name, figures) {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    cores: cpus().length,
    ...figures,
  };
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`\n${path.relative(ROOT, file)}`);
}

/** specs/@bench/echo.json and handlers/@bench/echo.mjs in `dir`. */
function writeProject(dir) {
  const text = { type: "object", required: ["text"], properties: { text: { type: "string" } } };
  mkdirSync(path.join(dir, "specs/@bench"), { recursive: true });
  mkdirSync(path.join(dir, "handlers/@bench"), { recursive: true });
  writeFileSync(
    path.join(dir, "specs/@bench/echo.json"),
    `${JSON.stringify({ summary: "Echo the text", input: text, output: text }, null, 2)}\n`,
  );
  writeFileSync(
    path.join(dir, "handlers/@bench/echo.mjs"),
    "export default async (input) => ({ text: input.text });\n",
  );
}

/** One autocannon run of `seconds` against `server`; fails on anything but 200 with the body sent. */
async function load(autocannon, server, role, seconds, connections) {
  const latencies = [];
  const serverBefore = await server.cpu();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: server.url + PATHS[role],
    method: "POST",
    headers: HEADERS,
    body: BODY,
    connections,
    duration: seconds,
    timeout: 5,
    expectBody: BODY,
    setupClient(client) {
      client.on("response", (_status, _bytes, ms) => latencies.push(ms));
    },
  });
  const wallMs = performance.now() - started;
  const clientCpu = process.cpuUsage(clientBefore);
  const serverCpu = await server.cpu();
  const problems = {
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    non2xx: result.non2xx,
    resets: result.resets,
  };
  if (Object.values(problems).some((n) => n !== 0))
    fail(
      `${role}: ${JSON.stringify(problems)} status codes ${JSON.stringify(result.statusCodeStats)}`,
    );
  const sorted = Float64Array.from(latencies).sort();
  const serverUs = serverCpu.user + serverCpu.system - (serverBefore.user + serverBefore.system);
  return {
    requests: result.requests.total,
    wallMs,
    perSecond: (result.requests.total / wallMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    serverCpuUsPerRequest: serverUs / result.requests.total,
    serverCpuPercent: (serverUs / (wallMs * 1000)) * 100,
    clientCpuPercent: ((clientCpu.user + clientCpu.system) / (wallMs * 1000)) * 100,
  };
}

/** Forks this file as a server; resolves with its URL and a way to read its CPU time. */
async function startChild(role, options, execArgv) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv,
    env: { ...process.env, BENCH_SERVE_ROLE: role, BENCH_SERVE_OPTIONS: JSON.stringify(options) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = [];
  const port = await new Promise((resolve, reject) => {
    child.once("message", (message) =>
      message.error ? reject(new Error(`${role} server: ${message.error}`)) : resolve(message.port),
    );
    child.once("exit", (code) =>
      reject(new Error(`the ${role} server exited early (code ${code})`)),
    );
    child.once("error", reject);
  });
  child.on("message", (message) => {
    if (message.cpu) waiting.shift()?.(message.cpu);
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    cpu: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.send({ cpu: true });
      }),
  };
}

/** In the child: one server on 127.0.0.1, until the parent disconnects or `maxSeconds` pass. */
async function runServer(role, options) {
  const stop = setTimeout(() => process.exit(0), options.maxSeconds * 1000);
  stop.unref();
  process.on("disconnect", () => process.exit(0));
  process.on("message", (message) => {
    if (message.cpu) process.send({ cpu: process.cpuUsage() });
  });
  try {
    let port;
    if (role === "flowgen") {
      const { startServe } = await import(pathToFileURL(SERVE_JS).href);
      const server = await startServe({
        specs: "specs",
        cwd: options.project,
        port: 0,
        host: "127.0.0.1",
        handlers: "handlers",
        watch: false,
        keysEnv: KEY,
        // On, but out of reach: a 10 s run at 100,000 requests/s would not empty the bucket.
        rate: 1_000_000,
        burst: 1_000_000,
        bodyLimit: 1024 * 1024,
        maxDepth: 64,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        seed: 1,
      });
      if (!server.ok) throw new Error(JSON.stringify(server.issues));
      if (!server.flows.includes("@bench/echo"))
        throw new Error(`no @bench/echo among ${server.flows.join(", ")}`);
      port = server.port;
    } else {
      const { default: Fastify } = await import("fastify");
      const app = Fastify({ logger: false });
      app.post("/echo", async (req) => req.body);
      await app.listen({ port: 0, host: "127.0.0.1" });
      port = app.server.address().port;
    }
    process.send({ port });
  } catch (error) {
    process.send({
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    process.exit(1);
  }
}

function fastifyVersion() {
  return createRequire(import.meta.url)("fastify/package.json").version;
}

function parseArgs(argv) {
  const options = {
    duration: 3,
    warmup: 2,
    reps: 10,
    connections: 10,
    maxSeconds: 180,
    profile: undefined,
    case: "all",
    authReps: 5,
    authRequests: 200,
  };
  const names = {
    "--duration": "duration",
    "--warmup": "warmup",
    "--reps": "reps",
    "--connections": "connections",
    "--max-seconds": "maxSeconds",
    "--auth-reps": "authReps",
    "--auth-requests": "authRequests",
  };
  const usage =
    "usage: node bench/serve.mjs [--case all|throughput|auth-header] [--duration 3] [--warmup 2] [--reps 10] [--connections 10] [--auth-reps 5] [--auth-requests 200] [--max-seconds 180] [--profile dir]";
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === "--profile" && argv[i + 1]) {
      options.profile = argv[i + 1];
      continue;
    }
    if (argv[i] === "--case" && (argv[i + 1] === "all" || CASES.includes(argv[i + 1]))) {
      options.case = argv[i + 1];
      continue;
    }
    const name = names[argv[i]];
    const value = Number(argv[i + 1]);
    if (!name || !Number.isInteger(value) || value < 1) {
      fail(`bad argument ${argv[i]} ${argv[i + 1] ?? ""}; ${usage}`);
    }
    options[name] = value;
  }
  return options;
}

function fail(message) {
  for (const cleanup of cleanups.splice(0)) cleanup();
  console.error(`bench/serve: ${message}`);
  process.exit(1);
}
