import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { parseCorsOrigins } from "../src/serve/cors.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";

const KEY = "k_cors_0123456789abcdef";
const PAGE = "http://localhost:5173";
const QA = "/v1/@acme/qa";

/** What a browser sends before a call with a key and a JSON body from another origin. */
const preflight = (origin: string) => ({
  method: "OPTIONS",
  headers: {
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization,content-type",
  },
});

const call = (origin: string, key?: string) => ({
  method: "POST",
  headers: {
    origin,
    "content-type": "application/json",
    ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
  },
  body: JSON.stringify({ question: "Why?" }),
});

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return headers;
}

let server: StartedServe;

beforeAll(async () => {
  server = await startTestServe(KEY);
});

afterAll(async () => {
  await server.close();
});

describe("CORS in flowgen serve", () => {
  it("answers a preflight for a flow from a loopback page without a key", async () => {
    const response = await fetch(`${server.url}${QA}`, preflight(PAGE));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(headersOf(response)).toMatchObject({
      "access-control-allow-origin": PAGE,
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "authorization,content-type",
      "access-control-max-age": "600",
      vary: expect.stringContaining("Origin"),
      "x-request-id": expect.any(String),
    });
  });

  it.each([["http://127.0.0.1:3000"], ["http://[::1]:8080"], ["http://localhost"]])(
    "lets pages of %s call by default",
    async (origin) => {
      const response = await fetch(`${server.url}${QA}`, preflight(origin));
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    },
  );

  it("refuses a preflight from another origin with a 403 error body and no CORS headers", async () => {
    const response = await fetch(`${server.url}${QA}`, preflight("https://evil.example"));
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(await response.json()).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("--cors <origin>"),
    });
  });

  it.each([
    ["an OPTIONS without Access-Control-Request-Method", { origin: PAGE }, QA],
    ["an OPTIONS without Origin", { "access-control-request-method": "POST" }, QA],
    ["a preflight for a path that is no flow", preflight(PAGE).headers, "/v1/@acme/nope"],
    ["a preflight for the reference page", preflight(PAGE).headers, "/docs/"],
  ] as [string, Record<string, string>, string][])(
    "needs a key for anything but a real preflight for a flow: %s",
    async (_, headers, path) => {
      const response = await fetch(`${server.url}${path}`, { method: "OPTIONS", headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: "unauthorized" });
    },
  );

  it("answers a call from an allowed page with the origin and the headers scripts may read", async () => {
    const response = await fetch(`${server.url}${QA}`, call(PAGE, KEY));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(response.headers.get("access-control-expose-headers")).toBe(
      "x-request-id, ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after",
    );
  });

  it("puts the CORS headers on refusals too, so that a page can read its 401", async () => {
    const response = await fetch(`${server.url}${QA}`, call(PAGE));
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(await response.json()).toMatchObject({ code: "unauthorized" });
  });

  it("repeats no key a preflight names among the headers it asks for", async () => {
    const asking = (headers: string) => ({
      method: "OPTIONS",
      headers: {
        origin: PAGE,
        "access-control-request-method": "POST",
        "access-control-request-headers": headers,
      },
    });
    for (const headers of [KEY, `x-${KEY.toUpperCase()}`, `authorization, ${KEY}`]) {
      const response = await fetch(`${server.url}${QA}`, asking(headers));
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-headers")).toBeNull();
    }
    const plain = await fetch(`${server.url}${QA}`, asking("authorization,content-type"));
    expect(plain.headers.get("access-control-allow-headers")).toBe("authorization,content-type");
  });

  it("sends no CORS headers to a page of an origin not allowed", async () => {
    const response = await fetch(`${server.url}${QA}`, call("https://evil.example", KEY));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it.each(["/openapi.json", "/docs/openapi.json", "/docs/openapi.yaml"])(
    "gives the document at %s to the pages --cors allows, and to no other",
    async (path) => {
      const evil = await fetch(`${server.url}${path}`, {
        headers: { origin: "https://evil.example" },
      });
      expect(evil.status).toBe(200);
      expect(evil.headers.get("access-control-allow-origin")).toBeNull();
      expect(evil.headers.get("access-control-allow-methods")).toBeNull();
      const page = await fetch(`${server.url}${path}`, { headers: { origin: PAGE } });
      expect(page.headers.get("access-control-allow-origin")).toBe(PAGE);
    },
  );

  it("takes its origins from --cors: exact ones, any port, or every origin", async () => {
    const listed = await startTestServe(KEY, { cors: "https://app.example.com,http://dev.test:*" });
    const any = await startTestServe(KEY, { cors: "*" });
    try {
      const allowed = async (url: string, origin: string) =>
        (await fetch(`${url}${QA}`, preflight(origin))).headers.get("access-control-allow-origin");
      expect(await allowed(listed.url, "https://app.example.com")).toBe("https://app.example.com");
      expect(await allowed(listed.url, "http://dev.test:4000")).toBe("http://dev.test:4000");
      expect(await allowed(listed.url, PAGE)).toBeNull();
      expect(await allowed(listed.url, "https://app.example.com.evil.example")).toBeNull();
      expect(await allowed(any.url, "https://anywhere.example")).toBe("*");
    } finally {
      await Promise.all([listed.close(), any.close()]);
    }
  });
});

describe("parseCorsOrigins", () => {
  it.each([
    ["http://localhost:5173", "http://localhost:5173", true],
    ["http://localhost:5173", "http://localhost:5174", false],
    ["http://localhost:*", "http://localhost:9", true],
    ["http://localhost:*", "https://localhost:9", false],
    ["http://localhost:*", "http://localhost:9/path", false],
    ["http://localhost:*", "http://localhost:9@evil.example", false],
    ["http://localhost:*", "null", false],
    ["https://a.example, https://b.example", "https://b.example", true],
  ])("%s allows %s: %s", (list, origin, allowed) => {
    expect(parseCorsOrigins(list).allows(origin)).toBe(allowed);
  });

  it("names every entry that is not an origin at once", () => {
    expect(() =>
      parseCorsOrigins("localhost:5173,https://a.example/,ftp://x,https://ok.example"),
    ).toThrow(
      new RangeError(
        '--cors (serve.cors in the config) takes origins such as http://localhost:5173 or https://app.example.com, comma-separated (":*" for any port, "*" for every origin); "localhost:5173", "https://a.example/", "ftp://x" are not',
      ),
    );
    expect(() => parseCorsOrigins(" , ")).toThrow(/none was given/);
  });

  it("flowgen serve --cors with something that is no origin exits 2, saying so, and serves nothing", async () => {
    const err: string[] = [];
    const code = await main(["serve", "--port", "0", "--no-watch", "--cors", "localhost:5173"], {
      io: { out: () => undefined, err: (line) => err.push(line) },
    });
    expect(code).toBe(2);
    expect(err).toEqual([
      expect.stringContaining("flowgen serve: --cors (serve.cors in the config) takes origins"),
    ]);
    expect(err[0]).toContain('"localhost:5173" is not one');
    expect(err[0]).toMatch(/ \[invalid-option\] flowgen-cli\/docs\/errors\.md#invalid-option$/);
  });
});
