import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  createFlowClient,
  type ClientOptions,
  type FlowEvent,
} from "../templates/runtime/index.js";

// Keys a function hands out one after the other, as a backend issuing short-lived tokens would.
const TOKENS = ["tok_first_4f8a2c91", "tok_second_7d3e0b65", "tok_third_1a9c5e27"];

/** Every Authorization header the server saw, by route, in order. */
const seen = new Map<string, (string | undefined)[]>();

type Route = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

const routes: Record<string, Route> = {
  // Echoes the key it was sent, as a careless server does.
  "/v1/@auth/ok": (req, res) =>
    json(res, 200, { answer: "yes", auth: req.headers.authorization ?? null }),
  // 401 to the first key of each call, then answers: a token that expired in flight.
  "/v1/@auth/expired-once": (req, res, attempt) =>
    attempt % 2 === 1
      ? json(res, 401, {
          code: "unauthorized",
          message: `token ${req.headers.authorization ?? ""} expired`,
        })
      : json(res, 200, { answer: "fresh", auth: req.headers.authorization ?? null }),
  // Always 401, echoing the key in every field.
  "/v1/@auth/revoked": (req, res) => {
    const auth = req.headers.authorization ?? "";
    json(res, 401, {
      code: "unauthorized",
      message: `key ${auth} is revoked`,
      details: [{ pointer: "", message: auth }],
      requestId: auth,
    });
  },
  // 503 first, then answers: a retry is a second attempt, with a key of its own.
  "/v1/@auth/busy-once": (req, res, attempt) =>
    attempt === 1
      ? json(res, 503, { code: "unavailable", message: "busy" })
      : json(res, 200, { answer: "later", auth: req.headers.authorization ?? null }),
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const url = req.url ?? "";
      const log = seen.get(url) ?? [];
      log.push(req.headers.authorization);
      seen.set(url, log);
      const route = routes[url];
      if (route) route(req, res, log.length);
      else json(res, 404, { code: "not_found", message: `no route ${url}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen.clear();
  vi.unstubAllEnvs();
});

/** A key function handing out TOKENS in turn, counting its calls. */
function tokenFunction(async: boolean) {
  let calls = 0;
  const next = () => TOKENS[calls++ % TOKENS.length]!;
  return {
    get calls() {
      return calls;
    },
    apiKey: async ? () => Promise.resolve(next()) : next,
  };
}

function client(name: string, options: ClientOptions) {
  return createFlowClient<{ q: string }, { answer: string; auth: string | null }>(
    { id: `@auth/${name}`, path: `/v1/@auth/${name}` },
    {},
    { baseUrl, retry: { baseDelayMs: 1 }, ...options },
  );
}

describe("apiKey as a function", () => {
  it.each([
    ["sync", false],
    ["async", true],
  ])("is called before every attempt (%s), each attempt sending its own key", async (_, async) => {
    const tokens = tokenFunction(async);
    const flow = client("busy-once", { apiKey: tokens.apiKey });
    const output = await flow.run({ q: "x" });
    expect(seen.get("/v1/@auth/busy-once")).toEqual([`Bearer ${TOKENS[0]}`, `Bearer ${TOKENS[1]}`]);
    expect(tokens.calls).toBe(2);
    expect(output.auth).toBe(`Bearer ${TOKENS[1]}`);
  });

  it("is called again once after a 401, at once and whatever the retry policy", async () => {
    const tokens = tokenFunction(false);
    const events: FlowEvent[] = [];
    const flow = client("expired-once", {
      apiKey: tokens.apiKey,
      retry: false,
      onEvent: (event) => events.push(event),
    });
    await expect(flow.run({ q: "x" })).resolves.toEqual({
      answer: "fresh",
      auth: `Bearer ${TOKENS[1]}`,
    });
    expect(seen.get("/v1/@auth/expired-once")).toEqual([
      `Bearer ${TOKENS[0]}`,
      `Bearer ${TOKENS[1]}`,
    ]);
    expect(events.filter((event) => event.type === "retry")).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 0 }),
    ]);
  });

  it("is not asked a third time when the new key gets a 401 too; no key of either shows", async () => {
    const tokens = tokenFunction(true);
    const events: FlowEvent[] = [];
    const flow = client("revoked", {
      apiKey: tokens.apiKey,
      onEvent: (event) => events.push(event),
    });
    const { error } = await flow.call({ q: "x" });
    expect(tokens.calls).toBe(2);
    expect(error).toMatchObject({ kind: "auth", status: 401, attempts: 2 });
    const shown = JSON.stringify([error, error?.body, error?.message, events]);
    for (const token of TOKENS.slice(0, 2)) expect(shown).not.toContain(token);
    expect(error?.message).toContain("key Bearer [redacted] is revoked");
  });

  it("a string key gets no second attempt after a 401", async () => {
    const flow = client("expired-once", { apiKey: "static_key_2b7f" });
    const { error } = await flow.call({ q: "x" });
    expect(error).toMatchObject({ kind: "auth", attempts: 1 });
    expect(seen.get("/v1/@auth/expired-once")).toHaveLength(1);
  });

  it("sends the key on requests made on `client` directly too", async () => {
    const tokens = tokenFunction(true);
    const flow = client("ok", { apiKey: tokens.apiKey });
    const { response } = await flow.client.POST(
      "/v1/@auth/ok" as never,
      {
        body: { q: "x" },
      } as never,
    );
    expect(response.status).toBe(200);
    expect(seen.get("/v1/@auth/ok")).toEqual([`Bearer ${TOKENS[0]}`]);
  });

  it("fails the call with a TypeError, quoting nothing, when it returns no usable key", async () => {
    const flow = client("ok", { apiKey: () => "bad key with spaces" });
    const failure = flow.run({ q: "x" });
    await expect(failure).rejects.toThrow(TypeError);
    await expect(failure).rejects.toThrow(
      "@auth/ok: the apiKey function must return (or resolve to) the key as issued, without spaces or non-ASCII characters; it returned a string that is not one",
    );
    expect(seen.has("/v1/@auth/ok")).toBe(false);
  });

  it("may return any thenable, as await takes it", async () => {
    const thenable = { then: (resolve: (key: string) => void) => resolve(TOKENS[0]!) };
    const flow = client("ok", { apiKey: () => thenable as unknown as Promise<string> });
    await expect(flow.run({ q: "x" })).resolves.toMatchObject({ auth: `Bearer ${TOKENS[0]}` });
  });

  it("is given up on at the call's deadline, or its caller's abort, when it never answers", async () => {
    const never = () => new Promise<string>(() => undefined);
    const timedOut = await client("ok", { apiKey: never, timeoutMs: 50 }).call({ q: "x" });
    expect(timedOut.error).toMatchObject({ kind: "timeout", code: "timeout" });
    const caller = new AbortController();
    const aborted = client("ok", { apiKey: never }).call({ q: "x" }, { signal: caller.signal });
    caller.abort();
    expect((await aborted).error).toMatchObject({ kind: "aborted", code: "aborted" });
    expect(seen.has("/v1/@auth/ok")).toBe(false);
  });

  it("fails the call with the function's own error when it throws", async () => {
    const flow = client("ok", {
      apiKey: () => Promise.reject(new Error("the token endpoint is down")),
    });
    await expect(flow.run({ q: "x" })).rejects.toThrow("the token endpoint is down");
  });
});

describe("auth: false", () => {
  it("sends no Authorization header and needs no key, not even FLOW_API_KEY", async () => {
    vi.stubEnv("FLOW_API_KEY", "");
    const flow = client("ok", { auth: false, headers: { "x-app": "1" } });
    await expect(flow.run({ q: "x" })).resolves.toEqual({ answer: "yes", auth: null });
    expect(seen.get("/v1/@auth/ok")).toEqual([undefined]);
  });

  it("with an apiKey too is refused at once", () => {
    expect(() => client("ok", { auth: false, apiKey: "k_123456" })).toThrow(
      new TypeError(
        "@auth/ok: pass either { auth: false } (a proxy adds the key) or { apiKey }, not both",
      ),
    );
  });
});

describe("types", () => {
  it("apiKey takes a string, or a function returning one or a promise of one", () => {
    expectTypeOf<{ apiKey: () => Promise<string> }>().toExtend<ClientOptions>();
    expectTypeOf<{ apiKey: () => string }>().toExtend<ClientOptions>();
    expectTypeOf<{ auth: false }>().toExtend<ClientOptions>();
    expectTypeOf<{ apiKey: () => number }>().not.toExtend<ClientOptions>();
  });
});
