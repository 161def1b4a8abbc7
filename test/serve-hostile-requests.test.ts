import { once } from "node:events";
import net from "node:net";
import { gzipSync } from "node:zlib";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawPost, sendRaw, type RawResponse } from "./helpers/raw-http.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";
import { writeFiles } from "./helpers/temp-dir.js";

const KEY = "k_all_0123456789abcdef";
const ACME_KEY = "k_acme_0123456789abcdef";
const OTHER_KEY = "k_not_a_key_000000000";
/** A key that fits the shape of an org name. */
const PLAIN_KEY = "plainkey0123456789abcdef";
/** A key with the characters a JSON pointer escapes. */
const SLASH_KEY = "sl/ash~Key0123xyz";
const BODY = JSON.stringify({ question: "reached?" });
const AUTH = `Authorization: Bearer ${KEY}`;
const JSON_TYPE = "Content-Type: application/json";

/** The handler counts the calls that reach it: a refusal must leave the count alone. */
const HANDLERS = {
  "@acme/qa.mjs":
    "export default () => { globalThis.__flowgenHostile = (globalThis.__flowgenHostile ?? 0) + 1; return { answer: 'reached' }; };\n",
};

function reached(): number {
  return (globalThis as { __flowgenHostile?: number }).__flowgenHostile ?? 0;
}

/** The platform's error body with `code`, parsed from a raw answer. */
function expectErrorBody(response: RawResponse, status: number, code: string): void {
  expect(response.status, response.body).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toMatchObject({ code, message: expect.any(String) });
}

function decodePercents(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** `text` percent-decoded round after round, until nothing changes. */
function decodeAllPercents(text: string): string {
  for (let next = decodePercents(text); next !== text; next = decodePercents(text)) text = next;
  return text;
}

/** What every run of base64 characters in `text` decodes to, read from each of its first four characters. */
function base64Readings(text: string): string {
  const runs = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [];
  return runs
    .flatMap((run) =>
      [0, 1, 2, 3].map((skip) =>
        Buffer.from(run.slice(skip).replaceAll("-", "+").replaceAll("_", "/"), "base64").toString(
          "latin1",
        ),
      ),
    )
    .join("\n");
}

/** What every run of hex digits in `text` decodes to, from its first digit and from its second. */
function hexReadings(text: string): string {
  const runs = text.match(/[0-9a-f]{12,}/gi) ?? [];
  return runs
    .flatMap((run) => [0, 1].map((skip) => Buffer.from(run.slice(skip), "hex").toString("latin1")))
    .join("\n");
}

/** `text` without the zero bytes UTF-16 puts beside each ASCII character, raw or JSON-escaped. */
function withoutZeros(text: string): string {
  return text.replaceAll("\\u0000", "").replaceAll("\0", "");
}

function hex(text: string): string {
  return Buffer.from(text, "latin1").toString("hex");
}

/** `text` in UTF-16, a byte to a character. */
function utf16(text: string, order: "le" | "be"): string {
  const bytes = Buffer.from(text, "utf16le");
  return (order === "le" ? bytes : bytes.swap16()).toString("latin1");
}

function base64(text: string): string {
  return Buffer.from(text, "latin1").toString("base64");
}

/** Each character as a percent-escape, whatever it is. */
function percentEach(text: string): string {
  return [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
}

/** A raw request with the given head lines (Host not added), a body, and Connection: close. */
function rawRequest(head: readonly string[], body = ""): string {
  return [
    ...head,
    "Connection: close",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "",
    body,
  ].join("\r\n");
}

/**
 * Sends a head with `Expect: 100-continue` and no body, and reads what comes back first. When it is
 * `100 Continue`, sends the body and reads the rest until the server closes.
 */
function sendExpectingContinue(
  port: number,
  headLines: readonly string[],
): Promise<{ first: string; all: string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    let first: string | undefined;
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(
        [
          "POST /v1/@acme/qa HTTP/1.1",
          "Host: 127.0.0.1",
          "Expect: 100-continue",
          "Connection: close",
          JSON_TYPE,
          ...headLines,
          `Content-Length: ${BODY.length}`,
          "",
          "",
        ].join("\r\n"),
      ),
    );
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 5 s: ${JSON.stringify(text)}`));
    }, 5_000);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (first === undefined && text.includes("\r\n\r\n")) {
        first = text.slice(0, text.indexOf("\r\n"));
        if (first.startsWith("HTTP/1.1 100 ")) socket.write(BODY);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ first: first ?? "", all: text });
    });
  });
}

describe("flowgen serve with hostile or unusual requests", () => {
  let server: StartedServe;
  let handlersDir = "";
  const logs: Record<string, unknown>[] = [];
  beforeAll(async () => {
    handlersDir = await mkdtemp(path.join(tmpdir(), "flowgen-hostile-"));
    await writeFiles(handlersDir, HANDLERS);
    server = await startTestServe(`${KEY},${ACME_KEY}:@acme,${PLAIN_KEY},${SLASH_KEY}`, {
      handlers: handlersDir,
      cwd: "/",
      log: (entry) => logs.push(entry),
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(handlersDir, { recursive: true, force: true });
  });

  it.each([
    ["a good key, then a wrong one", [AUTH, `Authorization: Bearer ${OTHER_KEY}`]],
    ["a wrong key, then a good one", [`Authorization: Bearer ${OTHER_KEY}`, AUTH]],
    ["the good key twice", [AUTH, AUTH]],
    ["the good key twice, the names in other cases", [AUTH, `AUTHORIZATION: Bearer ${KEY}`]],
    ["a good key and an empty one", [AUTH, "authorization: "]],
    [
      "a good key, 2,000 other headers, then a wrong key",
      [AUTH, ...Array.from({ length: 2000 }, () => "a:"), `Authorization: Bearer ${OTHER_KEY}`],
    ],
  ])("refuses two Authorization headers with 400: %s", async (_, lines) => {
    const before = reached();
    const response = await sendRaw(
      server.port,
      rawPost("/v1/@acme/qa", [...lines, JSON_TYPE], BODY),
    );
    expectErrorBody(response, 400, "bad_request");
    expect(response.body).toContain("more than one Authorization header");
    expect(reached()).toBe(before);
  });

  it.each([
    ["Host", ["Host: 127.0.0.1", "Host: evil.example"]],
    ["Content-Type", [JSON_TYPE, "Content-Type: text/plain"]],
  ])("refuses a repeated %s header with 400", async (name, lines) => {
    const before = reached();
    const response = await sendRaw(
      server.port,
      rawRequest(
        [
          "POST /v1/@acme/qa HTTP/1.1",
          ...lines,
          AUTH,
          ...(name === "Host" ? [JSON_TYPE] : ["Host: x"]),
        ],
        BODY,
      ),
    );
    expectErrorBody(response, 400, "bad_request");
    expect(response.body).toContain(`more than one ${name} header`);
    expect(reached()).toBe(before);
  });

  it("answers an HTTP/1.1 request without Host with 400 in the error body, and serves HTTP/1.0 without one", async () => {
    const missing = await sendRaw(
      server.port,
      rawRequest(["POST /v1/@acme/qa HTTP/1.1", AUTH, JSON_TYPE], BODY),
    );
    expectErrorBody(missing, 400, "bad_request");
    expect(missing.body).toContain("no Host header");
    const old = await sendRaw(
      server.port,
      rawRequest(["POST /v1/@acme/qa HTTP/1.0", AUTH, JSON_TYPE], BODY),
    );
    expect(old.status).toBe(200);
  });

  it.each(["/v1/@acme/qa", "/nothing/here"])(
    "answers an unknown Expect on %s with 401 without a good key, and 417 with RateLimit headers with one",
    async (target) => {
      const before = reached();
      const head = [`POST ${target} HTTP/1.1`, "Host: x", "Expect: foo", JSON_TYPE];
      for (const lines of [
        [],
        [`Authorization: Bearer ${OTHER_KEY}`],
        ["Authorization: Basic x"],
      ]) {
        const refused = await sendRaw(server.port, rawRequest([...head, ...lines], BODY));
        expectErrorBody(refused, 401, "unauthorized");
        expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer realm="flowgen"/);
        expect(refused.headers.has("ratelimit-limit")).toBe(false);
      }
      const unmet = await sendRaw(server.port, rawRequest([...head, AUTH], BODY));
      expectErrorBody(unmet, 417, "expectation_failed");
      expect(unmet.headers.get("ratelimit-limit")).toBe("1000");
      expect(unmet.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
      expect(unmet.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
      expect(reached()).toBe(before);
    },
  );

  it.each([
    ["no key", [], "HTTP/1.1 401 ", "unauthorized"],
    ["an unknown key", [`Authorization: Bearer ${OTHER_KEY}`], "HTTP/1.1 401 ", "unauthorized"],
    ["two keys", [AUTH, AUTH], "HTTP/1.1 400 ", "bad_request"],
  ])(
    "never says 100 Continue to a call with %s: it gets the error body at once",
    async (_, lines, statusLine, code) => {
      const before = reached();
      const { first, all } = await sendExpectingContinue(server.port, lines);
      expect(first.startsWith(statusLine), all).toBe(true);
      expect(all).not.toContain("100 Continue");
      expect(JSON.parse(all.slice(all.indexOf("\r\n\r\n") + 4))).toMatchObject({ code });
      expect(reached()).toBe(before);
    },
  );

  it("says 100 Continue to an admitted call, then answers it", async () => {
    const before = reached();
    const { first, all } = await sendExpectingContinue(server.port, [AUTH]);
    expect(first).toBe("HTTP/1.1 100 Continue");
    expect(all).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\{"answer":"reached"\}$/);
    expect(reached()).toBe(before + 1);
  });

  it("refuses a compressed body with 415 and Accept-Encoding: identity, after auth, and reads an identity one", async () => {
    const before = reached();
    const gzipped = gzipSync(BODY);
    const refused = await sendRaw(
      server.port,
      rawPost("/v1/@acme/qa", [AUTH, JSON_TYPE, "Content-Encoding: gzip"], gzipped),
    );
    expectErrorBody(refused, 415, "unsupported_media_type");
    expect(refused.headers.get("accept-encoding")).toBe("identity");
    for (const coding of ["deflate", "br", "GZIP", "identity, gzip", "x-custom"]) {
      const response = await sendRaw(
        server.port,
        rawPost("/v1/@acme/qa", [AUTH, JSON_TYPE, `Content-Encoding: ${coding}`], BODY),
      );
      expectErrorBody(response, 415, "unsupported_media_type");
    }
    const chunkedGzip = await sendRaw(
      server.port,
      [
        "POST /v1/@acme/qa HTTP/1.1",
        "Host: x",
        AUTH,
        JSON_TYPE,
        "Transfer-Encoding: gzip, chunked",
        "Connection: close",
        "",
        `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
      ].join("\r\n"),
    );
    expectErrorBody(chunkedGzip, 415, "unsupported_media_type");
    const withoutKey = await sendRaw(
      server.port,
      rawPost("/v1/@acme/qa", [JSON_TYPE, "Content-Encoding: gzip"], gzipped),
    );
    expectErrorBody(withoutKey, 401, "unauthorized");
    expect(reached()).toBe(before);
    const identity = await sendRaw(
      server.port,
      rawPost("/v1/@acme/qa", [AUTH, JSON_TYPE, "Content-Encoding: identity"], BODY),
    );
    expect(identity.status).toBe(200);
    expect(reached()).toBe(before + 1);
  });

  it("answers CONNECT with 405 in the error body", async () => {
    const response = await sendRaw(
      server.port,
      "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n",
    );
    expectErrorBody(response, 405, "method_not_allowed");
  });

  it.each([
    ["a plain token", "trace-01J9Z6:abc/DEF+=_.", true],
    ["a UUID", "0f8fad5b-d9cb-469f-a165-70867728950e", true],
    ["markup", "<script>alert(1)</script>", false],
    ["quotes and a backslash", 'id"\\x', false],
    ["spaces", "two words", false],
    ["a percent sign", "id%0d%0a", false],
    ["129 characters", "a".repeat(129), false],
    ["the API key", KEY, false],
    ["the API key in capitals", KEY.toUpperCase(), false],
    ["the API key inside a longer id", `trace-${KEY}-1`, false],
    ["another key of this server", ACME_KEY, false],
  ])("echoes and logs X-Request-Id only when it is safe: %s", async (_, id, echoed) => {
    logs.length = 0;
    const response = await sendRaw(
      server.port,
      rawPost("/v1/@acme/nope", [AUTH, JSON_TYPE, `X-Request-Id: ${id}`], BODY),
    );
    expect(response.status).toBe(404);
    const made = response.headers.get("x-request-id") ?? "";
    expect(JSON.parse(response.body)).toMatchObject({ requestId: made });
    expect(logs.at(-1)).toMatchObject({ requestId: made, status: 404 });
    if (echoed) expect(made).toBe(id);
    else expect(made).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it.each([
    ["the path", `/v1/@acme/${KEY}`, []],
    ["the path, in capitals", `/v1/@acme/${KEY.toUpperCase()}`, []],
    ["the path, across the length echoed", `/v1/@acme/${"a".repeat(180)}${KEY}`, []],
    [
      "the path, percent-encoded",
      `/v1/@acme/${encodeURIComponent(KEY).replaceAll("_", "%5F")}`,
      [],
    ],
    ["the path, percent-encoded twice", `/v1/${KEY.replace("k", "%256B")}`, []],
    ["the path of a flow-shaped target", `/v1/@${PLAIN_KEY}/qa`, []],
    ["the query string", `/v1/@acme/nope?key=${KEY}`, []],
    ["X-Request-Id", "/v1/@acme/nope", [`X-Request-Id: ${KEY}`]],
    ["X-Flowgen-Fault", "/v1/@acme/qa", [`X-Flowgen-Fault: ${KEY}`]],
    ["X-Flowgen-Fault latency", "/v1/@acme/qa", [`X-Flowgen-Fault: latency=${KEY}`]],
    [
      "a Content-Type parameter",
      "/v1/@acme/qa",
      [`Content-Type: application/json; charset=${KEY}`],
    ],
    [
      "a property name of the body",
      "/v1/@acme/qa",
      [],
      JSON.stringify({ question: "?", [KEY]: 1 }),
    ],
    ["a body that is not JSON", "/v1/@acme/qa", [], `${KEY}`],
    ["a body that breaks off in a key", "/v1/@acme/qa", [], `{"question": ${KEY}}`],
    ["the path, in base64", `/v1/${base64(KEY)}`, []],
    ["the path, in hex", `/v1/${hex(KEY)}`, []],
    ["the path, in hex capitals", `/v1/@acme/${hex(KEY).toUpperCase()}`, []],
    ["the path, in UTF-16LE", `/v1/${percentEach(utf16(KEY, "le"))}`, []],
    ["the path, in UTF-16BE", `/v1/@acme/${percentEach(utf16(KEY, "be"))}`, []],
    ["X-Request-Id, in hex", "/v1/@acme/nope", [`X-Request-Id: ${hex(KEY)}`]],
    [
      "a property name of the body, in UTF-16",
      "/v1/@acme/qa",
      [],
      JSON.stringify({ question: "?", [utf16(KEY, "le")]: 1 }),
    ],
    [
      "the path, percent-encoded four times",
      `/v1/${[1, 2, 3, 4].reduce((t) => encodeURIComponent(t), KEY)}`,
      [],
    ],
    ["the path, each byte percent-encoded twice", `/v1/${percentEach(percentEach(KEY))}`, []],
    [
      "X-Request-Id, in base64 after a user name",
      "/v1/@acme/nope",
      [`X-Request-Id: ${base64(`user:${KEY}`)}`],
    ],
    [
      "a property name of the body, which a pointer escapes",
      "/v1/@acme/qa",
      [],
      JSON.stringify({ question: "?", [SLASH_KEY]: 1 }),
    ],
    [
      "a property name of a body nested too deep",
      "/v1/@acme/qa",
      [],
      JSON.stringify({ [SLASH_KEY]: JSON.parse(`${"[".repeat(70)}${"]".repeat(70)}`) as unknown }),
    ],
    [
      "a property name of a body with a number JSON cannot hold",
      "/v1/@acme/qa",
      [],
      `{"question": "?", ${JSON.stringify(SLASH_KEY)}: 1e400}`,
    ],
  ])(
    "never echoes or logs an API key sent in %s",
    async (_, target, lines: string[], body = BODY) => {
      logs.length = 0;
      const response = await sendRaw(
        server.port,
        rawPost(
          target,
          [
            AUTH,
            ...(lines.some((line) => line.startsWith("Content-Type")) ? [] : [JSON_TYPE]),
            ...lines,
          ],
          body,
        ),
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(JSON.parse(response.body)).toMatchObject({ code: expect.any(String) });
      const seen = [
        response.body,
        [...response.headers.values()].join("\n"),
        JSON.stringify(logs),
      ].join("\n");
      // Not even a part: a message that cuts what it quotes must not cut a key in two.
      if (target.length > 200 || body !== BODY) expect(seen).not.toContain(KEY.slice(0, 8));
      const decoded = decodeAllPercents(seen);
      const readings = [seen, decoded, base64Readings(seen), base64Readings(decoded)].flatMap(
        (text) => [text, hexReadings(text), withoutZeros(text)],
      );
      for (const secret of [KEY, PLAIN_KEY, SLASH_KEY]) {
        const pointer = secret.replaceAll("~", "~0").replaceAll("/", "~1");
        for (const text of readings) {
          expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
          expect(text.toLowerCase()).not.toContain(pointer.toLowerCase());
        }
      }
      expect(logs.length).toBeGreaterThan(0);
    },
  );
});

describe("flowgen serve with an unknown Expect, for a key with few calls left", () => {
  let server: StartedServe;
  // Two calls, and a token back only after 2,000 s: no refill can happen during the test.
  beforeAll(async () => {
    server = await startTestServe(KEY, { rate: 0.001, burst: 2 });
  });
  afterAll(() => server?.close());

  it("counts a 417 against the key like any other authenticated answer", async () => {
    const call = (expectation: string) =>
      sendRaw(
        server.port,
        rawRequest(
          ["POST /v1/@acme/qa HTTP/1.1", "Host: x", `Expect: ${expectation}`, AUTH, JSON_TYPE],
          BODY,
        ),
      );
    const answers = [await call("foo"), await call("foo"), await call("foo")];
    expect(answers.map((answer) => answer.status)).toEqual([417, 417, 429]);
    expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual([
      "1",
      "0",
      "0",
    ]);
    expect(answers[2]?.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("flowgen serve while it stops", () => {
  it("answers a request that arrives on an open connection with 503 in the error body", async () => {
    const server = await startTestServe(KEY);
    const accepted = once(server.app.server, "connection") as Promise<[net.Socket]>;
    const socket = net.connect(server.port, "127.0.0.1");
    const [serverSide] = await accepted;
    let text = "";
    socket.setEncoding("latin1").on("data", (chunk: string) => (text += chunk));
    const ended = once(socket, "close");
    // Half a request head: the connection is busy, so closing waits for it. The server's parser
    // listened first, so it has read these bytes once this listener hears them.
    const headRead = once(serverSide, "data");
    socket.write("POST /v1/@acme/qa HTTP/1.1\r\nHost: x\r\n");
    await headRead;
    const closed = server.close();
    for (let i = 0; i < 200 && server.app.server.listening; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(server.app.server.listening).toBe(false);
    socket.write(`${AUTH}\r\n${JSON_TYPE}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`);
    await ended;
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({
      code: "unavailable",
      message: expect.any(String),
    });
  });
});
