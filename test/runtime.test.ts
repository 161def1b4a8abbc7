import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  createFlowClient,
  createFlowTransport,
  FlowError,
  isFlowError,
  type ClientOptions,
  type FlowClient,
  type FlowFailure,
  type FlowResult,
} from "../templates/runtime/index.js";

interface QaInput {
  question: string;
  options?: string[];
}
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}
interface QaOutput {
  answer: string;
  seen: Seen;
}

const KEY = "sk_live_0123456789abcdef";
/** The key of clients that are not about secrecy; one whose text appears in no message (keys of any length are redacted). */
const TEST_KEY = "test-key-7q";

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const json = (
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
};

// One route per behaviour, so tests share no mutable state: the success route echoes the request.
const routes: Record<string, Route> = {
  "/v1/@acme/qa": (req, res, body) => {
    const parsed = JSON.parse(body) as QaInput;
    const seen: Seen = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: parsed,
    };
    json(res, 200, { answer: `you asked: ${parsed.question}`, seen });
  },
  "/v1/@acme/invalid": (_req, res) =>
    json(
      res,
      400,
      {
        code: "invalid_input",
        message: "Input does not match the flow schema",
        details: [{ pointer: "/question", message: "must be string" }, { nope: 1 }],
        requestId: "req-body",
      },
      { "x-request-id": "req-header" },
    ),
  "/v1/@acme/no-request-id-in-body": (_req, res) =>
    json(res, 429, { code: "rate_limited", message: "Slow down" }, { "x-request-id": "req-429" }),
  "/v1/@acme/wrong-shape": (_req, res) => json(res, 500, { error: "boom" }),
  "/v1/@acme/html-error": (_req, res) => {
    res.writeHead(502, { "content-type": "text/html", "x-request-id": "req-502" });
    res.end("<html>Bad gateway</html>");
  },
  "/v1/@acme/empty-error": (_req, res) => {
    res.writeHead(503);
    res.end();
  },
  "/v1/@acme/text-ok": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("OK");
  },
  "/v1/@acme/rate-limited": (_req, res) =>
    json(res, 429, { code: "rate_limited", message: "Slow down" }, { "retry-after": "2" }),
  "/v1/@acme/null-ok": (_req, res) => json(res, 200, null),
  "/v1/@acme/list-ok": (_req, res) => json(res, 200, [{ answer: "yes" }]),
  "/v1/@acme/no-content": (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  "/v1/@acme/slow": (_req, res) => {
    const timer = setTimeout(() => json(res, 200, { answer: "late" }), 5_000);
    res.on("close", () => clearTimeout(timer));
  },
  // A careless server that echoes the credential back in every field.
  "/v1/@acme/echo-key": (req, res) => {
    const auth = req.headers.authorization ?? "";
    json(res, 401, {
      code: "unauthorized",
      message: `key ${auth} is revoked`,
      details: [{ pointer: "", message: auth }],
      requestId: auth,
      hint: auth,
    });
  },
  "/v1/@acme/status-600": (_req, res) => {
    res.writeHead(600, { "content-type": "text/plain", location: "/elsewhere" });
    res.end("odd");
  },
  "/v1/@acme/status-799": (_req, res) => {
    res.writeHead(799, { "content-type": "text/plain" });
    res.end("odd");
  },
  "/v1/@acme/huge-error": (_req, res) => {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(`${"%41".repeat(1_000_000)}`);
  },
  "/v1/@acme/huge-json-error": (_req, res) =>
    json(res, 500, { code: "boom", message: "m", filler: "é".repeat(1_000_000) }),
  "/v1/@acme/many-details": (_req, res) =>
    json(res, 422, {
      code: "invalid_input",
      message: "Many problems",
      details: Array.from({ length: 600 }, (_, i) => ({
        pointer: `/items/${i}/name`,
        message: "must be a non-empty string of at most 80 characters",
      })),
      requestId: "req-many",
    }),
  "/v1/@acme/echo-key-text": (req, res) => {
    res.writeHead(401, { "content-type": "text/plain" });
    res.end(`denied: ${req.headers.authorization ?? ""}`);
  },
};

let server: Server;
let baseUrl: string;
let closedPortUrl: string;

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const route = routes[req.url ?? ""];
      if (route) route(req, res, body);
      else json(res, 404, { code: "not_found", message: `no route ${req.url}` });
    });
  });
  baseUrl = await listen(server);
  // A port that was just listening and is now closed: connecting to it is refused.
  const doomed = createServer();
  closedPortUrl = await listen(doomed);
  await new Promise((resolve) => doomed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function flow<I = QaInput, O = QaOutput>(
  name: string,
  options: Partial<ClientOptions> = {},
): FlowClient<I, O> {
  const id = `@acme/${name}`;
  return createFlowClient<I, O>(
    { id, path: `/v1/${id}` },
    {},
    { apiKey: TEST_KEY, baseUrl, ...options },
  );
}

async function runError(
  client: FlowClient<QaInput, unknown>,
  options?: { signal?: AbortSignal },
): Promise<FlowError> {
  const error: unknown = await client.run({ question: "q" }, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FlowError);
  return error as FlowError;
}

describe("successful calls", () => {
  it("POSTs JSON with the bearer key to /v1/<flow id> and resolves with the output", async () => {
    const output = await flow("qa").run({ question: "why?", options: ["a", "b"] });
    expect(output.answer).toBe("you asked: why?");
    expect(output.seen).toMatchObject({
      method: "POST",
      url: "/v1/@acme/qa",
      headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" },
      body: { question: "why?", options: ["a", "b"] },
    });
  });

  it.each([
    ["no slash", () => baseUrl],
    ["one trailing slash", () => `${baseUrl}/`],
    ["two trailing slashes", () => `${baseUrl}//`],
  ])("never requests //v1 (%s)", async (_name, makeBase) => {
    const output = await flow("qa", { baseUrl: makeBase() }).run({ question: "q" });
    expect(output.seen.url).toBe("/v1/@acme/qa");
  });

  it("uses the generated default baseUrl, and an explicit baseUrl over it", async () => {
    const def = { id: "@acme/qa", path: "/v1/@acme/qa" };
    const fromDefault = createFlowClient<QaInput, QaOutput>(def, { baseUrl }, { apiKey: "k" });
    expect((await fromDefault.run({ question: "q" })).answer).toBe("you asked: q");
    const overridden = createFlowClient<QaInput, QaOutput>(
      def,
      { baseUrl: closedPortUrl },
      { apiKey: "k", baseUrl },
    );
    expect((await overridden.run({ question: "q" })).answer).toBe("you asked: q");
  });

  it("takes a lone second argument as the options, as modules generated without a default pass it", async () => {
    const def = { id: "@acme/qa", path: "/v1/@acme/qa" };
    const client = createFlowClient<QaInput, QaOutput>(def, { apiKey: "k", baseUrl });
    expect((await client.run({ question: "q" })).answer).toBe("you asked: q");
    expect(() => createFlowClient(def, { apiKey: "k", baseUrl: "ftp://x" })).toThrow(TypeError);
  });

  it("sends client and per-call headers, per-call winning, and never lets them replace the key", async () => {
    const client = flow("qa", {
      headers: { "x-client": "c", "x-both": "client", authorization: "Bearer stolen" },
    });
    const { seen } = await client.run(
      { question: "q" },
      { headers: { "x-call": "r", "x-both": "call", Authorization: "Bearer other" } },
    );
    expect(seen.headers).toMatchObject({
      "x-client": "c",
      "x-call": "r",
      "x-both": "call",
      authorization: `Bearer ${TEST_KEY}`,
    });
  });

  it("sends requests through a custom fetch", async () => {
    const urls: string[] = [];
    const client = flow("qa", {
      fetch: (request) => (urls.push(request.url), fetch(request)),
    });
    await client.run({ question: "q" });
    expect(urls).toEqual([`${baseUrl}/v1/@acme/qa`]);
  });

  it("call() returns data and the response", async () => {
    const result = await flow("qa").call({ question: "q" });
    expect(result.error).toBeUndefined();
    expect(result.data?.answer).toBe("you asked: q");
    expect(result.response?.status).toBe(200);
  });
});

describe("failures", () => {
  it("maps a platform error body to FlowError fields", async () => {
    const error = await runError(flow("invalid"));
    expect({ ...error, response: error.response?.status, name: error.name }).toEqual({
      kind: "invalid_input",
      attempts: 1,
      details: [{ pointer: "/question", message: "must be string" }],
      retryAfterMs: undefined,
      flowId: "@acme/invalid",
      status: 400,
      code: "invalid_input",
      body: {
        code: "invalid_input",
        message: "Input does not match the flow schema",
        details: [{ pointer: "/question", message: "must be string" }],
        requestId: "req-body",
      },
      requestId: "req-body",
      response: 400,
      name: "FlowError",
    });
    expect(error.message).toMatchInlineSnapshot(`
      "@acme/invalid: Input does not match the flow schema [HTTP 400 invalid_input] (request id req-body)
        /question: must be string"
    `);
  });

  it.each([
    [
      "error body without requestId",
      "no-request-id-in-body",
      { kind: "rate_limited", status: 429, code: "rate_limited", requestId: "req-429" },
    ],
    [
      "JSON body of another shape",
      "wrong-shape",
      { kind: "server", status: 500, code: "http_500", requestId: undefined, body: undefined },
    ],
    [
      "HTML error body",
      "html-error",
      { kind: "server", status: 502, code: "http_502", requestId: "req-502", body: undefined },
    ],
    [
      "empty error body",
      "empty-error",
      { kind: "server", status: 503, code: "http_503", requestId: undefined, body: undefined },
    ],
    [
      "non-JSON 2xx",
      "text-ok",
      { kind: "invalid_response", status: 200, code: "invalid_response", requestId: undefined },
    ],
    [
      "2xx with JSON null",
      "null-ok",
      { kind: "invalid_response", status: 200, code: "invalid_response", requestId: undefined },
    ],
    [
      "2xx with a JSON array",
      "list-ok",
      { kind: "invalid_response", status: 200, code: "invalid_response", requestId: undefined },
    ],
    [
      "empty 2xx",
      "no-content",
      { kind: "invalid_response", status: 204, code: "invalid_response", requestId: undefined },
    ],
  ])("%s", async (_name, path, want) => {
    // No retries here: 429 and 503 are retried by default, which the retry tests cover.
    const error = await runError(flow(path, { retry: false }));
    expect(error).toMatchObject(want);
    expect(error.message).toContain(`HTTP ${want.status}`);
    expect(error.response?.status).toBe(want.status);
  });

  it("quotes a non-JSON error body in the message", async () => {
    expect((await runError(flow("html-error", { retry: false }))).message).toMatchInlineSnapshot(
      `"@acme/html-error: HTTP 502 Bad Gateway without a JSON error body: "<html>Bad gateway</html>" (request id req-502)"`,
    );
  });

  it("reports a refused connection as network_error with the cause", async () => {
    const error = await runError(flow("qa", { baseUrl: closedPortUrl, retry: false }));
    expect(error).toMatchObject({
      kind: "connection",
      status: 0,
      code: "network_error",
      response: undefined,
      body: undefined,
    });
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toMatch(/^@acme\/qa: network error: fetch failed \(.*ECONNREFUSED/);
  });

  it.each([
    ["already aborted", () => AbortSignal.abort()],
    ["aborted in flight", () => AbortSignal.timeout(50)],
    [
      "aborted with a custom reason",
      () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(new Error("user left")), 50);
        return controller.signal;
      },
    ],
  ])("reports an abort as aborted (%s)", async (_name, makeSignal) => {
    const error = await runError(flow("slow"), { signal: makeSignal() });
    expect(error).toMatchObject({
      kind: "aborted",
      status: 0,
      code: "aborted",
      message: "@acme/slow: the call was aborted",
    });
    expect(error.cause).toBeDefined();
  });

  it("call() returns the error instead of throwing", async () => {
    const controller = new AbortController();
    controller.abort();
    const cases = [
      [flow("invalid").call({ question: "q" }), "invalid_input", 400],
      [
        flow("qa", { baseUrl: closedPortUrl, retry: false }).call({ question: "q" }),
        "network_error",
        undefined,
      ],
      [flow("slow").call({ question: "q" }, { signal: controller.signal }), "aborted", undefined],
    ] as const;
    for (const [promise, code, status] of cases) {
      const result = await promise;
      expect(result.data).toBeUndefined();
      expect(result.error).toBeInstanceOf(FlowError);
      expect(result.error?.code).toBe(code);
      expect(result.response?.status).toBe(status);
    }
  });
});

describe("answers and requests outside the usual", () => {
  it.each([
    ["status-600", 600],
    ["status-799", 799],
  ])("a status above 599 (%s) is an http failure, never a throw", async (name, status) => {
    const result = await flow(name, { retry: false }).call({ question: "q" });
    expect(result.error).toMatchObject({ kind: "http", status, code: `http_${status}` });
    expect(result.error?.response?.status).toBe(status);
  });

  it("keeps only the start of a huge error body, for the message", async () => {
    const text = await runError(flow("huge-error", { retry: false }));
    expect(text.message).toBe(
      `@acme/huge-error: HTTP 500 Internal Server Error without a JSON error body: ${JSON.stringify("%41".repeat(66) + "%4")}`,
    );
    const json = await runError(flow("huge-json-error", { retry: false }));
    expect(json.body).toBeUndefined();
    expect(json.message).toMatch(
      /^@acme\/huge-json-error: HTTP 500 Internal Server Error without a JSON error body: "\{\\"code\\":\\"boom\\"/,
    );
  });

  it.each<[string, Partial<ClientOptions>, unknown, object]>([
    ["a BigInt in the input", {}, { question: 1n }, {}],
    [
      "a cycle in the input",
      {},
      (() => {
        const q: Record<string, unknown> = {};
        q.self = q;
        return q;
      })(),
      {},
    ],
    ["an idempotency key HTTP cannot carry", {}, { question: "q" }, { idempotencyKey: "a\nb" }],
    ["a non-Latin idempotency key", {}, { question: "q" }, { idempotencyKey: "ключ" }],
    [
      "a middleware that throws",
      {
        middleware: [
          {
            onRequest: () => {
              throw new Error("no");
            },
          },
        ],
      },
      { question: "q" },
      {},
    ],
  ])(
    "a request that could not be made (%s) is refused once, not retried as a network error",
    async (_name, options, input, runOptions) => {
      const events: string[] = [];
      const client = flow("qa", { ...options, onEvent: (event) => events.push(event.type) });
      const { error } = await client.call(input as QaInput, { ...runOptions, idempotent: true });
      expect(error).toMatchObject({
        kind: "invalid_input",
        code: "invalid_request",
        status: 0,
        attempts: 1,
      });
      expect(error?.message).toMatch(/^@acme\/qa: the request could not be made: /);
      expect(events).toEqual(["request", "error"]);
    },
  );

  it("keeps a platform error body with hundreds of details whole", async () => {
    const error = await runError(flow("many-details", { retry: false }));
    expect(error).toMatchObject({ code: "invalid_input", requestId: "req-many" });
    expect(error.details).toHaveLength(600);
  });

  it("does not retry a request a middleware's own fetch could not make, whatever its cause", async () => {
    const refused = Object.assign(new TypeError("fetch failed"), {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    const client = flow("qa", {
      middleware: [
        {
          onRequest: () => {
            throw refused;
          },
        },
      ],
    });
    const { error } = await client.call({ question: "q" }, { idempotent: true });
    expect(error).toMatchObject({ code: "invalid_request", attempts: 1 });
  });

  it("fails the call with the error of an onEvent hook that throws, and keeps no transport slot", async () => {
    const hook = new Error("hook failed");
    const transport = createFlowTransport({ maxConcurrency: 1 });
    const client = flow("qa", {
      transport,
      onEvent: () => {
        throw hook;
      },
    });
    await expect(client.call({ question: "q" })).rejects.toBe(hook);
    const after = await flow("qa", { transport, timeoutMs: 2_000 }).call({ question: "q" });
    expect(after.error).toBeUndefined();
  });

  it("retries a 503 whose body says invalid_request, a code only a request never made has locally", async () => {
    let answered = 0;
    const client = flow("qa", {
      retry: { maxRetries: 1, baseDelayMs: 1 },
      fetch: async (request) => {
        answered++;
        return answered === 1
          ? new Response(JSON.stringify({ code: "invalid_request", message: "busy" }), {
              status: 503,
              headers: { "content-type": "application/json" },
            })
          : fetch(request);
      },
    });
    const { error } = await client.call({ question: "q" });
    expect(error).toBeUndefined();
    expect(answered).toBe(2);
  });

  it.each([" ", "\n", " \n", "\t"])(
    "a base URL is used as read, whitespace around it (%j) left out",
    async (space) => {
      const { data } = await flow("qa", { baseUrl: `${baseUrl}/${space}` }).call({ question: "q" });
      expect(data?.seen.url).toBe("/v1/@acme/qa");
    },
  );
});

describe("the API key never leaks", () => {
  const leakSurfaces = (error: FlowError) => ({
    message: error.message,
    toString: String(error),
    json: JSON.stringify(error),
    stack: error.stack ?? "",
    body: JSON.stringify(error.body) ?? "",
    requestId: error.requestId ?? "",
  });

  it.each([
    ["error JSON echoing the key", "echo-key", () => baseUrl],
    ["error text echoing the key", "echo-key-text", () => baseUrl],
    ["network error", "qa", () => closedPortUrl],
  ])("%s", async (_name, path, makeBase) => {
    const events: unknown[] = [];
    const error = await runError(
      flow(path, {
        apiKey: KEY,
        baseUrl: makeBase(),
        retry: { baseDelayMs: 1 },
        onEvent: (event) => events.push(event),
      }),
    );
    expect(JSON.stringify(events)).not.toContain(KEY);
    for (const [surface, text] of Object.entries(leakSurfaces(error))) {
      expect(text, surface).not.toContain(KEY);
    }
  });

  it("redacts the echoed key but keeps the rest of the server's answer", async () => {
    const error = await runError(flow("echo-key", { apiKey: KEY }));
    expect(error.message).toBe(
      "@acme/echo-key: key Bearer [redacted] is revoked [HTTP 401 unauthorized] (request id Bearer [redacted])\n  (root): Bearer [redacted]",
    );
    expect(error.body).toMatchObject({ hint: "Bearer [redacted]" });
  });

  it("toJSON holds only log-safe fields", async () => {
    const error = await runError(flow("invalid", { apiKey: KEY }));
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      kind: "invalid_input",
      attempts: 1,
      flowId: "@acme/invalid",
      status: 400,
      code: "invalid_input",
      message: error.message,
      requestId: "req-body",
      details: [{ pointer: "/question", message: "must be string" }],
    });
    expect(error.stack).toMatch(/^FlowError: @acme\/invalid: /);
  });

  it("toJSON keeps how long the server asked to wait", async () => {
    const error = await runError(flow("rate-limited", { retry: false }));
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ status: 429, retryAfterMs: 2000 });
  });
});

describe("option validation", () => {
  // The environment must not fill in what these cases leave out.
  beforeEach(() => {
    vi.stubEnv("FLOW_API_KEY", "");
    vi.stubEnv("FLOW_BASE_URL", "");
    return () => vi.unstubAllEnvs();
  });

  const def = { id: "@acme/qa", path: "/v1/@acme/qa" };
  const cases: [string, { baseUrl?: string }, Partial<ClientOptions>][] = [
    ["missing apiKey", {}, { baseUrl: "https://api.example.com" }],
    ["empty apiKey", {}, { apiKey: "", baseUrl: "https://api.example.com" }],
    ["blank apiKey", {}, { apiKey: "  ", baseUrl: "https://api.example.com" }],
    ["apiKey with a line break", {}, { apiKey: "abc\ndef", baseUrl: "https://api.example.com" }],
    ["no baseUrl and no default", {}, { apiKey: "k" }],
    ["relative baseUrl", {}, { apiKey: "k", baseUrl: "/api" }],
    ["empty baseUrl", { baseUrl: "https://api.example.com" }, { apiKey: "k", baseUrl: "" }],
    ["non-http baseUrl", {}, { apiKey: "k", baseUrl: "ftp://files.example.com" }],
    ["baseUrl with a query", {}, { apiKey: "k", baseUrl: "https://api.example.com/?x=1" }],
    ["baseUrl with credentials", {}, { apiKey: "k", baseUrl: "https://u:p@api.example.com" }],
    ["bad default baseUrl", { baseUrl: "api.example.com" }, { apiKey: "k" }],
    ["http to a remote host", {}, { apiKey: "k", baseUrl: "http://api.example.com" }],
  ];

  it("throws a plain TypeError that says what to pass", () => {
    const messages: Record<string, string> = {};
    for (const [name, defaults, options] of cases) {
      let error: unknown;
      try {
        createFlowClient(def, defaults, options as ClientOptions);
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(TypeError);
      expect(error, name).not.toBeInstanceOf(FlowError);
      messages[name] = (error as TypeError).message;
    }
    expect(JSON.stringify(messages)).not.toContain("abc\\ndef");
    expect(messages).toMatchInlineSnapshot(`
      {
        "apiKey with a line break": "@acme/qa: pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
        "bad default baseUrl": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got "api.example.com"",
        "baseUrl with a query": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got "https://api.example.com/?x=1"",
        "baseUrl with credentials": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got "https://api.example.com/" (credentials left out)",
        "blank apiKey": "@acme/qa: pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
        "empty apiKey": "@acme/qa: pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
        "empty baseUrl": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got """,
        "http to a remote host": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got "http://api.example.com"",
        "missing apiKey": "@acme/qa: pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
        "no baseUrl and no default": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got undefined",
        "non-http baseUrl": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got "ftp://files.example.com"",
        "relative baseUrl": "@acme/qa: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got "/api"",
      }
    `);
  });
});

describe("options that would leak the key or leave the origin", () => {
  const key = "sk_live_Q7wE9rT2yU4iO6pA";
  const qa = { id: "@acme/qa", path: "/v1/@acme/qa" };
  it.each([
    ["the key given as baseUrl (options swapped)", qa, { apiKey: key, baseUrl: key }],
    ["the key in baseUrl's path", qa, { apiKey: key, baseUrl: `https://api.example.com/${key}` }],
    [
      "the key as baseUrl's password",
      qa,
      { apiKey: key, baseUrl: `https://u:${key}@api.example.com` },
    ],
    [
      "a flow path naming another host",
      { id: "@acme/qa", path: "@other.example/v1/@acme/qa" },
      { apiKey: key, baseUrl: "https://api.example.com" },
    ],
    [
      "a flow path leaving /v1/",
      { id: "@acme/qa", path: "/v1/../admin" },
      { apiKey: key, baseUrl: "https://api.example.com" },
    ],
  ])("refuses %s with a TypeError that does not quote the key", (_name, def, options) => {
    expect(() => createFlowClient(def, {}, options)).toThrow(TypeError);
    expect(() => createFlowClient(def, {}, options)).not.toThrow(/q7we9rt2/i);
  });
});

describe("types", () => {
  it("carries Input and Output through run() and call()", () => {
    const client = flow("qa");
    expectTypeOf(client.run).parameter(0).toEqualTypeOf<QaInput>();
    expectTypeOf(client.run).returns.toEqualTypeOf<Promise<QaOutput>>();
    expectTypeOf(client.call).returns.toEqualTypeOf<Promise<FlowResult<QaOutput>>>();
    // Never called: only the compiler looks at it (tsc -p tsconfig.json checks this file).
    // @ts-expect-error the input type is checked
    const wrongInput = () => client.run({ query: "wrong field" });
    expectTypeOf(wrongInput).toBeFunction();
  });

  it("narrows errors by kind", () => {
    const narrow = (error: unknown) => {
      if (!isFlowError(error)) return;
      expectTypeOf(error).toEqualTypeOf<FlowFailure>();
      if (error.kind === "auth") {
        expectTypeOf(error.status).toEqualTypeOf<401 | 403>();
        expectTypeOf(error.response).toEqualTypeOf<Response>();
        expectTypeOf(error.headers).toEqualTypeOf<Headers>();
      }
      if (error.kind === "rate_limited") {
        expectTypeOf(error.status).toEqualTypeOf<429>();
        expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
      }
      if (error.kind === "timeout" || error.kind === "connection") {
        expectTypeOf(error.status).toEqualTypeOf<0>();
        expectTypeOf(error.response).toEqualTypeOf<undefined>();
      }
      if (error.kind === "invalid_input") {
        expectTypeOf(error.status).toEqualTypeOf<0 | 400 | 422>();
        expectTypeOf(error.details).toEqualTypeOf<{ pointer: string; message: string }[]>();
      }
    };
    expectTypeOf(narrow).toBeFunction();
  });

  it("narrows a call() result on error", () => {
    const narrow = (result: FlowResult<QaOutput>) => {
      if (result.error) {
        expectTypeOf(result.data).toEqualTypeOf<undefined>();
        expectTypeOf(result.error).toEqualTypeOf<FlowFailure>();
        expectTypeOf(result.response).toEqualTypeOf<Response | undefined>();
      } else {
        expectTypeOf(result.data).toEqualTypeOf<QaOutput>();
        expectTypeOf(result.response).toEqualTypeOf<Response>();
      }
    };
    expectTypeOf(narrow).parameter(0).toEqualTypeOf<FlowResult<QaOutput>>();
  });
});
