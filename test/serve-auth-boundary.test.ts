import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawPost, sendRaw, type RawResponse } from "./helpers/raw-http.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";
import { writeFiles } from "./helpers/temp-dir.js";

const ALL_KEY = "k_all_0123456789abcdef";
const ACME_KEY = "k_acme_0123456789abcdef";
const GLOBEX_KEY = "k_globex_0123456789abcdef";

/** Error codes of the error body (docs/error-body.md). */
const CODES = [
  "bad_request",
  "invalid_json",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "request_timeout",
  "payload_too_large",
  "unsupported_media_type",
  "expectation_failed",
  "headers_too_large",
  "rate_limited",
];

/** Every spelling of a flow's path that is not the path itself. `flow` is "@org/name". */
function spellingsOf(flow: string): string[] {
  const canonical = `/v1/${flow}`;
  const [org = "", name = ""] = flow.split("/");
  const hex = (char: string, upper: boolean) => {
    const code = char.charCodeAt(0).toString(16).padStart(2, "0");
    return `%${upper ? code.toUpperCase() : code}`;
  };
  const spellings = new Set<string>();
  // Each character percent-encoded on its own (upper and lower case hex, and twice), and so in an absolute-form target.
  for (let i = 0; i < canonical.length; i++) {
    const [before, char, after] = [
      canonical.slice(0, i),
      canonical[i] ?? "",
      canonical.slice(i + 1),
    ];
    for (const upper of [true, false]) spellings.add(before + hex(char, upper) + after);
    spellings.add(`${before}%25${hex(char, true).slice(1)}${after}`);
    spellings.add(`${before}%u00${hex(char, true).slice(1)}${after}`);
    spellings.add(`http://x${before}${hex(char, true)}${after}`);
  }
  const everyChar = [...canonical].map((char) => (char === "/" ? char : hex(char, true))).join("");
  for (const spelling of [
    everyChar,
    `/%761/${flow}`,
    `/v%31/${flow}`,
    `/%76%31/${flow}`,
    `/v1/%40${org.slice(1)}/${name}`,
    `/v1${hex("/", true)}${flow}`,
    `/v1/${org}${hex("/", false)}${name}`,
    // Dot segments, plain and encoded.
    `/v1/./${flow}`,
    `/./v1/${flow}`,
    `/v1/${org}/./${name}`,
    `/v1/${org}/../${flow}`,
    `/v1/@other/../${flow}`,
    `/v2/../v1/${flow}`,
    `/v1/%2e/${flow}`,
    `/v1/%2e%2e/v1/${flow}`,
    `/v1/${org}/%2E%2E/${flow}`,
    `${canonical}/.`,
    `${canonical}/..`,
    `${canonical}/../${name}`,
    // Repeated and trailing slashes, backslashes.
    `/${canonical}`,
    `/v1//${flow}`,
    `/v1/${org}//${name}`,
    `${canonical}/`,
    `${canonical}//`,
    `\\v1\\${org}\\${name}`,
    `/v1\\${flow}`,
    `/v1/${org}\\${name}`,
    // Case.
    `/V1/${flow}`,
    `/v1/${org.toUpperCase()}/${name}`,
    `/v1/${org}/${name.toUpperCase()}`,
    canonical.toUpperCase(),
    // Parameters, NUL, spaces and other trailing bytes.
    `${canonical};`,
    `${canonical};x=1`,
    `/v1;x=1/${flow}`,
    `/v1/${org};/${name}`,
    `${canonical}%00`,
    `/v1/${org}%00/${name}`,
    `${canonical}%00.json`,
    `${canonical}%20`,
    `${canonical}+`,
    `${canonical}%09`,
    `${canonical}%0d%0a`,
    `${canonical}.json`,
    `${canonical}%23`,
    `${canonical}%3F`,
    `${canonical}#`,
    // Non-ASCII look-alikes and overlong UTF-8.
    `/%EF%BD%961/${flow}`,
    `/v1%c0%af${flow}`,
    `/v1/${org}%c0%af${name}`,
    // Absolute-form targets: judged by their path.
    `http://x/v1/${org}/%2e/${name}`,
    `http://x/%761/${flow}`,
    `http://x//v1/${flow}`,
    `HTTP://x/v1/${flow}/`,
    `http://x${canonical}/..`,
    `http://127.0.0.1:1${canonical}%00`,
    `http://x`,
    `http://x?${canonical}`,
    `//x${canonical}`,
    // Other forms of request target.
    "*",
    `127.0.0.1:443`,
    flow,
    `v1/${flow}`,
    `@${flow}`,
  ]) {
    spellings.add(spelling);
  }
  spellings.delete(canonical);
  return [...spellings];
}

interface AuthVariant {
  readonly name: string;
  /** Header lines to send. */
  readonly lines: readonly string[];
  /** Whether the key may call this flow when the path is the flow's. */
  readonly allowed: (flow: string) => boolean;
}

const AUTH_VARIANTS: readonly AuthVariant[] = [
  { name: "no Authorization header", lines: [], allowed: () => false },
  { name: "an empty Authorization header", lines: ["Authorization: "], allowed: () => false },
  { name: "Bearer without a key", lines: ["Authorization: Bearer"], allowed: () => false },
  {
    name: "the Basic scheme",
    lines: [`Authorization: Basic ${Buffer.from(`${ALL_KEY}:`).toString("base64")}`],
    allowed: () => false,
  },
  { name: "the key without a scheme", lines: [`Authorization: ${ALL_KEY}`], allowed: () => false },
  {
    name: "an unknown key",
    lines: ["Authorization: Bearer k_not_a_real_key_000"],
    allowed: () => false,
  },
  { name: "a key in the query string", lines: [], allowed: () => false },
  { name: "another org's key", lines: [], allowed: () => false },
  { name: "a good key", lines: [`Authorization: Bearer ${ALL_KEY}`], allowed: () => true },
];

const FLOWS = [
  { id: "@acme/qa", body: JSON.stringify({ question: "reached?" }) },
  { id: "@globex/search", body: JSON.stringify({ text: "reached?" }) },
];

/** Counts calls that reach a handler; both flows have one, so a mock cannot answer either. */
const HANDLERS = {
  "@acme/qa.mjs":
    "export default () => { globalThis.__flowgenReached = (globalThis.__flowgenReached ?? 0) + 1; return { answer: 'reached' }; };\n",
  "@globex/search.mjs":
    "export default () => { globalThis.__flowgenReached = (globalThis.__flowgenReached ?? 0) + 1; return { products: [] }; };\n",
};

function reachedCount(): number {
  return (globalThis as { __flowgenReached?: number }).__flowgenReached ?? 0;
}

function headerLinesFor(variant: AuthVariant, flow: string): readonly string[] {
  if (variant.name === "another org's key")
    return [`Authorization: Bearer ${flow.startsWith("@acme/") ? GLOBEX_KEY : ACME_KEY}`];
  return variant.lines;
}

function targetFor(variant: AuthVariant, target: string): string {
  if (variant.name !== "a key in the query string" || !target.startsWith("/")) return target;
  return `${target}${target.includes("?") ? "&" : "?"}api_key=${ALL_KEY}&access_token=${ALL_KEY}`;
}

/** How a refusal is not in the platform's error body (JSON with a known code and a message); undefined when it is. */
function errorBodyProblem(response: RawResponse): string | undefined {
  const type = response.headers.get("content-type") ?? "";
  if (!/^application\/json/.test(type)) return `content-type ${JSON.stringify(type)}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return `not JSON: ${response.body}`;
  }
  if (!CODES.includes(body["code"] as string)) return `unknown code: ${response.body}`;
  return typeof body["message"] === "string" ? undefined : `no message: ${response.body}`;
}

/** How an answer is not a refusal in the error body (with 401, when `mustBe401`); undefined when it is. */
function refusalProblem(response: RawResponse, mustBe401: boolean): string | undefined {
  if (response.status < 400) return `answered ${response.status}`;
  const problem = errorBodyProblem(response);
  if (problem !== undefined || !mustBe401 || response.status === 401) return problem;
  return `answered ${response.status}, not 401: ${response.body}`;
}

/** A refusal in the platform's error body: JSON with a known code and a message. */
function expectErrorBody(response: RawResponse, what: string): void {
  expect(errorBodyProblem(response), what).toBeUndefined();
}

describe("flowgen serve as an auth boundary: every spelling of a flow's path, with every kind of credential", () => {
  let server: StartedServe;
  let handlersDir = "";
  const logs: Record<string, unknown>[] = [];
  beforeAll(async () => {
    handlersDir = await mkdtemp(path.join(tmpdir(), "flowgen-boundary-"));
    await writeFiles(handlersDir, HANDLERS);
    server = await startTestServe(`${ALL_KEY},${ACME_KEY}:@acme,${GLOBEX_KEY}:@globex`, {
      handlers: handlersDir,
      cwd: "/",
      log: (entry) => logs.push(entry),
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(handlersDir, { recursive: true, force: true });
  });

  it("lets no request reach a flow but the flow's own path with a key for its org, and answers each refusal in the error body", async () => {
    const before = reachedCount();
    const outcomes: string[] = [];
    // What is wrong with an answer to a spelling; gathered, and asserted once (thousands of answers).
    const problems: string[] = [];
    let sent = 0;
    for (const flow of FLOWS) {
      const spellings = spellingsOf(flow.id);
      expect(spellings.length).toBeGreaterThanOrEqual(100);
      for (const variant of AUTH_VARIANTS) {
        const lines = [...headerLinesFor(variant, flow.id), "Content-Type: application/json"];
        // The flow's own path: only a key for its org gets through.
        const own = await sendRaw(
          server.port,
          rawPost(targetFor(variant, `/v1/${flow.id}`), lines, flow.body),
        );
        sent++;
        if (variant.allowed(flow.id)) {
          expect(own.status, `${variant.name} on /v1/${flow.id}`).toBe(200);
        } else {
          expect([401, 403], `${variant.name} on /v1/${flow.id}: ${own.body}`).toContain(
            own.status,
          );
          expectErrorBody(own, `${variant.name} on /v1/${flow.id}`);
        }
        for (const spelling of spellings) {
          for (const method of ["POST", "GET"]) {
            const response = await sendRaw(
              server.port,
              rawPost(targetFor(variant, spelling), lines, flow.body, method),
            );
            sent++;
            const what = `${method} ${spelling} with ${variant.name}`;
            outcomes.push(`${response.status} ${what}`);
            // Without a good key, nothing tells a caller whether a path is a flow.
            const mustBe401 =
              !variant.allowed(flow.id) &&
              variant.name !== "another org's key" &&
              !response.body.includes("well-formed");
            const problem = refusalProblem(response, mustBe401);
            if (problem !== undefined) problems.push(`${what}: ${problem}`);
          }
        }
      }
    }
    expect({ count: problems.length, first: problems.slice(0, 20) }).toEqual({
      count: 0,
      first: [],
    });
    expect(reachedCount() - before).toBe(FLOWS.length); // the two good-key calls on the flows' own paths
    expect(outcomes.filter((line) => line.startsWith("2"))).toEqual([]);
    expect(sent).toBeGreaterThan(2 * 9 * 200);

    // The key still works afterwards (nothing above tripped its rate limit or broke the server).
    for (const flow of FLOWS) {
      const again = await sendRaw(
        server.port,
        rawPost(
          `/v1/${flow.id}`,
          [`Authorization: Bearer ${ALL_KEY}`, "Content-Type: application/json"],
          flow.body,
        ),
      );
      expect(again.status).toBe(200);
    }
  });

  it("never writes the query string, or a key in it, to the access log", async () => {
    const response = await sendRaw(
      server.port,
      rawPost(
        `/v1/@acme/qa?api_key=${ALL_KEY}&x=1`,
        [`Authorization: Bearer ${ALL_KEY}`, "Content-Type: application/json"],
        FLOWS[0]?.body ?? "",
      ),
    );
    expect(response.status).toBe(200);
    const logged = JSON.stringify(logs);
    expect(logs.some((entry) => entry["path"] === "/v1/@acme/qa" && entry["status"] === 200)).toBe(
      true,
    );
    for (const secret of [ALL_KEY, ACME_KEY, GLOBEX_KEY, "api_key", "access_token"])
      expect(logged).not.toContain(secret);
  });

  it("answers a path that is not well-formed with 400 in the error body", async () => {
    const response = await sendRaw(
      server.port,
      rawPost(
        "/v1/%zz/qa",
        [`Authorization: Bearer ${ALL_KEY}`, "Content-Type: application/json"],
        "{}",
      ),
    );
    expect(response.status).toBe(400);
    expectErrorBody(response, "/v1/%zz/qa");
    const garbage = await sendRaw(
      server.port,
      "POST /v1/@acme/qa HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
    );
    expect(garbage.status).toBe(400);
    expectErrorBody(garbage, "a malformed header line");
  });
});
