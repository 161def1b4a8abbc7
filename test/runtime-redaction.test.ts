import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlowClient, FlowError, type FlowEvent } from "../templates/runtime/index.js";

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
