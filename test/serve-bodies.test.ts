import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { startServe } from "../src/serve/serve.js";
import { rawPost, sendRaw } from "./helpers/raw-http.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";
import { writeFiles } from "./helpers/temp-dir.js";

const KEY = "k_all_0123456789abcdef";
const AUTH = `Authorization: Bearer ${KEY}`;

function nested(depth: number): string {
  return `{"question":"deep","options":${"[".repeat(depth)}${"]".repeat(depth)}}`;
}

describe("flowgen serve: what a request body may be", () => {
  let server: StartedServe;
  const logs: Record<string, unknown>[] = [];
  beforeAll(async () => {
    server = await startTestServe(KEY, { log: (entry) => logs.push(entry) });
  });
  afterAll(() => server?.close());

  const post = (body: string | Buffer, contentType = "application/json") =>
    sendRaw(server.port, rawPost("/v1/@acme/qa", [AUTH, `Content-Type: ${contentType}`], body));

  it("refuses bodies nested deeper than --max-depth with 400 saying the limit, and never answers 500", async () => {
    for (const depth of [64, 3_000, 30_000]) {
      const response = await post(nested(depth));
      expect(response.status, `depth ${depth}`).toBe(400);
      const body = JSON.parse(response.body) as {
        code: string;
        message: string;
        details: { pointer: string }[];
      };
      expect(body.code).toBe("bad_request");
      expect(body.message).toContain(
        "deeper than 64 levels, the most this server accepts (--max-depth)",
      );
      expect(body.details[0]?.pointer).toBe(`/options${"/0".repeat(63)}`);
    }
    // At the limit the body is read, and the input schema answers.
    const atLimit = await post(nested(63));
    expect(atLimit.status).toBe(400);
    expect(JSON.parse(atLimit.body)).toMatchObject({
      code: "invalid_input",
      details: [{ pointer: "/options/0", message: "must be string" }],
    });
    expect(logs.filter((entry) => entry["level"] === "error")).toEqual([]);
  });

  it("refuses numbers JSON.parse would turn into Infinity, with their pointer", async () => {
    for (const number of ["1e400", "-1e400", `1${"0".repeat(400)}`]) {
      const response = await post(`{"question":"x","options":["a",${number}]}`);
      expect(response.status, number).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({
        code: "bad_request",
        details: [{ pointer: "/options/1", message: expect.stringContaining("must be finite") }],
      });
    }
  });

  it("reads UTF-8 only: 415 for another charset, 400 for bytes that are not UTF-8", async () => {
    for (const type of [
      "application/json; charset=utf-16",
      "application/json; charset=latin1",
      'application/json; charset="UTF-16LE"',
    ]) {
      const response = await post(JSON.stringify({ question: "x" }), type);
      expect(response.status, type).toBe(415);
      expect(JSON.parse(response.body)).toMatchObject({ code: "unsupported_media_type" });
    }
    for (const type of [
      "application/json; charset=utf-8",
      'application/json; charset="UTF-8"',
      "application/json;charset=utf8",
      "Application/JSON",
    ]) {
      expect((await post(JSON.stringify({ question: "x" }), type)).status, type).toBe(200);
    }
    const latin1 = Buffer.from('{"question":"caf\xe9"}', "latin1");
    const broken = await post(latin1);
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({
      code: "invalid_json",
      message: expect.stringContaining("not valid UTF-8"),
    });
    const withBom = await post(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(JSON.stringify({ question: "x" })),
      ]),
    );
    expect(withBom.status).toBe(200);
    const plain = await post("question", "text/plain");
    expect(plain.status).toBe(415);
  });

  it.each([
    ["a charset with a stray =", "application/json; charset=foo="],
    ["utf-16 with a stray =", "application/json; charset=utf-16="],
    ["utf-8 with a stray =", "application/json; charset=utf-8="],
    ["utf-8, then latin1", "application/json; charset=utf-8; charset=latin1"],
    ["utf-8 twice, in two cases", 'application/json; charset=utf-8; CHARSET="UTF-8"'],
    ["an empty charset", "application/json; charset="],
    ["an unclosed quote", 'application/json; charset="utf-8'],
    ["a parameter without a value before the charset", "application/json; x; charset=utf-8"],
    ["a space inside the value", "application/json; charset=utf 8"],
    ["a broken parameter after the charset", "application/json; charset=utf-8; a=b=c"],
  ])("refuses a Content-Type that is not clean with 415: %s", async (_, type) => {
    const response = await post(JSON.stringify({ question: "x" }), type);
    expect(response.status, type).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({
      code: "unsupported_media_type",
      message: expect.stringContaining("Content-Type: application/json"),
    });
  });

  it("reads a clean Content-Type with empty parameters or other parameters beside one charset", async () => {
    for (const type of [
      "application/json;",
      "application/json; charset=utf-8;",
      "application/json ; charset=UTF-8",
      'application/json; charset="utf\\-8"',
      'application/json; profile="a;charset=latin1"; charset=utf-8',
    ]) {
      expect((await post(JSON.stringify({ question: "x" }), type)).status, type).toBe(200);
    }
  });
});

describe("flowgen serve: slow clients", () => {
  let server: StartedServe;
  beforeAll(async () => {
    server = await startTestServe(KEY, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
  });
  afterAll(() => server?.close());

  it("answers 408 and closes connections whose headers do not arrive in time", async () => {
    const partial =
      "POST /v1/@acme/qa HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => sendRaw(server.port, partial, 5_000)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(408));
    expect(JSON.parse(answers[0]?.body ?? "")).toMatchObject({ code: "request_timeout" });
  });

  it("answers 408 when the body does not arrive in time", async () => {
    const head = `POST /v1/@acme/qa HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"question":`;
    const answer = await sendRaw(server.port, head, 5_000);
    expect(answer.status).toBe(408);
  });
});

describe("flowgen serve start-up", () => {
  let specs = "";
  beforeAll(async () => {
    specs = await mkdtemp(path.join(tmpdir(), "flowgen-serve-specs-"));
    await writeFiles(specs, {
      "@acme/qa.json": JSON.stringify({
        input: { type: "object", properties: { code: { type: "string", pattern: "([a-z]+" } } },
        output: { type: "object", properties: {} },
      }),
    });
  });
  afterAll(() => rm(specs, { recursive: true, force: true }));

  it("reports a schema the request checks cannot compile as a spec problem, with file and pointer", async () => {
    const result = await startServe({
      specs,
      cwd: specs,
      port: 0,
      host: "127.0.0.1",
      handlers: "handlers",
      watch: false,
      keysEnv: KEY,
      rate: 10,
      burst: 10,
      bodyLimit: 1024,
      maxDepth: 64,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 1000,
      seed: 1,
    });
    if (result.ok) {
      await result.close();
      return expect.fail("serve started with a pattern that is not a regular expression");
    }
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.file).toMatch(/@acme\/qa\.json$/);
    expect(result.issues[0]?.pointer).toMatch(/^\/input/);
    expect(result.issues[0]?.message).toContain("([a-z]+");
  });

  it("exits 2 with what to pass for limits out of range", async () => {
    for (const [flag, value, says] of [
      ["--max-depth", "0", "--max-depth 64"],
      ["--headers-timeout", "0", "--headers-timeout 10000"],
      ["--request-timeout", "5", "--request-timeout 30000"],
    ] as const) {
      const err: string[] = [];
      const code = await main(["serve", "--port", "0", "--no-watch", flag, value], {
        io: { out: () => undefined, err: (line) => err.push(line) },
      });
      expect(code, flag).toBe(2);
      expect(err.join("\n")).toContain(says);
    }
  });
});
