#!/usr/bin/env node
// Runtime overhead of the flowgen client over bare openapi-fetch (its transport), on loopback.
//
// One process: a node:http server forked as a child (bench/server.mjs: 127.0.0.1 only, port from
// the OS, stops by itself) and three clients, each making --calls sequential calls (after --warmup
// calls that are not counted) that POST the flow-0 body with a bearer token and parse the JSON answer:
//   raw fetch      fetch(url, { method, headers, body: JSON.stringify(body) }) + res.json()
//   openapi-fetch  createClient({ baseUrl }).POST("/v1/@org0/flow-0", { body, headers: { Authorization } })
//   flowgen        createFlowClient(flow-0, {}, { apiKey, baseUrl }).run(body): default options
//                  (auth middleware, retries on, 60 s deadline), from templates/runtime/ bundled by
//                  esbuild with openapi-fetch left as the same package the bare row imports
// --reps repetitions, after one uncounted --warmup round of every client before rep 1 and another
// at the start of each rep. Within a rep the clients take turns in --blocks blocks (500 calls each
// by default), the order rotated each block, so noise from a shared machine falls on all of them
// alike; each client still makes its --calls calls one after another. Per client: calls/s, p50/p99 latency, client CPU µs per call
// (process.cpuUsage of this process; the server is another process), and the wall-time ratio to
// openapi-fetch (the target) and to raw fetch (for reference) of the same rep, median over reps.
// The anchor figures and targets are in ../shared/bench-anchors/RESULTS.md ("Runtime overhead").
// Run after `npm run build` or alone (it needs only esbuild and openapi-fetch); writes
// bench/out/runtime.json. About a minute; it gives up after --max-seconds.
//
//   node bench/runtime.mjs [--calls 5000] [--warmup 500] [--reps 3] [--blocks 10] [--max-seconds 240]

import { fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import createClient from "openapi-fetch";
import { median, percentile, ratios } from "./stats.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const TARGET_VS_OFETCH = 1.05;

const args = parseArgs(process.argv.slice(2));
const giveUp = setTimeout(() => fail(`gave up after ${args.maxSeconds} s`), args.maxSeconds * 1000);
giveUp.unref();

// The runtime as users get it (templates/runtime/ is copied as it is into generated/runtime/), as JS.
const runtimeFile = path.join(OUT, "runtime/runtime.mjs");
mkdirSync(path.dirname(runtimeFile), { recursive: true });
await esbuild.build({
  entryPoints: [path.join(ROOT, "templates/runtime/index.ts")],
  outfile: runtimeFile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
const { createFlowClient } = await import(pathToFileURL(runtimeFile).href);

const FLOW = { id: "@org0/flow-0", path: "/v1/@org0/flow-0" };
const TOKEN = "bench-token-0123456789";
// A valid input for mkspec's flow-0 (seed 1); the server only checks that it is JSON with a question.
const BODY = {
  question: "What is the capital of France?",
  options: ["Paris", "Lyon"],
  context: { locale: "en", priority: "normal", score: 0.5 },
  temperature: 0.2,
  note: null,
  attachments: [{ name: "a.txt", mimeType: "text/plain" }],
  target: { kind: "user", userId: "u-1" },
};

const VARIANTS = ["raw", "ofetch", "flowgen"];
const LABELS = {
  raw: "raw `fetch(url, init)`",
  ofetch: "openapi-fetch `client.POST`",
  flowgen: "flowgen `createFlowClient().run`",
};
const perVariant = args.warmup + args.calls;
const server = fork(path.join(ROOT, "bench/server.mjs"), [], {
  env: {
    ...process.env,
    BENCH_SERVER_MAX_SECONDS: String(args.maxSeconds + 10),
    BENCH_SERVER_MAX_REQUESTS: String(
      perVariant * VARIANTS.length * args.reps + args.warmup * VARIANTS.length + 100,
    ),
  },
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const port = await new Promise((resolve, reject) => {
  server.once("message", (message) => resolve(message.port));
  server.once("exit", (code) => reject(new Error(`the bench server exited early (code ${code})`)));
  server.once("error", reject);
});
const BASE = `http://127.0.0.1:${port}`;

const ofetch = createClient({ baseUrl: BASE });
const flowgen = createFlowClient(FLOW, {}, { apiKey: TOKEN, baseUrl: BASE });
const calls = {
  raw: async () => {
    const res = await fetch(BASE + FLOW.path, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(BODY),
    });
    if (!res.ok) throw new Error(`raw fetch: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()).answer;
  },
  ofetch: async () => {
    const { data, error, response } = await ofetch.POST(FLOW.path, {
      body: BODY,
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    if (error) throw new Error(`openapi-fetch: HTTP ${response.status} ${JSON.stringify(error)}`);
    return data.answer;
  },
  flowgen: async () => (await flowgen.run(BODY)).answer,
};

console.log(
  `flowgen runtime bench: ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}; loopback server pid ${server.pid} on ${BASE}`,
);
console.log(
  `${args.calls} sequential calls per client after ${args.warmup} warm-up calls, ${args.reps} reps in this process, the clients taking turns in ${args.blocks} blocks per rep\n`,
);

const results = [];
try {
  // Once, before rep 1: JIT of every client and of undici, and the keep-alive connection, so the
  // first client of rep 1 does not pay for the process's start.
  for (const variant of VARIANTS)
    for (let i = 0; i < args.warmup; i++) check(await calls[variant]());
  for (let rep = 1; rep <= args.reps; rep++) {
    for (const variant of VARIANTS)
      for (let i = 0; i < args.warmup; i++) check(await calls[variant]());
    const tallies = Object.fromEntries(VARIANTS.map((variant) => [variant, newTally()]));
    // The clients take turns in blocks, the order rotated each block, so a burst of load from
    // elsewhere on the machine lands on all of them instead of on whichever ran then.
    for (let block = 0; block < args.blocks; block++) {
      const size =
        Math.floor(args.calls / args.blocks) + (block < args.calls % args.blocks ? 1 : 0);
      for (let i = 0; i < VARIANTS.length; i++) {
        const variant = VARIANTS[(i + block + rep - 1) % VARIANTS.length];
        await measureBlock(calls[variant], size, tallies[variant]);
      }
    }
    for (const variant of VARIANTS) {
      const result = summarise(tallies[variant]);
      results.push({ rep, variant, ...result });
      console.error(
        `rep ${rep} ${variant.padEnd(7)} ${result.perSecond.toFixed(0).padStart(5)} calls/s  p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms  cpu ${result.cpuUsPerCall.toFixed(1)} µs/call`,
      );
    }
  }
} finally {
  server.disconnect();
}

const rows = VARIANTS.map((variant) => {
  const mine = results.filter((r) => r.variant === variant);
  const ratio = (base) =>
    mine.map((r) => r.wallMs / results.find((x) => x.variant === base && x.rep === r.rep).wallMs);
  const vsRaw = ratio("raw");
  const vsOfetch = ratio("ofetch");
  return {
    variant,
    perSecond: median(mine.map((r) => r.perSecond)),
    p50: median(mine.map((r) => r.p50)),
    p99: median(mine.map((r) => r.p99)),
    cpuUsPerCall: median(mine.map((r) => r.cpuUsPerCall)),
    vsRaw: median(vsRaw),
    vsRawPerRep: vsRaw,
    vsOfetch: median(vsOfetch),
    vsOfetchPerRep: vsOfetch,
  };
});

console.log(
  `\n| client | calls/s | p50 ms | p99 ms | client CPU µs/call | wall vs raw fetch (per rep) | wall vs openapi-fetch (per rep) | target |`,
);
console.log("|---|---:|---:|---:|---:|---:|---:|---|");
for (const r of rows) {
  const target = r.variant === "flowgen" ? `≤ ${TARGET_VS_OFETCH.toFixed(2)}x openapi-fetch` : "-";
  console.log(
    `| ${LABELS[r.variant]} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.cpuUsPerCall.toFixed(1)} | ${ratios(r.vsRaw, r.vsRawPerRep)} | ${ratios(r.vsOfetch, r.vsOfetchPerRep)} | ${target} |`,
  );
}
const fg = rows.find((r) => r.variant === "flowgen");
const verdict = (value, limit) => (value <= limit ? "met" : "MISSED");
console.log(
  `\nflowgen client: ${fg.vsOfetch.toFixed(3)}x openapi-fetch, ${fg.vsRaw.toFixed(2)}x raw fetch (median of ${args.reps} reps)`,
);
console.log(
  `  target ≤ ${TARGET_VS_OFETCH.toFixed(2)}x openapi-fetch: ${verdict(fg.vsOfetch, TARGET_VS_OFETCH)}`,
);
console.log(
  `  anchors (RESULTS.md, sequential): openapi-fetch 1.22-1.44x raw fetch; raw fetch 330-440 µs client CPU per call`,
);

mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, "runtime.json");
const summary = {
  date: new Date().toISOString(),
  node: process.version,
  cores: cpus().length,
  calls: args.calls,
  warmup: args.warmup,
  reps: args.reps,
  targets: { vsOpenapiFetch: TARGET_VS_OFETCH },
  rows,
  results,
};
writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\n${path.relative(ROOT, file)}`);

function newTally() {
  return { latencies: new Float64Array(args.calls), count: 0, wallMs: 0, cpuUs: 0 };
}

/** `size` timed calls, one after another, added to `tally`. */
async function measureBlock(call, size, tally) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < size; i++) {
    const t = performance.now();
    const answer = await call();
    tally.latencies[tally.count++] = performance.now() - t;
    check(answer);
  }
  tally.wallMs += performance.now() - started;
  const used = process.cpuUsage(cpu);
  tally.cpuUs += used.user + used.system;
}

function summarise({ latencies, count, wallMs, cpuUs }) {
  const sorted = latencies.slice(0, count).sort();
  return {
    wallMs,
    perSecond: (count / wallMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    cpuUsPerCall: cpuUs / count,
  };
}

function check(answer) {
  if (answer !== "ok") throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
}

function parseArgs(argv) {
  const options = { calls: 5000, warmup: 500, reps: 3, blocks: 10, maxSeconds: 240 };
  const names = {
    "--calls": "calls",
    "--warmup": "warmup",
    "--reps": "reps",
    "--blocks": "blocks",
    "--max-seconds": "maxSeconds",
  };
  for (let i = 0; i < argv.length; i += 2) {
    const name = names[argv[i]];
    const value = Number(argv[i + 1]);
    if (!name || !Number.isInteger(value) || value < (name === "warmup" ? 0 : 1)) {
      fail(
        `bad argument ${argv[i]} ${argv[i + 1] ?? ""}; usage: node bench/runtime.mjs [--calls 5000] [--warmup 500] [--reps 3] [--blocks 10] [--max-seconds 240]`,
      );
    }
    options[name] = value;
  }
  return options;
}

function fail(message) {
  console.error(`bench/runtime: ${message}`);
  process.exit(1);
}
