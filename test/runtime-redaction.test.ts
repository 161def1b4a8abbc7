import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFlowClient,
  FlowError,
  type ClientOptions,
  type FlowEvent,
} from "../templates/runtime/index.js";

// A careless server on loopback that echoes the caller's credential into every place a client
// keeps something from: headers, status text, request ids, error bodies (values and property
// names), and a success body that is not JSON.

type Echo = (res: ServerResponse, auth: string) => void;

const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

const routes: Record<string, Echo> = {
  "error-body": (res, auth) =>
    json(
      res,
      401,
      {
        code: `unauthorized ${auth}`,
        message: `key ${auth} is revoked`,
        details: [{ pointer: `/${auth}`, message: auth }],
        requestId: auth,
        [auth]: { [auth]: auth },
      },
      { "x-request-id": auth, "x-echo": auth },
    ),
  "error-text": (res, auth) => {
    res.writeHead(500, `Failed for ${auth}`, {
      "content-type": "text/plain",
      "x-request-id": auth,
      "x-echo": auth,
    });
    res.end(`denied: ${auth}`);
  },
  "success-text": (res, auth) => {
    res.writeHead(200, { "content-type": "text/plain", "x-request-id": auth, "x-echo": auth });
    res.end(`not json: ${auth}`);
  },
  "success-invalid": (res, auth) =>
    json(res, 200, { [auth]: auth }, { "x-request-id": auth, "x-echo": auth }),
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on("end", () =>
      routes[(req.url ?? "").replace("/v1/@leak/", "")]?.(res, req.headers.authorization ?? ""),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Every way a FlowError, its result and its events reach a log. */
function surfaces(
  error: FlowError,
  result: { requestId: string | undefined; response: Response | undefined },
  events: FlowEvent[],
): Record<string, string> {
  const headers: string[] = [];
  error.headers?.forEach((value, name) => headers.push(`${name}: ${value}`));
  result.response?.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  return {
    message: error.message,
    toString: String(error),
    stack: error.stack ?? "",
    json: JSON.stringify(error),
    inspect: inspect(error, { depth: Infinity }),
    requestId: String(error.requestId),
    resultRequestId: String(result.requestId),
    code: error.code,
    body: JSON.stringify(error.body) ?? "",
    details: JSON.stringify(error.details),
    headers: headers.join("\n"),
    statusText: `${error.response?.statusText} ${result.response?.statusText}`,
    cause: inspect(error.cause, { depth: Infinity }),
    eventsJson: JSON.stringify(events),
    eventsInspect: inspect(events, { depth: Infinity }),
  };
}

describe("the API key never reaches an error or an event, even when the server echoes it", () => {
  const keys = [
    ["a long key", "sk_live_0123456789abcdef"],
    ["a key under 8 characters", "Zq7x"],
  ];
  const validators = {
    input: () => [],
    output: (value: unknown) =>
      Object.keys(value as object).map((k) => ({ pointer: `/${k}`, message: "is not allowed" })),
  };

  it.each(
    keys.flatMap(([label, key]) =>
      Object.keys(routes).map((route) => [`${route}, ${label}`, route, key] as const),
    ),
  )("%s", async (_name, route, key) => {
    const events: FlowEvent[] = [];
    const flow = createFlowClient(
      { id: `@leak/${route}`, path: `/v1/@leak/${route}`, validators },
      {},
      { apiKey: key, baseUrl, retry: false, onEvent: (event) => events.push(event) },
    );
    const result = await flow.call({});
    expect(result.error).toBeInstanceOf(FlowError);
    const all = surfaces(result.error as FlowError, result, events);
    for (const [surface, text] of Object.entries(all)) expect(text, surface).not.toContain(key);
    // The echo did arrive, and was replaced rather than dropped.
    expect(all.headers).toContain("x-echo: Bearer [redacted]");
  });

  it("keeps the rest of the server's answer", async () => {
    const key = "sk_live_0123456789abcdef";
    const error = (
      await createFlowClient(
        { id: "@leak/error-body", path: "/v1/@leak/error-body" },
        {},
        { apiKey: key, baseUrl },
      ).call({})
    ).error;
    expect(error?.message).toBe(
      "@leak/error-body: key Bearer [redacted] is revoked [HTTP 401 unauthorized Bearer [redacted]] (request id Bearer [redacted])\n  /Bearer [redacted]: Bearer [redacted]",
    );
    expect(error?.body).toMatchObject({
      "Bearer [redacted]": { "Bearer [redacted]": "Bearer [redacted]" },
    });
    expect(error?.status).toBe(401);
  });
});

// The same careless server, echoing the key as URLs, forms and headers carry it: in other letter
// cases, percent-encoded, form-encoded, base64 (a Basic header), cut short, in a header's name or
// a redirect's host, and through the errors of middleware and of fetch itself.

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");
const FORMS: Record<string, (key: string) => string> = {
  upper: (key) => key.toUpperCase(),
  lower: (key) => key.toLowerCase(),
  "percent-lower": (key) => [...key].map((c) => `%${hex(c)}`).join(""),
  "percent-upper": (key) => [...key].map((c) => `%${hex(c).toUpperCase()}`).join(""),
  "percent-twice": (key) => [...key].map((c) => `%25${hex(c)}`).join(""),
  "uri-component": (key) => encodeURIComponent(key),
  "form-encoded": (key) => new URLSearchParams({ key }).toString().slice(4),
  "form-decoded": (key) => key.replaceAll("+", " "),
  "mixed-case-and-escapes": (key) =>
    [...key]
      .map((c, i) =>
        i % 3 === 0 ? `%${hex(c).toUpperCase()}` : i % 3 === 1 ? c.toUpperCase() : c.toLowerCase(),
      )
      .join(""),
  "hex-lower": (key) => [...key].map(hex).join(""),
  "hex-upper": (key) => [...key].map(hex).join("").toUpperCase(),
  base64: (key) => btoa(key),
  "basic-header": (key) => `Basic ${btoa(`user:${key}`)}`,
  "base64url-lowered": (key) =>
    btoa(`ab${key}`).replaceAll("+", "-").replaceAll("/", "_").toLowerCase(),
};

const FORM_KEYS = [
  ["a long key", "sk_live_Q7wE9rT2yU4iO6pA"],
  ["a key with + / = ~", "Ab3+De6/Gh9=Jk2~Lm"],
];

/** Every run of `min` characters of `key`, lower-cased: a cut-short or re-cased key shows one. */
const windows = (key: string, min = 6) =>
  Array.from({ length: key.length - min + 1 }, (_, i) => key.slice(i, i + min).toLowerCase());

function expectNoPartOf(key: string, all: Record<string, string>) {
  for (const [surface, text] of Object.entries(all))
    for (const part of windows(key)) expect(text.toLowerCase(), surface).not.toContain(part);
}

const formServer = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const key = (req.headers.authorization ?? "").slice("Bearer ".length);
    const [, kind, form] =
      /^\/v1\/@leak\/(text|json|location-host|landing|landed|bad-location|header-name)-?([\w-]*)$/.exec(
        req.url ?? "",
      ) ?? [];
    const echo = FORMS[form ?? ""]?.(key) ?? key;
    const headers = { "x-request-id": echo, "x-echo": echo };
    if (kind === "text") {
      res.writeHead(500, `Failed for ${echo}`, { "content-type": "text/plain", ...headers });
      res.end(`denied: ${echo}`);
    } else if (kind === "json")
      json(
        res,
        401,
        { code: "unauthorized", message: `key ${echo} is revoked`, [echo]: echo },
        headers,
      );
    else if (kind === "location-host") {
      res.writeHead(302, { location: `http://${key.toLowerCase()}.example.test/` });
      res.end();
    } else if (kind === "landing") {
      res.writeHead(302, { location: `/v1/@leak/landed-${encodeURIComponent(key)}` });
      res.end();
    } else if (kind === "landed") {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("down");
    } else if (kind === "bad-location") {
      res.writeHead(302, { location: `http://[${key}/` });
      res.end();
    } else if (kind === "header-name") {
      res.writeHead(500, { [`x-${key}`]: "1" });
      res.end();
    }
  });
});
let formUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => formServer.listen(0, "127.0.0.1", resolve));
  formUrl = `http://127.0.0.1:${(formServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  formServer.closeAllConnections();
  await new Promise((resolve) => formServer.close(resolve));
});

async function callLeaky(name: string, key: string, options: Partial<ClientOptions> = {}) {
  const events: FlowEvent[] = [];
  const flow = createFlowClient(
    { id: `@leak/${name}`, path: `/v1/@leak/${name}` },
    {},
    {
      apiKey: key,
      baseUrl: formUrl,
      retry: false,
      timeoutMs: 5_000,
      onEvent: (event) => events.push(event),
      ...options,
    },
  );
  const result = await flow.call({});
  expect(result.error).toBeInstanceOf(FlowError);
  const all = surfaces(result.error as FlowError, result, events);
  all.url = `${result.response?.url} ${result.error?.response?.url}`;
  return { error: result.error as FlowError, all };
}

/** A custom fetch that follows redirects whatever the Request says, as a hand-written proxy might. */
const following = async (request: Request) =>
  fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: await request.text(),
  });

describe("the API key never shows, in any letter case or encoding", () => {
  it.each(
    FORM_KEYS.flatMap(([label, key]) =>
      Object.keys(FORMS).flatMap((form) =>
        ["text", "json"].map(
          (kind) => [`${form} in a ${kind} answer, ${label}`, `${kind}-${form}`, key] as const,
        ),
      ),
    ),
  )("%s", async (_name, route, key) => {
    const { all } = await callLeaky(route, key!);
    const echo = FORMS[route.replace(/^(text|json)-/, "")]!(key!);
    for (const [surface, text] of Object.entries(all)) expect(text, surface).not.toContain(echo);
    expectNoPartOf(key!, all);
    expect(all.headers).toMatch(/^x-echo: .*\[redacted\]/m);
  });

  const key = "sk_live_Q7wE9rT2yU4iO6pA";

  it("in a header's name, which fetch lower-cases", async () => {
    const { all, error } = await callLeaky("header-name", key);
    expectNoPartOf(key, all);
    expect(error.status).toBe(500);
  });

  it("cut short by the message's snippet of a long error body", async () => {
    const long = createServer((req, res) => {
      req.resume();
      res.writeHead(502, { "content-type": "text/html" });
      res.end(`${"x".repeat(190)}${(req.headers.authorization ?? "").slice(7)} and more`);
    });
    await new Promise<void>((resolve) => long.listen(0, "127.0.0.1", resolve));
    try {
      const { all } = await callLeaky("text", key, {
        baseUrl: `http://127.0.0.1:${(long.address() as AddressInfo).port}`,
      });
      expectNoPartOf(key, all);
    } finally {
      long.closeAllConnections();
      await new Promise((resolve) => long.close(resolve));
    }
  });

  it("quoted in part by JSON.parse when a success body starting with it is not JSON", async () => {
    const start = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`${(req.headers.authorization ?? "").slice(7)} is not JSON`);
    });
    await new Promise<void>((resolve) => start.listen(0, "127.0.0.1", resolve));
    try {
      const { all, error } = await callLeaky("text", key, {
        baseUrl: `http://127.0.0.1:${(start.address() as AddressInfo).port}`,
      });
      expect(error.kind).toBe("invalid_response");
      expectNoPartOf(key, all);
    } finally {
      start.closeAllConnections();
      await new Promise((resolve) => start.close(resolve));
    }
  });

  it("lower-cased in the host name of a redirect's target", async () => {
    const { all, error } = await callLeaky("location-host", key);
    expect(error.kind).toBe("redirected");
    expect(error.message).toContain("redirects to http://[redacted].example.test");
    expectNoPartOf(key, all);
  });

  it("in the URL of an answer that a custom fetch reached through a redirect", async () => {
    const { all, error } = await callLeaky("landing", key, { fetch: following });
    expect(error.kind).toBe("redirected");
    expectNoPartOf(key, all);
  });

  it("in the errors fetch itself throws (an unreadable Location it tried to follow)", async () => {
    const { all, error } = await callLeaky("bad-location", key, { fetch: following });
    expect(error.kind).toBe("connection");
    expect(all.cause).toContain("ERR_INVALID_URL");
    expectNoPartOf(key, all);
  });

  it("in the errors a middleware throws, and their causes", async () => {
    const { all, error } = await callLeaky("text", key, {
      middleware: [
        {
          onRequest({ request }) {
            const auth = request.headers.get("authorization") ?? "";
            const inner = Object.assign(new Error(`lookup of ${auth.toLowerCase()} failed`), {
              code: "ENOTFOUND",
              hostname: `${auth.slice(7).toLowerCase()}.example.test`,
            });
            throw new TypeError(`sending ${auth} failed`, {
              cause: new AggregateError([inner], "all failed"),
            });
          },
        },
      ],
    });
    expect(error.kind).toBe("invalid_input");
    expect(all.cause).toContain("ENOTFOUND");
    expect(all.cause).toContain("[redacted].example.test");
    expectNoPartOf(key, all);
  });

  it.each([
    ["UTF-16 text", (key: string) => [...key].join("\0")],
    ["UTF-16 in JSON", (key: string) => JSON.stringify([...key].join("\0")).slice(1, -1)],
  ])("as %s in a body", async (_name, encode) => {
    const utf16 = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const echo = encode((req.headers.authorization ?? "").slice("Bearer ".length));
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`denied: ${echo}`);
      });
    });
    await new Promise<void>((resolve) => utf16.listen(0, "127.0.0.1", resolve));
    const port = (utf16.address() as AddressInfo).port;
    try {
      const { all } = await callLeaky("text", key, { baseUrl: `http://127.0.0.1:${port}` });
      for (const [surface, text] of Object.entries(all))
        expect(text.replaceAll("\\u0000", "").replaceAll("\0", ""), surface).not.toContain(key);
      expect(all.message).toContain("[redacted]");
    } finally {
      utf16.closeAllConnections();
      await new Promise((resolve) => utf16.close(resolve));
    }
  });

  it("in what a cause holds: a request, its headers, a map, a set, properties not enumerable or named by a symbol", async () => {
    const { all, error } = await callLeaky("text", key, {
      fetch: (request) => {
        const auth = request.headers.get("authorization") ?? "";
        const failure = Object.assign(new Error("proxy refused"), {
          request,
          headers: request.headers,
          seen: new Map([["authorization", auth]]),
          sent: new Set([auth]),
          [Symbol("auth")]: auth,
        });
        Object.defineProperty(failure, "hidden", { value: auth, enumerable: false });
        throw failure;
      },
    });
    expect(error.kind).toBe("connection");
    const shown = {
      ...all,
      hidden: inspect(error, { depth: Infinity, showHidden: true }),
      console: inspect({ wrapped: error }, { depth: Infinity }),
    };
    expectNoPartOf(key, shown);
    expect(all.inspect).toContain("proxy refused");
    const cause = error.cause as Record<string, unknown>;
    expect(cause.request).toMatchObject({ method: "POST" });
    expect((cause.headers as Headers).get("authorization")).toBe("Bearer [redacted]");
    expect(cause.seen).toEqual(new Map([["authorization", "Bearer [redacted]"]]));
  });

  it("in an answer that echoes a key function's earlier token", async () => {
    let minted = 0;
    const tokens: string[] = [];
    const echoing = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        tokens.push((req.headers.authorization ?? "").slice("Bearer ".length));
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`denied; before, ${tokens.at(-2) ?? "nothing"}`);
      });
    });
    await new Promise<void>((resolve) => echoing.listen(0, "127.0.0.1", resolve));
    const client = createFlowClient(
      { id: "@leak/text", path: "/v1/@leak/text" },
      {},
      {
        apiKey: () => `tok_${(++minted).toString(36)}_Q7wE9rT2yU4iO6pA`,
        baseUrl: `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`,
        retry: false,
      },
    );
    try {
      const messages: string[] = [];
      for (let call = 0; call < 40; call++)
        messages.push((await client.call({})).error?.message ?? "");
      expect(messages.at(-1)).toMatch(/denied; before, \[redacted\]/);
      for (const [i, message] of messages.entries())
        for (const token of tokens.slice(Math.max(0, i - 1), i + 1))
          expect(message).not.toContain(token);
    } finally {
      echoing.closeAllConnections();
      await new Promise((resolve) => echoing.close(resolve));
    }
  });

  it("in what a cause holds that is harder to read: a proxied map, bytes, a URL, an array's named field, an error's getter", async () => {
    class Wrapped extends Error {
      constructor(private readonly auth: string) {
        super();
      }
      override get message(): string {
        return `failed with ${this.auth}`;
      }
    }
    const { all, error } = await callLeaky("text", key, {
      fetch: (request) => {
        const auth = request.headers.get("authorization") ?? "";
        throw Object.assign(new Error("proxy refused"), {
          proxied: new Proxy(new Map([["auth", auth]]), {}),
          bytes: Buffer.from(auth),
          utf16: Buffer.from(auth, "utf16le"),
          url: new URL(`https://example.test/?key=${auth.slice(7)}`),
          match: Object.assign(["x"], { input: auth }),
          inner: new Wrapped(auth),
        });
      },
    });
    expect(error.kind).toBe("connection");
    const hex = [...Buffer.from(key)].map((byte) => byte.toString(16).padStart(2, "0"));
    for (const shown of [all.inspect, all.cause, inspect(error, { showHidden: true, depth: 9 })]) {
      expect(shown).not.toContain(hex.join(" "));
      expect(shown).not.toContain(key.slice(0, 12));
    }
    expectNoPartOf(key, all);
    const cause = error.cause as Record<string, unknown>;
    expect(cause.proxied).toBe("[redacted]");
    expect(cause.bytes).toBe("[redacted]");
    expect(cause.utf16).toBe("[redacted]");
    expect(cause.url).toBe("[redacted]");
    expect((cause.match as { input: string }).input).toBe("Bearer [redacted]");
    expect((cause.inner as Error).message).toBe("failed with Bearer [redacted]");
  });
});
