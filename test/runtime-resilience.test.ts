import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Middleware } from "openapi-fetch";
import {
  createFlowClient,
  createFlowTransport,
  type ClientOptions,
  type FlowClient,
  type FlowEvent,
} from "../templates/runtime/index.js";
import { failureOf } from "./helpers/flow-error.js";

// A loopback server whose flows answer from scripts: the nth request to a flow gets the nth step
// (the last step repeats). Each test uses its own flow name, so tests share no state.

type Step = (res: ServerResponse, req: IncomingMessage) => void;
interface Seen {
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

const scripts = new Map<string, Step[]>();
const seen = new Map<string, Seen[]>();
let inFlight = 0;
let maxInFlight = 0;
let server: Server;
let baseUrl: string;
let closedPortUrl: string;

const KEY = "sk_test_resilience_0123456789";

function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return (res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}
const ok = json(200, { answer: "yes" });
const rateLimited = (retryAfter: string | undefined, extra: Record<string, string> = {}) =>
  json(
    429,
    { code: "rate_limited", message: "Too many requests" },
    retryAfter === undefined ? extra : { "retry-after": retryAfter, ...extra },
  );
const unavailable = json(503, { code: "unavailable", message: "Try again" });
const internal = json(500, { code: "internal", message: "Boom" });
/** Reads the request, then drops the connection without answering. */
const drop: Step = (res) => res.socket?.destroy();
const slow =
  (ms: number, step: Step = ok): Step =>
  (res, req) => {
    const timer = setTimeout(() => step(res, req), ms);
    res.on("close", () => clearTimeout(timer));
  };

function script(name: string, ...steps: Step[]): string {
  scripts.set(name, steps);
  seen.set(name, []);
  return name;
}

function client(
  name: string,
  options: ClientOptions = {},
): FlowClient<{ q: string }, { answer: string }> {
  const id = `@test/${name}`;
  return createFlowClient({ id, path: `/v1/${id}` }, {}, { apiKey: KEY, baseUrl, ...options });
}

function listen(s: Server): Promise<string> {
  return new Promise((resolve) =>
    s.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const name = (req.url ?? "").replace(/^\/v1\/@test\//, "");
      const steps = scripts.get(name);
      const log = seen.get(name);
      if (!steps || !log) return json(404, { code: "not_found", message: "no script" })(res, req);
      log.push({ headers: req.headers, body, at: Date.now() });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on("close", () => inFlight--);
      (steps[Math.min(log.length - 1, steps.length - 1)] as Step)(res, req);
    });
  });
  baseUrl = await listen(server);
  const doomed = createServer();
  closedPortUrl = await listen(doomed);
  await new Promise((resolve) => doomed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("retries", () => {
  it("retries 429 and 503 and succeeds, reporting each decision to onEvent", async () => {
    const name = script("busy", rateLimited("0"), unavailable, ok);
    const events: FlowEvent[] = [];
    const flow = client(name, {
      retry: { baseDelayMs: 1 },
      onEvent: (e) => events.push(e),
    });
    const result = await flow.call({ q: "?" });
    expect(result.data).toEqual({ answer: "yes" });
    expect(seen.get(name)).toHaveLength(3);
    expect(
      events.map((e) => `${e.type}:${e.attempt}${"status" in e ? `:${e.status}` : ""}`),
    ).toEqual([
      "request:1",
      "response:1:429",
      "retry:1",
      "request:2",
      "response:2:503",
      "retry:2",
      "request:3",
      "response:3:200",
    ]);
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({
      flowId: "@test/busy",
      error: { kind: "rate_limited" },
    });
  });

  it("stops after maxRetries and reports the attempts", async () => {
    const name = script("always-busy", unavailable);
    const error = await failureOf(
      client(name, { retry: { maxRetries: 3, baseDelayMs: 1 } }).run({
        q: "?",
      }),
    );
    expect(error).toMatchObject({ kind: "server", status: 503, attempts: 4 });
    expect(seen.get(name)).toHaveLength(4);
  });

  it("waits as long as Retry-After says, in seconds", async () => {
    // The wait between attempts runs on fake timers: the test moves time, it never waits for it.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const name = script("retry-after-seconds", rateLimited("1"), ok);
      let retried: (event: Extract<FlowEvent, { type: "retry" }>) => void = () => undefined;
      const retry = new Promise<Extract<FlowEvent, { type: "retry" }>>((resolve) => {
        retried = resolve;
      });
      const run = client(name, {
        onEvent: (e) => (e.type === "retry" ? retried(e) : undefined),
      }).run({ q: "?" });
      const { delayMs, error } = await retry;
      expect(delayMs).toBe(1000);
      expect(error.retryAfterMs).toBe(1000);
      await vi.advanceTimersByTimeAsync(999);
      expect(seen.get(name)).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(run).resolves.toEqual({ answer: "yes" });
      expect(seen.get(name)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads Retry-After as an HTTP date, and a rate-limit reset when there is no Retry-After", async () => {
    const date = script(
      "retry-after-date",
      rateLimited(new Date(Date.now() + 60_000).toUTCString()),
    );
    const error = await failureOf(client(date, { retry: { maxDelayMs: 1000 } }).run({ q: "?" }));
    expect(error.retryAfterMs).toBeGreaterThan(55_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);

    const reset = script(
      "reset-header",
      rateLimited(undefined, {
        "ratelimit-reset": "30",
        "ratelimit-remaining": "0",
      }),
    );
    const fromReset = await failureOf(
      client(reset, { retry: { maxDelayMs: 1000 } }).run({ q: "?" }),
    );
    expect(fromReset.retryAfterMs).toBeGreaterThan(29_000);
    expect(fromReset.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it("does not retry when the server asks for a longer wait than maxDelayMs", async () => {
    const name = script("long-wait", rateLimited("120"));
    const events: FlowEvent[] = [];
    const error = await failureOf(client(name, { onEvent: (e) => events.push(e) }).run({ q: "?" }));
    expect(error).toMatchObject({
      kind: "rate_limited",
      retryAfterMs: 120_000,
      attempts: 1,
    });
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
  });

  it("does not retry a 500 or a dropped connection unless the call is idempotent", async () => {
    const server500 = script("plain-500", internal, ok);
    expect(
      await failureOf(client(server500, { retry: { baseDelayMs: 1 } }).run({ q: "?" })),
    ).toMatchObject({ kind: "server", attempts: 1 });
    expect(seen.get(server500)).toHaveLength(1);

    const dropped = script("dropped", drop, ok);
    const error = await failureOf(client(dropped, { retry: { baseDelayMs: 1 } }).run({ q: "?" }));
    expect(error).toMatchObject({
      kind: "connection",
      code: "network_error",
      status: 0,
      attempts: 1,
    });
    expect(seen.get(dropped)).toHaveLength(1);

    const idempotent = script("idempotent", internal, drop, ok);
    const output = await client(idempotent, { retry: { baseDelayMs: 1 } }).run(
      { q: "?" },
      { idempotent: true },
    );
    expect(output).toEqual({ answer: "yes" });
    expect(seen.get(idempotent)).toHaveLength(3);
  });

  it("sends an idempotency key, the same on every attempt, and retries with it", async () => {
    const name = script("with-key", internal, internal, ok);
    await client(name, { retry: { baseDelayMs: 1 } }).run(
      { q: "?" },
      { idempotencyKey: "order-42" },
    );
    expect(seen.get(name)?.map((s) => s.headers["idempotency-key"])).toEqual([
      "order-42",
      "order-42",
      "order-42",
    ]);
    expect(new Set(seen.get(name)?.map((s) => s.body)).size).toBe(1);
  });

  it("retries a refused connection, which never reached the server", async () => {
    const events: FlowEvent[] = [];
    const flow = createFlowClient(
      { id: "@test/refused", path: "/v1/@test/refused" },
      {},
      {
        apiKey: KEY,
        baseUrl: closedPortUrl,
        retry: { baseDelayMs: 1 },
        onEvent: (e) => events.push(e),
      },
    );
    const error = await failureOf(flow.run({}));
    expect(error).toMatchObject({ kind: "connection", attempts: 3 });
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
  });

  it("stops waiting at once when the caller aborts", async () => {
    // Aborted as the wait of 10 s starts: had the wait gone on, a second attempt would follow.
    const name = script("abort-in-backoff", rateLimited("10"));
    const controller = new AbortController();
    const flow = client(name, {
      onEvent: (e) => (e.type === "retry" ? queueMicrotask(() => controller.abort()) : undefined),
    });
    const error = await failureOf(flow.run({ q: "?" }, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: "aborted", attempts: 1 });
    expect(seen.get(name)).toHaveLength(1);
  });

  it("does not start a wait that would pass the deadline", async () => {
    // Had it waited, the deadline would have ended the call as a timeout.
    const name = script("deadline", rateLimited("2"));
    const events: FlowEvent[] = [];
    const error = await failureOf(
      client(name, { timeoutMs: 1000, onEvent: (e) => events.push(e) }).run({ q: "?" }),
    );
    expect(error).toMatchObject({ kind: "rate_limited", attempts: 1 });
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
  });

  it("can be turned off", async () => {
    const name = script("no-retry", unavailable, ok);
    await failureOf(client(name, { retry: false }).run({ q: "?" }));
    expect(seen.get(name)).toHaveLength(1);
  });
});

describe("timeouts", () => {
  it("gives up after the client's timeout, and a call can set its own", async () => {
    const name = script("slow", slow(3000));
    const error = await failureOf(client(name, { timeoutMs: 200 }).run({ q: "?" }));
    expect(error).toMatchObject({
      kind: "timeout",
      code: "timeout",
      status: 0,
    });
    expect(error.message).toBe("@test/slow: no answer within 200 ms");

    const perCall = await failureOf(
      client(name, { timeoutMs: 60_000 }).run({ q: "?" }, { timeoutMs: 100 }),
    );
    expect(perCall.kind).toBe("timeout");
  });

  it("keeps each call's own deadline and signal", async () => {
    const name = script("deadlines", slow(400));
    const flow = client(name, { timeoutMs: 5000 });
    const [short, long] = await Promise.all([
      flow.call({ q: "short" }, { timeoutMs: 100 }),
      flow.call({ q: "long" }),
    ]);
    expect(short.error?.kind).toBe("timeout");
    expect(long.data).toEqual({ answer: "yes" });
    const caller = new AbortController();
    const aborted = flow.call({ q: "mine" }, { signal: caller.signal });
    caller.abort();
    expect((await aborted).error?.kind).toBe("aborted");
    expect((await flow.call({ q: "after" })).data).toEqual({ answer: "yes" });
  });

  it("lets a slow answer finish within the deadline", async () => {
    const name = script("slowish", slow(150));
    expect(await client(name, { timeoutMs: 2000 }).run({ q: "?" })).toEqual({
      answer: "yes",
    });
  });
});

describe("rate limits and concurrency", () => {
  it("exposes the last RateLimit-* or X-RateLimit-* figures, shared by the clients of one transport", async () => {
    const options: ClientOptions = {
      apiKey: KEY,
      baseUrl,
      transport: createFlowTransport(),
    };
    const a = createFlowClient({ id: "@test/rl-a", path: "/v1/@test/rl-a" }, {}, options);
    const b = createFlowClient({ id: "@test/rl-b", path: "/v1/@test/rl-b" }, {}, options);
    script(
      "rl-a",
      json(
        200,
        { answer: "a" },
        {
          "ratelimit-limit": "100",
          "ratelimit-remaining": "7",
          "ratelimit-reset": "30",
        },
      ),
    );
    script(
      "rl-b",
      json(
        200,
        { answer: "b" },
        {
          "x-ratelimit-limit": "50",
          "x-ratelimit-remaining": "3",
          "x-ratelimit-reset": "1900000000",
        },
      ),
    );
    expect(a.rateLimit).toBeUndefined();
    const before = Date.now();
    await a.run({});
    expect(b.rateLimit).toMatchObject({ limit: 100, remaining: 7 });
    expect(b.rateLimit?.resetAt).toBeGreaterThanOrEqual(before + 30_000);
    await b.run({});
    expect(a.rateLimit).toEqual({
      limit: 50,
      remaining: 3,
      resetAt: 1_900_000_000_000,
    });
    // Equal options but no transport in common: nothing shared.
    const apart = createFlowClient(
      { id: "@test/rl-a", path: "/v1/@test/rl-a" },
      {},
      { apiKey: KEY, baseUrl },
    );
    await client("rl-a").run({ q: "?" });
    expect(apart.rateLimit).toBeUndefined();
  });

  it("queues calls beyond maxConcurrency, across the clients of one transport", async () => {
    const transport = createFlowTransport({ maxConcurrency: 2 });
    const options: ClientOptions = { apiKey: KEY, baseUrl, transport };
    script("queue-a", slow(100));
    script("queue-b", slow(100));
    const a = createFlowClient<object, { answer: string }>(
      { id: "@test/queue-a", path: "/v1/@test/queue-a" },
      {},
      options,
    );
    const b = createFlowClient<object, { answer: string }>(
      { id: "@test/queue-b", path: "/v1/@test/queue-b" },
      {},
      options,
    );
    maxInFlight = 0;
    const results = await Promise.all([a, b, a, b, a, b].map((c) => c.run({})));
    expect(results).toHaveLength(6);
    expect(maxInFlight).toBe(2);
  });

  it("lets a queued call be aborted", async () => {
    const name = script("queue-abort", slow(300));
    const flow = client(name, {
      transport: createFlowTransport({ maxConcurrency: 1 }),
    });
    const first = flow.run({ q: "1" });
    const error = await failureOf(flow.run({ q: "2" }, { signal: AbortSignal.timeout(50) }));
    expect(error.kind).toBe("aborted");
    await first;
    expect(seen.get(name)).toHaveLength(1);
  });
});

describe("configuration", () => {
  it("reads FLOW_API_KEY and FLOW_BASE_URL when the options leave them out", async () => {
    vi.stubEnv("FLOW_API_KEY", KEY);
    vi.stubEnv("FLOW_BASE_URL", baseUrl);
    try {
      const name = script("from-env", ok);
      const flow = createFlowClient({ id: `@test/${name}`, path: `/v1/@test/${name}` }, {});
      await flow.run({});
      expect(seen.get(name)?.[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("allows http:// to loopback, and elsewhere only when asked", () => {
    const def = { id: "@test/x", path: "/v1/@test/x" };
    for (const url of ["http://localhost:8787", "http://127.0.0.1:1", "http://[::1]:8787"]) {
      expect(() => createFlowClient(def, {}, { apiKey: KEY, baseUrl: url })).not.toThrow();
    }
    expect(() => createFlowClient(def, {}, { apiKey: KEY, baseUrl: "http://10.0.0.1" })).toThrow(
      /allowInsecureHttp/,
    );
    expect(() =>
      createFlowClient(
        def,
        {},
        { apiKey: KEY, baseUrl: "http://10.0.0.1", allowInsecureHttp: true },
      ),
    ).not.toThrow();
  });

  it("runs openapi-fetch middleware on every attempt, with openapi-fetch's own context", async () => {
    const name = script("middleware", unavailable, ok);
    const statuses: number[] = [];
    const schemaPaths: string[] = [];
    const middleware: Middleware = {
      onRequest({ request, schemaPath }) {
        schemaPaths.push(schemaPath);
        request.headers.set("x-trace", "t-1");
        return request;
      },
      onResponse({ response }) {
        statuses.push(response.status);
        return undefined;
      },
    };
    const flow = client(name, { retry: { baseDelayMs: 1 } });
    flow.client.use(middleware);
    await flow.run({ q: "?" });
    expect(seen.get(name)?.map((s) => s.headers["x-trace"])).toEqual(["t-1", "t-1"]);
    expect(statuses).toEqual([503, 200]);
    expect(schemaPaths).toEqual([`/v1/@test/${name}`, `/v1/@test/${name}`]);
  });

  it("lets middleware answer a request itself, or recover from a network failure", async () => {
    const cached: Middleware = {
      onRequest: () => Response.json({ answer: "cached" }),
    };
    const name = script("never-called", ok);
    expect(await client(name, { middleware: [cached] }).run({ q: "?" })).toEqual({
      answer: "cached",
    });
    expect(seen.get(name)).toHaveLength(0);

    const fallback: Middleware = {
      onError: ({ error }) => Response.json({ answer: `offline: ${String(error)}`.slice(0, 20) }),
    };
    const offline = createFlowClient<object, { answer: string }>(
      { id: "@test/offline", path: "/v1/@test/offline" },
      {},
      {
        apiKey: KEY,
        baseUrl: closedPortUrl,
        retry: false,
        middleware: [fallback],
      },
    );
    expect((await offline.run({})).answer).toBe("offline: TypeError: ");
  });

  it("sends the key from its own middleware, which middleware added later sees", async () => {
    const name = script("auth-middleware", ok);
    const flow = client(name, { headers: { authorization: "Bearer stolen" } });
    const seenByMiddleware: (string | null)[] = [];
    flow.client.use({
      onRequest({ request }) {
        seenByMiddleware.push(request.headers.get("authorization"));
      },
    });
    await flow.run({ q: "?" });
    expect(seenByMiddleware).toEqual([`Bearer ${KEY}`]);
    expect(seen.get(name)?.[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("puts the request id on results and errors", async () => {
    const name = script("request-ids", json(200, { answer: "x" }, { "x-request-id": "req-1" }));
    expect((await client(name).call({ q: "?" })).requestId).toBe("req-1");
    const failing = script(
      "request-ids-error",
      json(404, { code: "not_found", message: "No such flow" }, { "x-request-id": "req-2" }),
    );
    const result = await client(failing).call({ q: "?" });
    expect(result.requestId).toBe("req-2");
    expect(result.error).toMatchObject({
      kind: "not_found",
      requestId: "req-2",
    });
  });
});
