#!/usr/bin/env node
// Bounded load on `flowgen serve` (127.0.0.1, in this process), printing what it saw:
//   A  4,000 valid calls of @acme/qa over 10 connections, the rate limit out of reach: every answer
//      should be 200 with the example's output.
//   B  one key at --rate 200 --burst 20, offered far more for 3 s over 50 connections: the calls
//      accepted past the burst, per second, should be the rate (within 5%), the rest 429 with
//      Retry-After: 1.
// autocannon sends a fixed number of requests (A) or runs for a fixed time (B), so each run stops
// by itself. These are measurements, not tests: load on the machine moves them.
//
//   npm run build && node bench/serve-load.mjs

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const autocannon = require("autocannon");
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { startServe } = await import(path.join(ROOT, "dist/serve/serve.js"));

const KEY = "k_load_0123456789abcdef";
const BODY = JSON.stringify({ question: "What is the capital of France?" });
const ANSWER = JSON.stringify({ answer: "Paris" });

async function serve(rate, burst) {
  const server = await startServe({
    specs: path.join(ROOT, "specs"),
    cwd: ROOT,
    port: 0,
    host: "127.0.0.1",
    handlers: "no-handlers-here",
    watch: false,
    keysEnv: KEY,
    rate,
    burst,
    bodyLimit: 64 * 1024,
    maxDepth: 64,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    seed: 1,
  });
  if (!server.ok) throw new Error(JSON.stringify(server.issues));
  return server;
}

const calls = (server) => ({
  url: `${server.url}/v1/@acme/qa`,
  method: "POST",
  headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
  body: BODY,
});

const statusCounts = (result) =>
  Object.fromEntries(Object.entries(result.statusCodeStats).map(([s, { count }]) => [s, count]));

async function runA() {
  const server = await serve(1_000_000, 1_000_000);
  try {
    const result = await autocannon({
      ...calls(server),
      connections: 10,
      amount: 4000,
      timeout: 5,
      expectBody: ANSWER,
    });
    const { errors, timeouts, mismatches, non2xx, resets } = result;
    return {
      sent: result.requests.sent,
      statuses: statusCounts(result),
      errors,
      timeouts,
      mismatches,
      non2xx,
      resets,
      requestsPerSecond: result.requests.average,
    };
  } finally {
    await server.close();
  }
}

async function runB(rate = 200, burst = 20) {
  const server = await serve(rate, burst);
  const seen = { ok: 0, limited: 0, retryAfter: {} };
  let first = Infinity;
  let last = -Infinity;
  try {
    const result = await autocannon({
      ...calls(server),
      connections: 50,
      duration: 3,
      timeout: 5,
      setupClient(client) {
        client.on("headers", ({ statusCode, headers }) => {
          const now = performance.now();
          first = Math.min(first, now);
          last = now;
          if (statusCode === 200) seen.ok++;
          if (statusCode !== 429) return;
          seen.limited++;
          const at = headers.findIndex((v, i) => i % 2 === 0 && v.toLowerCase() === "retry-after");
          const value = at === -1 ? "(none)" : headers[at + 1];
          seen.retryAfter[value] = (seen.retryAfter[value] ?? 0) + 1;
        });
      },
    });
    const seconds = (last - first) / 1000;
    const accepted = (seen.ok - burst) / seconds;
    return {
      rate,
      statuses: statusCounts(result),
      errors: result.errors,
      seconds: Number(seconds.toFixed(3)),
      acceptedPerSecond: Number(accepted.toFixed(1)),
      withinFivePercent: Math.abs(accepted - rate) <= rate * 0.05,
      retryAfter: seen.retryAfter,
    };
  } finally {
    await server.close();
  }
}

console.log(`A (4,000 calls, no limit): ${JSON.stringify(await runA())}`);
console.log(`B (one key at 200/s):      ${JSON.stringify(await runB())}`);
