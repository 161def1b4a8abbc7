import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { inspect, promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createFlowClient,
  type ClientOptions,
  type FlowEvent,
} from "../templates/runtime/index.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

// A flow answers; it never redirects. The flow's server (on one loopback port) answers with
// redirects to a second server (on another port, standing for another origin) that records every
// request it gets: it must get none, whatever the status, the client's options or its fetch.

const KEY = "Kq9vXw2ZpL7mRt4B";

let flowServer: Server;
let otherServer: Server;
let baseUrl: string;
let otherOrigin: string;
/** Requests the flow's server got, by path. */
const flowSeen: string[] = [];
/** Requests the other origin got. */
const otherSeen: { url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  otherServer = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      otherSeen.push({ url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ answer: "from the other origin" }));
    });
  });
  otherOrigin = await listen(otherServer);
  flowServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      flowSeen.push(req.url ?? "");
      // /v1/@redirect/s<status>[-<where>]: answer <status> with a Location chosen by <where>.
      const [, status, where] = /^\/v1\/@redirect\/s(\d+)(?:-(\w+))?$/.exec(req.url ?? "") ?? [];
      const location = {
        other: `${otherOrigin}/steal/${KEY}?key=${KEY}`,
        relative: `/elsewhere?key=${KEY}`,
        unreadable: `http://[${KEY}/`,
        none: undefined,
      }[where ?? "other"];
      res.writeHead(Number(status), location === undefined ? {} : { location });
      res.end(JSON.stringify({ answer: "a redirect's body" }));
    });
  });
  baseUrl = await listen(flowServer);
});

afterAll(async () => {
  for (const server of [flowServer, otherServer]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  flowSeen.length = 0;
  otherSeen.length = 0;
});

function client(name: string, options: ClientOptions = {}) {
  return createFlowClient<object, { answer: string }>(
    { id: `@redirect/${name}`, path: `/v1/@redirect/${name}` },
    {},
    { apiKey: KEY, baseUrl, ...options },
  );
}

describe("a redirect from the flow's endpoint", () => {
  it.each([301, 302, 303, 307, 308])(
    "%i to another origin is a redirected failure, sent once and never followed",
    async (status) => {
      const events: FlowEvent[] = [];
      // Retries on and the call marked idempotent: a redirect is still not sent again.
      const flow = client(`s${status}`, {
        retry: { maxRetries: 3, baseDelayMs: 0 },
        onEvent: (event) => events.push(event),
      });
      const { data, error, response } = await flow.call({ question: "q" }, { idempotent: true });
      expect(data).toBeUndefined();
      expect(error).toMatchObject({ kind: "redirected", code: "redirected", status, attempts: 1 });
      expect(error?.message).toBe(
        `@redirect/s${status}: HTTP ${status} redirects to ${otherOrigin} (not called); a flow never redirects: check baseUrl`,
      );
      expect(response?.status).toBe(status);
      // The Location's path and query (which may hold credentials) appear nowhere.
      expect(response?.headers.get("location")).toBeNull();
      const shown = [inspect(error, { depth: Infinity }), JSON.stringify(error), inspect(events)];
      for (const text of shown) expect(text).not.toContain("steal");
      expect(flowSeen).toEqual([`/v1/@redirect/s${status}`]);
      expect(otherSeen).toEqual([]);
      expect(events.map((event) => event.type)).toEqual(["request", "response"]);
    },
  );

  it("throws from run() too", async () => {
    await expect(client("s307").run({})).rejects.toMatchObject({ kind: "redirected" });
    expect(otherSeen).toEqual([]);
  });

  it.each([
    [
      "a relative Location",
      "s302-relative",
      () => `HTTP 302 redirects to ${baseUrl} (not called);`,
    ],
    [
      "an unreadable Location",
      "s302-unreadable",
      () => "HTTP 302 redirects to an unreadable Location (not called);",
    ],
    ["no Location", "s302-none", () => "HTTP 302 without a Location;"],
    ["any other 3xx", "s300-none", () => "HTTP 300 without a Location;"],
  ])("names %s without its path", async (_name, path, start) => {
    const { error } = await client(path).call({});
    expect(error).toMatchObject({ kind: "redirected", code: "redirected" });
    expect(error?.message.startsWith(`@redirect/${path}: ${start()}`), error?.message).toBe(true);
    expect(inspect(error, { depth: Infinity })).not.toContain(KEY);
  });

  it("is not followed by openapi-fetch's own POST on the client either", async () => {
    const { response } = await client("s308").client.POST(
      "/v1/@redirect/s308" as never,
      {
        body: {},
      } as never,
    );
    expect(response.status).toBe(308);
    expect(otherSeen).toEqual([]);
  });

  it("is not followed by a custom fetch that sends the Request it is given", async () => {
    const { error } = await client("s307", { fetch: (request) => fetch(request) }).call({});
    expect(error?.kind).toBe("redirected");
    expect(otherSeen).toEqual([]);
  });

  it("is not followed when a middleware rebuilds the request without the redirect mode", async () => {
    const { error } = await client("s307", {
      middleware: [
        {
          onRequest: async ({ request }) =>
            new Request(request.url, {
              method: request.method,
              headers: request.headers,
              body: await request.text(),
            }),
        },
      ],
    }).call({});
    expect(error?.kind).toBe("redirected");
    expect(otherSeen).toEqual([]);
  });

  it("followed by a custom fetch anyway, is refused: the other origin's answer is not the output", async () => {
    // A custom fetch that ignores the Request's redirect mode (a hand-written proxy, say).
    const following = async (request: Request) =>
      fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      });
    const { data, error } = await client("s307", {
      fetch: following,
      retry: { maxRetries: 3, baseDelayMs: 0 },
    }).call({}, { idempotent: true });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({
      kind: "redirected",
      code: "redirected",
      status: 200,
      attempts: 1,
    });
    expect(error?.message).toBe(
      `@redirect/s307: a custom fetch followed a redirect to ${otherOrigin} (its answer is not used); a flow never redirects: check baseUrl and fetch`,
    );
    expect(inspect(error, { depth: Infinity })).not.toContain(KEY);
    expect(otherSeen).toHaveLength(1);
  });

  it("as browsers report it (an opaque redirect: status 0, no headers) is a redirected failure", async () => {
    // With redirect: "manual", browsers hide the redirect: a Response of type "opaqueredirect".
    const opaque = () => {
      const response = Response.error();
      Object.defineProperty(response, "type", { value: "opaqueredirect" });
      return Promise.resolve(response);
    };
    const { error } = await client("s307", { fetch: opaque, retry: { maxRetries: 3 } }).call(
      {},
      { idempotent: true },
    );
    expect(error).toMatchObject({ kind: "redirected", code: "redirected", status: 0, attempts: 1 });
    expect(error?.message).toBe(
      "@redirect/s307: a redirect that the browser hides; a flow never redirects: check baseUrl",
    );
  });
});

describe("a redirect from https:// to http://", () => {
  it("is not followed: nothing reaches the http:// origin", async () => {
    const { generate } = await import("selfsigned");
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      algorithm: "sha256",
      extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
    });
    const secure = createHttpsServer({ cert: pems.cert, key: pems.private }, (req, res) => {
      req.resume();
      res.writeHead(307, { location: `${otherOrigin}/steal?key=${KEY}` });
      res.end();
    });
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    const dir = await mkdtemp(path.join(tmpdir(), "flowgen-redirect-"));
    try {
      await writeFile(path.join(dir, "cert.pem"), pems.cert);
      const script = path.join(dir, "call.mts");
      const runtime = path.join(REPO_ROOT, "templates/runtime/index.ts");
      await writeFile(
        script,
        [
          `import { createFlowClient } from ${JSON.stringify(runtime)};`,
          `const flow = createFlowClient({ id: "@redirect/tls", path: "/v1/@redirect/tls" }, {},`,
          `  { apiKey: ${JSON.stringify(KEY)}, baseUrl: "https://127.0.0.1:${(secure.address() as AddressInfo).port}" });`,
          `const { error } = await flow.call({ question: "q" }, { idempotent: true });`,
          `console.log(JSON.stringify(error));`,
        ].join("\n"),
      );
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, "cert.pem") },
      });
      expect(JSON.parse(stdout)).toMatchObject({
        kind: "redirected",
        status: 307,
        message: expect.stringContaining(`redirects to ${otherOrigin} (not called)`),
      });
      expect(otherSeen).toEqual([]);
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
