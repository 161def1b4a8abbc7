// The `auth-header` case of bench/serve.mjs: what a hostile Authorization header costs flowgen
// serve against an ordinary refused call. Every check that reads request data must run in linear
// time, so a caller cannot buy much server CPU with a long header.
//
// Three requests to POST /v1/@bench/echo, each on a fresh connection (Connection: close), since
// the server answers an oversized head by closing the connection:
//   401        `Authorization: Bearer <an unknown key of 24 characters>`, the ordinary refusal;
//   64 KB      `Authorization: Bearer`, 64 KB of spaces, one character: past the 16 KB head limit,
//              so Node's parser refuses it (431) before any of flowgen's code reads it;
//   16 KB      the same with as many spaces as fit under the limit: the longest value flowgen's
//              own Bearer parse ever reads (401).
// Sent one at a time, --auth-requests of each per rep, the order rotating each rep; per variant
// and rep: the server's CPU time per request (its own process.cpuUsage) and the median latency
// (from the write to the close). The ratios to the 401 are taken per rep, then their median.

import net from "node:net";
import { median } from "./stats.mjs";

/** At most this many times the ordinary 401's cost. */
export const AUTH_HEADER_TARGET = 5;

const UNKNOWN_KEY = "k_unknown_0123456789abcd";
// Under Node's 16 KB limit on a request head, with room for the request line and other fields.
const FITTING_SPACES = 16_384 - 300;

const VARIANTS = {
  401: `Bearer ${UNKNOWN_KEY}`,
  "64 KB": `Bearer${" ".repeat(65_536)}x`,
  "16 KB": `Bearer${" ".repeat(FITTING_SPACES)}x`,
};
const EXPECTED_STATUS = { 401: 401, "64 KB": 431, "16 KB": 401 };

/**
 * Runs the case against a started flowgen server (bench/serve.mjs's `startChild`); returns the
 * rows and the ratios.
 */
export async function runAuthHeaderCase(server, { reps, requests, body }) {
  const { port } = new URL(server.url);
  const names = Object.keys(VARIANTS);
  const requestFor = (name) =>
    Buffer.from(
      [
        "POST /v1/@bench/echo HTTP/1.1",
        `Host: 127.0.0.1:${port}`,
        `Authorization: ${VARIANTS[name]}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
      "latin1",
    );
  const bytes = Object.fromEntries(names.map((name) => [name, requestFor(name)]));
  // Each variant answers as expected before anything is timed.
  for (const name of names) {
    const { status } = await send(Number(port), bytes[name]);
    if (status !== EXPECTED_STATUS[name])
      throw new Error(`auth-header ${name}: expected ${EXPECTED_STATUS[name]}, got ${status}`);
  }
  const results = [];
  for (let rep = 1; rep <= reps; rep++) {
    const order = names.map((_, i) => names[(i + rep) % names.length]);
    for (const name of order) {
      const before = await server.cpu();
      const latencies = [];
      for (let i = 0; i < requests; i++) {
        const { status, ms } = await send(Number(port), bytes[name]);
        if (status !== EXPECTED_STATUS[name])
          throw new Error(`auth-header ${name}: expected ${EXPECTED_STATUS[name]}, got ${status}`);
        latencies.push(ms);
      }
      const after = await server.cpu();
      const cpuUs = after.user + after.system - (before.user + before.system);
      results.push({
        rep,
        variant: name,
        serverCpuUsPerRequest: cpuUs / requests,
        p50: median(latencies),
      });
    }
  }
  const perRep = (name, field) =>
    results
      .filter((r) => r.variant === name)
      .map((r) => r[field] / results.find((x) => x.variant === "401" && x.rep === r.rep)[field]);
  const rows = names.map((name) => {
    const mine = results.filter((r) => r.variant === name);
    return {
      variant: name,
      headerBytes: Buffer.byteLength(VARIANTS[name]),
      status: EXPECTED_STATUS[name],
      serverCpuUsPerRequest: median(mine.map((r) => r.serverCpuUsPerRequest)),
      p50: median(mine.map((r) => r.p50)),
      cpuVs401: median(perRep(name, "serverCpuUsPerRequest")),
      cpuVs401PerRep: perRep(name, "serverCpuUsPerRequest"),
      p50Vs401: median(perRep(name, "p50")),
    };
  });
  return { rows, results, target: AUTH_HEADER_TARGET };
}

/** One request on a fresh connection: its status and the time from connect to close, in ms. */
function send(port, bytes) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const started = performance.now();
    const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer within 5 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    // The server may close while a 64 KB head is still being written.
    socket.on("error", (error) =>
      error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error),
    );
    socket.on("close", () => {
      const head = Buffer.concat(chunks).toString("latin1");
      resolve({ status: Number(head.split(" ")[1] ?? 0), ms: performance.now() - started });
    });
  });
}

/** The case's table and verdict, for people. */
export function printAuthHeaderCase({ rows, target }, { reps, requests }) {
  console.log(
    `\nauth-header: ${requests} requests per variant and rep, ${reps} reps, one fresh connection each`,
  );
  console.log(
    "| Authorization header | bytes | status | server CPU µs/request | p50 ms | CPU vs 401 (per rep) | p50 vs 401 |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.variant} | ${r.headerBytes} | ${r.status} | ${r.serverCpuUsPerRequest.toFixed(1)} | ${r.p50.toFixed(3)} | ${r.cpuVs401.toFixed(2)}x (${r.cpuVs401PerRep.map((x) => x.toFixed(2)).join(", ")}) | ${r.p50Vs401.toFixed(2)}x |`,
    );
  }
  for (const r of rows.filter((row) => row.variant !== "401")) {
    const worst = Math.max(r.cpuVs401, r.p50Vs401);
    console.log(
      `  ${r.variant}: ${worst.toFixed(2)}x the ordinary 401 (target ≤ ${target}x): ${worst <= target ? "met" : "MISSED"}`,
    );
  }
}
