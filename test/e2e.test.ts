import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQaClient } from "../generated/@acme/qa.js";
import { createSearchClient as createGlobexSearchClient } from "../generated/@globex/search.js";
import { FlowError } from "../generated/index.js";

interface Seen {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

describe("a generated client against a real HTTP server on 127.0.0.1", () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => void answer(request, response));
    async function answer(request: IncomingMessage, response: ServerResponse) {
      const body = await readBody(request);
      seen.push({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        contentType: request.headers["content-type"],
        body,
      });
      response.setHeader("content-type", "application/json");
      response.setHeader("x-request-id", "req_1");
      if (request.url === "/v1/@acme/qa") {
        response.end(JSON.stringify({ answer: "Paris" }));
      } else {
        response.statusCode = 400;
        response.end(
          JSON.stringify({
            code: "invalid_input",
            message: "text is required",
            details: [{ pointer: "/text", message: "is required" }],
            requestId: "req_2",
          }),
        );
      }
    }
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends POST /v1/@org/flow with the bearer key and the JSON body, and returns the typed output", async () => {
    const qa = createQaClient({ apiKey: "test-key-123", baseUrl });
    const output = await qa.run({ question: "Capital of France?", options: ["Paris", "Lyon"] });
    expect(output).toEqual({ answer: "Paris" });
    expect(seen.at(-1)).toEqual({
      method: "POST",
      url: "/v1/@acme/qa",
      authorization: "Bearer test-key-123",
      contentType: "application/json",
      body: { question: "Capital of France?", options: ["Paris", "Lyon"] },
    });
  });

  it("turns the platform's error body into a FlowError, and call() returns it with the raw response", async () => {
    const search = createGlobexSearchClient({ apiKey: "test-key-123", baseUrl });
    const error = await search.run({ text: "" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowError);
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_input",
      requestId: "req_2",
      flowId: "@globex/search",
    });
    expect((error as FlowError).body?.details).toEqual([
      { pointer: "/text", message: "is required" },
    ]);
    expect(seen.at(-1)?.url).toBe("/v1/@globex/search");

    const result = await search.call({ text: "" });
    expect(result.data).toBeUndefined();
    expect(result.error?.status).toBe(400);
    expect(result.response?.status).toBe(400);
    expect(result.response?.headers.get("x-request-id")).toBe("req_1");
  });
});

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
}
