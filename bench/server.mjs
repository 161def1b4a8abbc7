// Loopback JSON server for bench/runtime.mjs, which forks it; not meant to be run by hand.
//
// Listens on 127.0.0.1 only, on a port the OS picks, and sends that port to the parent over IPC.
// Every POST with a bearer token and a JSON object body gets the same small flow-0 style answer;
// anything else gets a JSON error (400/401/405), so a client that sends the wrong thing fails the
// bench instead of being timed. It stops by itself, whichever comes first: the parent goes away
// (IPC disconnect), BENCH_SERVER_MAX_REQUESTS requests were served, or BENCH_SERVER_MAX_SECONDS
// passed.

import { createServer } from "node:http";

const MAX_SECONDS = Number(process.env.BENCH_SERVER_MAX_SECONDS) || 300;
const MAX_REQUESTS = Number(process.env.BENCH_SERVER_MAX_REQUESTS) || 200_000;
const ANSWER = JSON.stringify({
  answer: "ok",
  confidence: 0.9,
  citations: [{ source: "doc-1", page: 3 }],
  usage: { inputTokens: 12, outputTokens: 3 },
  status: "complete",
});
const ANSWER_HEADERS = {
  "content-type": "application/json",
  "content-length": Buffer.byteLength(ANSWER),
};
let served = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    served++;
    const problem = check(req, Buffer.concat(chunks).toString("utf8"));
    if (problem) {
      const body = JSON.stringify({ code: problem.code, message: problem.message });
      res.writeHead(problem.status, { "content-type": "application/json" });
      res.end(body);
    } else {
      res.writeHead(200, ANSWER_HEADERS);
      res.end(ANSWER);
    }
    if (served >= MAX_REQUESTS) stop("request limit reached");
  });
});
server.keepAliveTimeout = 5_000;

function check(req, text) {
  if (req.method !== "POST")
    return { status: 405, code: "method_not_allowed", message: `${req.method} ${req.url}` };
  if (!/^Bearer \S+$/.test(req.headers.authorization ?? ""))
    return { status: 401, code: "unauthorized", message: "no bearer token" };
  if (!String(req.headers["content-type"]).startsWith("application/json"))
    return { status: 400, code: "bad_content_type", message: String(req.headers["content-type"]) };
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 400, code: "bad_json", message: "the body is not JSON" };
  }
  if (typeof body?.question !== "string")
    return { status: 400, code: "bad_body", message: "no question in the body" };
  return undefined;
}

function stop(why) {
  if (process.env.BENCH_SERVER_VERBOSE)
    console.error(`bench server: ${why} after ${served} requests`);
  server.close();
  server.closeAllConnections();
  process.exit(0);
}

setTimeout(() => stop("time limit reached"), MAX_SECONDS * 1000).unref();
process.on("disconnect", () => stop("parent gone"));
if (!process.connected) stop("no parent (start it through bench/runtime.mjs)");
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
