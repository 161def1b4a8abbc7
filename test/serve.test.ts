import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQaClient } from "../generated/@acme/qa.js";
import { createSearchClient as createGlobexSearchClient } from "../generated/@globex/search.js";
import { createFlowClient } from "../generated/runtime/index.js";
import type { ServeOptions } from "../src/serve/serve.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";
import { failureOf } from "./helpers/flow-error.js";
import { REPO_ROOT, writeFiles } from "./helpers/temp-dir.js";

const ACME_KEY = "k_acme_0123456789abcdef";
const ALL_KEY = "k_all_0123456789abcdef";

type Started = StartedServe;

function serve(overrides: Partial<ServeOptions> = {}): Promise<Started> {
  return startTestServe(`${ACME_KEY}:@acme,${ALL_KEY}`, overrides);
}

/** For the tests of a describe block: a server whose handlers are `files` (path → source); its log entries gather in `logs`. */
function serveWithHandlers(files: Record<string, string>): {
  server: Started;
  readonly logs: Record<string, unknown>[];
} {
  const fixture = {
    server: undefined as unknown as Started,
    logs: [] as Record<string, unknown>[],
  };
  let handlersDir = "";
  beforeAll(async () => {
    handlersDir = await mkdtemp(path.join(tmpdir(), "flowgen-handlers-"));
    await writeFiles(handlersDir, files);
    fixture.server = await serve({
      handlers: handlersDir,
      cwd: "/",
      log: (entry) => fixture.logs.push(entry),
    });
  });
  afterAll(async () => {
    await fixture.server?.close();
    await rm(handlersDir, { recursive: true, force: true });
  });
  return fixture;
}

async function post(
  url: string,
  init: { body?: string; headers?: Record<string, string>; method?: string } = {},
) {
  const response = await fetch(url, {
    method: init.method ?? "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${ALL_KEY}`,
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe("flowgen serve, called by generated clients over HTTP on 127.0.0.1", () => {
  const fixture = serveWithHandlers({
    // A TypeScript handler, typed with the generated types through defineFlow.
    "@acme/qa.ts": [
      `import { defineFlow } from ${JSON.stringify(path.join(REPO_ROOT, "src/serve/define-flow.ts"))};`,
      `import type { QaInput, QaOutput } from ${JSON.stringify(path.join(REPO_ROOT, "generated/@acme/qa.js"))};`,
      "export default defineFlow<QaInput, QaOutput>(async (input, context) => ({",
      "  answer: input.question === 'slow?' ? await new Promise((r) => setTimeout(() => r('late'), 300)) : `${context.flowId} heard: ${input.question}`,",
      "}));",
      "",
    ].join("\n"),
    // A handler that breaks its own output schema.
    "@acme/invoice.mjs": "export default async () => ({ not: 'an invoice' });\n",
  });

  it("answers with the flow's handler, typed end to end", async () => {
    const qa = createQaClient({ apiKey: ACME_KEY, baseUrl: fixture.server.url });
    const result = await qa.call({ question: "Capital of France?" });
    expect(result.data).toEqual({ answer: "@acme/qa heard: Capital of France?" });
    expect(result.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(result.response?.headers.get("ratelimit-limit")).toBe("1000");
  });

  it("answers flows without a handler with a mock: the matching example, else valid generated data", async () => {
    const search = createGlobexSearchClient({ apiKey: ALL_KEY, baseUrl: fixture.server.url });
    const first = await search.run({ text: "anything at all" });
    const again = await search.run({ text: "anything at all" });
    expect(again).toEqual(first);
    expect(first).toBeTypeOf("object");
  });

  it("rejects input that breaks the schema with 400 and every violation", async () => {
    const qa = createQaClient({ apiKey: ALL_KEY, baseUrl: fixture.server.url });
    const error = await failureOf(qa.run({ question: "", options: [3], extra: true } as never));
    expect(error).toMatchObject({ kind: "invalid_input", status: 400, code: "invalid_input" });
    expect(error.details).toEqual([
      { pointer: "/extra", message: "is not an allowed property" },
      { pointer: "/question", message: "must NOT have fewer than 1 characters" },
      { pointer: "/options/0", message: "must be string" },
    ]);
    expect(error.requestId).toBe(error.response?.headers.get("x-request-id"));
  });

  it("answers 401 without a key or with an unknown one, and 403 for another org", async () => {
    const missing = await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: "{}",
      headers: { authorization: "" },
    });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="flowgen"');
    expect(missing.body).toMatchObject({ code: "unauthorized" });

    const unknown = await failureOf(
      createQaClient({ apiKey: "k_not_a_real_key_000", baseUrl: fixture.server.url }).run({
        question: "?",
      }),
    );
    expect(unknown).toMatchObject({ kind: "auth", status: 401, code: "unauthorized" });
    expect(unknown.headers?.get("www-authenticate")).toContain('error="invalid_token"');

    const forbidden = await failureOf(
      createGlobexSearchClient({ apiKey: ACME_KEY, baseUrl: fixture.server.url }).run({
        text: "x",
      }),
    );
    expect(forbidden).toMatchObject({ kind: "auth", status: 403, code: "forbidden" });
    // A call the key may not make still counts against it, and says how much is left.
    expect(forbidden.headers?.get("ratelimit-limit")).toMatch(/^\d+$/);
    expect(forbidden.headers?.get("ratelimit-remaining")).toMatch(/^\d+$/);
  });

  it("answers 404 for unknown flows and paths, and 405 with Allow: POST for other methods", async () => {
    const nowhere = createFlowClient(
      { id: "@acme/nope", path: "/v1/@acme/nope" },
      {},
      { apiKey: ALL_KEY, baseUrl: fixture.server.url },
    );
    const error = await failureOf(nowhere.run({}));
    expect(error).toMatchObject({ kind: "not_found", status: 404, code: "not_found" });
    expect(error.message).toContain(
      "the flows this key may call are: @acme/invoice, @acme/org-chart, @acme/qa, @acme/search, @globex/search",
    );

    expect((await post(`${fixture.server.url}/v2/@acme/qa`, { body: "{}" })).status).toBe(404);
    expect((await post(`${fixture.server.url}/`, { method: "GET" })).status).toBe(404);

    const get = await post(`${fixture.server.url}/v1/@acme/qa`, { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(get.body).toMatchObject({ code: "method_not_allowed" });
  });

  it("answers 413 for large bodies, 415 for other media types, 400 for broken, empty or prototype-poisoning JSON", async () => {
    const large = await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: JSON.stringify({ question: "x".repeat(70 * 1024) }),
    });
    expect(large).toMatchObject({ status: 413, body: { code: "payload_too_large" } });
    const text = await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: "question",
      headers: { "content-type": "text/plain" },
    });
    expect(text).toMatchObject({ status: 415, body: { code: "unsupported_media_type" } });
    const broken = await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: '{"question": "a" "b"}',
    });
    expect(broken).toMatchObject({ status: 400, body: { code: "invalid_json" } });
    // Says where and what, quoting none of the body (it may hold a key).
    expect(broken.body?.["message"]).toBe(
      "The body is not valid JSON: expected ',' between members at line 1, column 18; send the flow's input as JSON.",
    );
    const empty = await post(`${fixture.server.url}/v1/@acme/qa`, { body: "" });
    expect(empty).toMatchObject({
      status: 400,
      body: { code: "invalid_json", message: "The body is empty; send the flow's input as JSON." },
    });
    const poisoned = await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: '{"question": "x", "__proto__": {"admin": true}}',
    });
    // A "__proto__" key is data, checked by the schema like any other key: qa allows no extra ones.
    expect(poisoned).toMatchObject({
      status: 400,
      body: {
        code: "invalid_input",
        details: [{ pointer: "/__proto__", message: "is not an allowed property" }],
      },
    });
    expect(({} as Record<string, unknown>)["admin"]).toBeUndefined();
  });

  it("turns handler output that breaks the output schema into a 500 and a log line", async () => {
    const invoice = {
      customer: { kind: "person", name: "Ada Lovelace" },
      lines: [{ description: "Seat", quantity: 1, unitPrice: { amount: "1.00", currency: "EUR" } }],
    };
    const result = await post(`${fixture.server.url}/v1/@acme/invoice`, {
      body: JSON.stringify(invoice),
      headers: { "x-request-id": "trace-42" },
    });
    if (result.status === 400)
      return expect.fail(
        `the test input is invalid for @acme/invoice: ${JSON.stringify(result.body)}`,
      );
    expect(result).toMatchObject({
      status: 500,
      body: { code: "internal", requestId: "trace-42" },
    });
    expect(
      fixture.logs.find((entry) => entry["requestId"] === "trace-42" && entry["level"] === "error"),
    ).toMatchObject({
      msg: "the handler of @acme/invoice returned output that does not match the output schema",
    });
  });

  it("logs each request as one JSON line without the key", async () => {
    await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: JSON.stringify({ question: "log me" }),
      headers: { "x-request-id": "log-1" },
    });
    const entry = fixture.logs.find((e) => e["requestId"] === "log-1" && e["msg"] === "request");
    expect(entry).toMatchObject({ method: "POST", path: "/v1/@acme/qa", status: 200 });
    expect(JSON.stringify(fixture.logs)).not.toContain(ALL_KEY);
    expect(JSON.stringify(fixture.logs)).not.toContain(ACME_KEY);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a key's burst is spent, and counts keys apart", async () => {
    const server = await serve({ rate: 1, burst: 2 });
    try {
      const qa = createQaClient({ apiKey: ALL_KEY, baseUrl: server.url, retry: false });
      const first = await qa.call({ question: "What is the capital of France?" });
      expect(first.response?.headers.get("ratelimit-remaining")).toBe("1");
      await qa.run({ question: "What is the capital of France?" });
      const error = await failureOf(qa.run({ question: "What is the capital of France?" }));
      expect(error).toMatchObject({
        kind: "rate_limited",
        status: 429,
        code: "rate_limited",
        retryAfterMs: 1000,
      });
      expect(error.headers?.get("ratelimit-remaining")).toBe("0");
      const other = createQaClient({ apiKey: ACME_KEY, baseUrl: server.url, retry: false });
      expect(await other.run({ question: "What is the capital of France?" })).toEqual({
        answer: "Paris",
      });
    } finally {
      await server.close();
    }
  });
});

describe("handlers that answer at once, throw or reject", () => {
  const fixture = serveWithHandlers({
    // Not async: the answer is there when the handler returns.
    "@acme/qa.mjs":
      "export default (input) => (input.question === 'throw?' ? (() => { throw new Error('sync boom'); })() : { answer: `sync: ${input.question}` });\n",
    "@globex/search.mjs": "export default async () => { throw new Error('async boom'); };\n",
  });

  it("sends what a synchronous handler returns", async () => {
    const qa = createQaClient({ apiKey: ALL_KEY, baseUrl: fixture.server.url });
    const result = await qa.call({ question: "now?" });
    expect(result.data).toEqual({ answer: "sync: now?" });
    expect(result.response?.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
  });

  it("answers 500 with the request id, and logs the stack, when a handler throws or rejects", async () => {
    const thrown = await post(`${fixture.server.url}/v1/@acme/qa`, {
      body: JSON.stringify({ question: "throw?" }),
      headers: { "x-request-id": "sync-throw" },
    });
    expect(thrown).toMatchObject({
      status: 500,
      body: { code: "internal", requestId: "sync-throw" },
    });
    expect(thrown.headers.get("x-request-id")).toBe("sync-throw");
    expect(
      fixture.logs.find(
        (entry) => entry["requestId"] === "sync-throw" && entry["level"] === "error",
      ),
    ).toMatchObject({ msg: "the handler of @acme/qa threw" });
    expect(
      String(
        fixture.logs.find(
          (entry) => entry["requestId"] === "sync-throw" && entry["level"] === "error",
        )?.["error"],
      ),
    ).toContain("sync boom");

    const rejected = await post(`${fixture.server.url}/v1/@globex/search`, {
      body: JSON.stringify({ text: "x" }),
      headers: { "x-request-id": "async-throw" },
    });
    expect(rejected).toMatchObject({
      status: 500,
      body: { code: "internal", requestId: "async-throw" },
    });
    expect(
      String(
        fixture.logs.find(
          (entry) => entry["requestId"] === "async-throw" && entry["level"] === "error",
        )?.["error"],
      ),
    ).toContain("async boom");
  });
});

describe("auth comes first", () => {
  it("answers 401 before looking at the body: broken JSON, another media type, a body too large", async () => {
    const server = await serve({ bodyLimit: 1024 });
    try {
      const url = `${server.url}/v1/@acme/qa`;
      const bodies = [
        { body: '{"question": ' },
        { body: "question", headers: { "content-type": "text/plain" } },
        { body: JSON.stringify({ question: "x".repeat(4096) }) },
      ];
      for (const { body, headers } of bodies) {
        const answer = await post(url, {
          body,
          headers: { ...headers, authorization: "Bearer k_not_a_real_key_000" },
        });
        expect(answer).toMatchObject({ status: 401, body: { code: "unauthorized" } });
        expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
      }
      // With a key, the same bodies get their own answers.
      const statuses = [];
      for (const { body, headers } of bodies)
        statuses.push((await post(url, { body, headers })).status);
      expect(statuses).toEqual([400, 415, 413]);
    } finally {
      await server.close();
    }
  });

  it("checks the key again when a keep-alive connection sends another one", async () => {
    const server = await serve({});
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      const call = (key: string) =>
        new Promise<number>((resolve, reject) => {
          const request = http.request(
            `${server.url}/v1/@acme/qa`,
            {
              method: "POST",
              agent,
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            },
            (response) => {
              sockets.add(response.socket);
              response.resume();
              response.on("end", () => resolve(response.statusCode ?? 0));
            },
          );
          request.on("error", reject);
          request.end(JSON.stringify({ question: "What is the capital of France?" }));
        });
      const statuses = [
        await call(ALL_KEY),
        await call("k_not_a_real_key_000"),
        await call(ALL_KEY),
        await call(ACME_KEY.slice(0, -1)),
      ];
      expect(statuses).toEqual([200, 401, 200, 401]);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});

describe("handlers in development", () => {
  it("reloads a handler when its file changes, and keeps the last good one when an edit breaks it", async () => {
    const handlersDir = await mkdtemp(path.join(tmpdir(), "flowgen-handlers-"));
    const write = (answer: string) =>
      writeFiles(handlersDir, {
        "@acme/qa.mjs": `export default async () => ({ answer: ${JSON.stringify(answer)} });\n`,
      });
    await write("first");
    const said: string[] = [];
    const server = await serve({
      handlers: handlersDir,
      cwd: "/",
      watch: true,
      say: (line) => said.push(line),
    });
    try {
      const qa = createQaClient({ apiKey: ALL_KEY, baseUrl: server.url });
      expect(await qa.run({ question: "?" })).toEqual({ answer: "first" });
      await write("second");
      for (let i = 0; i < 50 && !said.some((line) => line.includes("reloaded")); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await qa.run({ question: "?" })).toEqual({ answer: "second" });

      await writeFiles(handlersDir, { "@acme/qa.mjs": "export default {" });
      for (let i = 0; i < 50 && !said.some((line) => line.includes("kept the previous")); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(said.find((line) => line.includes("kept the previous"))).toContain("@acme/qa");
      expect(await qa.run({ question: "?" })).toEqual({ answer: "second" });
    } finally {
      await server.close();
      await rm(handlersDir, { recursive: true, force: true });
    }
  });
});

describe("shutdown", () => {
  it("lets requests in flight finish when it closes", async () => {
    const handlersDir = await mkdtemp(path.join(tmpdir(), "flowgen-handlers-"));
    // The handler tells the test it runs, and answers when the test says: no timing involved.
    await writeFiles(handlersDir, {
      "@acme/qa.mjs":
        "export default () => new Promise((answer) => globalThis.shutdownTest.started(() => answer({ answer: 'done' })));\n",
    });
    const server = await serve({ handlers: handlersDir, cwd: "/" });
    const test = globalThis as { shutdownTest?: { started(release: () => void): void } };
    try {
      const running = new Promise<() => void>((started) => (test.shutdownTest = { started }));
      const qa = createQaClient({ apiKey: ALL_KEY, baseUrl: server.url });
      const inFlight = qa.run({ question: "?" });
      const release = await running;
      let closed = false;
      const closing = server.close().then(() => (closed = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBe(false);
      release();
      expect(await inFlight).toEqual({ answer: "done" });
      await closing;
    } finally {
      delete test.shutdownTest;
      await rm(handlersDir, { recursive: true, force: true });
    }
  });
});
