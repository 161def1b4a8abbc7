import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serve } from "../src/api/serve.js";
import { createRateLimiter } from "../src/serve/rate-limit.js";
import { verify, type VerifyReport } from "../src/api/verify.js";
import { formatVerifyReport } from "../src/verify/format-report.js";
import {
  fakeClock,
  requireKey,
  startStandIn,
  type StandInAnswer,
  type StandInCall,
} from "./helpers/platform-stand-in.js";
import { runCli } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const KEY = "sk_Test/Key+1=";

const spec = (output: Record<string, unknown>, example: { input: unknown; output: unknown }) => ({
  input: {
    type: "object",
    required: ["id"],
    additionalProperties: false,
    properties: { id: { type: "string", minLength: 1 } },
  },
  output,
  examples: [{ name: "first", ...example }],
});

/** Six flows, each with one example; `drift` below answers each in its own wrong way. */
const SPECS = {
  "specs/@shop/profile.json": spec(
    {
      type: "object",
      required: ["id", "name"],
      additionalProperties: false,
      properties: { id: { type: "string", format: "uuid" }, name: { type: "string" } },
    },
    {
      input: { id: "u1" },
      output: { id: "0b7c6a5e-8a5f-4a1e-9e53-2f0c3d2b1a00", name: "Ada" },
    },
  ),
  "specs/@shop/cart.json": spec(
    {
      type: "object",
      required: ["items"],
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            required: ["sku", "qty"],
            properties: { sku: { type: "string" }, qty: { type: "integer" } },
          },
        },
      },
    },
    { input: { id: "c1" }, output: { items: [{ sku: "A-1", qty: 2 }] } },
  ),
  "specs/@shop/order.json": spec(
    {
      type: "object",
      required: ["orderId", "status"],
      properties: { orderId: { type: "string" }, status: { enum: ["open", "paid"] } },
    },
    { input: { id: "o1" }, output: { orderId: "o1", status: "open" } },
  ),
  "specs/@shop/ping.json": spec(
    { type: "object", properties: { ok: { type: "boolean" } } },
    { input: { id: "p" }, output: { ok: true } },
  ),
  "specs/@shop/page.json": spec(
    { type: "object", properties: { html: { type: "string" } } },
    { input: { id: "p" }, output: { html: "<p/>" } },
  ),
  "specs/@shop/busy.json": spec(
    { type: "object", required: ["done"], properties: { done: { type: "boolean" } } },
    { input: { id: "b" }, output: { done: true } },
  ),
};

const FAITHFUL: Record<string, unknown> = {
  "/v1/@shop/profile": { id: "0b7c6a5e-8a5f-4a1e-9e53-2f0c3d2b1a00", name: "Ada" },
  "/v1/@shop/cart": { items: [{ sku: "A-1", qty: 2 }] },
  "/v1/@shop/order": { orderId: "o1", status: "open" },
  "/v1/@shop/ping": { ok: true },
  "/v1/@shop/page": { html: "<p/>" },
  "/v1/@shop/busy": { done: true },
};

/** The platform as the specs describe it. */
const faithful = requireKey(KEY, (call) => ({ json: FAITHFUL[call.path] }));

/** The platform after it changed under the specs: one drift per flow, and a 429 before @shop/busy answers. */
function drifting(): ReturnType<typeof requireKey> {
  let busyCalls = 0;
  return requireKey(KEY, (call): StandInAnswer => {
    switch (call.path) {
      case "/v1/@shop/profile": // a field renamed
        return { json: { id: "0b7c6a5e-8a5f-4a1e-9e53-2f0c3d2b1a00", fullName: "Ada" } };
      case "/v1/@shop/cart": // a type changed
        return { json: { items: [{ sku: "A-1", qty: "2" }] } };
      case "/v1/@shop/order": // a required field missing
        return { json: { orderId: "o1" } };
      case "/v1/@shop/ping": // a wrong status
        return { status: 404, json: { code: "not_found", message: "No such flow." } };
      case "/v1/@shop/page": // not JSON
        return { headers: { "content-type": "text/html" }, text: "<html>maintenance</html>" };
      default:
        return busyCalls++ === 0 ? rateLimited("2") : { json: { done: true } };
    }
  });
}

/** A loopback URL on which nothing listens: a port just freed. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

function violationsOf(report: VerifyReport): Record<string, string[]> {
  return Object.fromEntries(
    report.flows.map((flow) => [
      flow.flowId,
      flow.cases.flatMap((result) =>
        result.violations.map((violation) => `${result.name} #${violation.pointer}`),
      ),
    ]),
  );
}

describe("flowgen verify against a platform stand-in", () => {
  it("passes when every answer keeps the contract (exit 0), sending the key only where it should", async () => {
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(faithful);
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(cwd, "verify", "--base-url", platform.url, "--seed", "1");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("✓ @shop/profile: 2 of 2 passed (p50 ");
    expect(run.stdout).toMatch(/6 flows; 12 requests of at most 500\n$/);
    const withoutKey = platform.calls.filter((call) => call.authorization === undefined);
    expect(withoutKey.map((call) => call.path).sort()).toEqual(Object.keys(FAITHFUL).sort());
  });

  it("names each drift by flow and JSON pointer, retries the 429 after its Retry-After, and exits 1", async () => {
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(drifting());
    const clock = fakeClock();
    const result = await verify({
      cwd,
      config: false,
      baseUrl: platform.url,
      apiKey: KEY,
      seed: 1,
      // One at a time: the fake clock's jump for the 429 would otherwise count in the timings of calls in flight.
      concurrency: 1,
      clock,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { report } = result;
    expect(violationsOf(report)).toEqual({
      "@shop/busy": [],
      "@shop/cart": ['example "first" #/items/0/qty'],
      "@shop/order": ['example "first" #/status'],
      "@shop/page": ['example "first" #'],
      "@shop/ping": ['example "first" #'],
      "@shop/profile": ['example "first" #/name', 'example "first" #/fullName'],
    });
    const busy = report.flows.find((flow) => flow.flowId === "@shop/busy");
    expect(busy?.outcome).toBe("passed");
    expect(busy?.cases[0]?.attempts).toBe(2);
    expect(clock.sleeps).toEqual([2000]);
    expect(report.outcome).toBe("failed");
    expect(report.requests).toBe(13);
    const text = formatVerifyReport(report, "text");
    expect(text).toContain(
      '✗ @shop/cart: 1 of 2 passed, 1 failed (p50 0 ms, p95 0 ms)\n  failed: example "first": POST /v1/@shop/cart {"id":"c1"} → 200\n    #/items/0/qty: expected must be integer (type: "integer"); got "2"',
    );
    expect(text).toContain(
      '#/name: expected required (required: ["id","name"]); got absent\n    #/fullName: expected no such property (additionalProperties: false); got "Ada"',
    );
    expect(text).toContain("#: expected a 2xx status; got 404: ");
    expect(text).toContain(
      "#: expected a JSON body (Content-Type: application/json); got text/html",
    );

    // The CLI says the same with exit code 1 (the flow that answers 429 left out: its wait would be real).
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(cwd, "verify", "--base-url", platform.url, "@shop/pnig", "@shop/p*");
    expect(run.stderr).toContain(
      "@shop/pnig: no flow with a spec matches; did you mean @shop/ping? Name flows as @org/flow-name, or with * for any part: @org/* [unknown-flow] flowgen-cli/docs/errors.md#unknown-flow",
    );
    expect(run.code).toBe(2);
    const cli = await runCli(cwd, "verify", "--base-url", platform.url, "@shop/p*", "@shop/c*");
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain("✗ @shop/page");
    expect(cli.stdout).toContain("✗ @shop/cart");
  });

  it("passes against flowgen serve with the repo's specs, generated and invalid inputs included", async () => {
    const server = await serve({
      cwd: REPO_ROOT,
      config: false,
      port: 0,
      watch: false,
      handlers: "no-handlers-here",
      keysEnv: KEY,
      rate: 1000,
      burst: 1000,
      log: () => undefined,
    });
    if (!server.ok) throw new Error(JSON.stringify(server.issues));
    try {
      const result = await verify({
        cwd: REPO_ROOT,
        config: false,
        baseUrl: server.url,
        apiKey: KEY,
        generate: 2,
        negative: true,
        seed: 5,
      });
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      const failures = result.report.flows.flatMap((flow) =>
        flow.cases.filter((c) => c.outcome !== "passed"),
      );
      expect(failures).toEqual([]);
      const kinds = new Set(result.report.flows.flatMap((flow) => flow.cases.map((c) => c.kind)));
      expect([...kinds].sort()).toEqual(["example", "generated", "negative", "no-key"]);
      expect(result.report.flows.map((flow) => flow.flowId)).toEqual(server.flows);
    } finally {
      await server.close();
    }
  });
});

describe("flowgen verify's checks can fail", () => {
  it("names a schema-breaking input answered 200 and a keyless call answered 200 (exit 1)", async () => {
    const cwd = await tempProject(SPECS);
    // Takes anything: no input check, no key check.
    const lax = await startStandIn((call) => ({ json: FAITHFUL[call.path] }));
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(
      cwd,
      "verify",
      "--base-url",
      lax.url,
      "@shop/order",
      "--negative",
      "--concurrency",
      "1",
    );
    expect(run.code).toBe(1);
    const violations = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("  failed: ") || line.startsWith("    #"));
    expect(violations).toEqual([
      "  failed: negative: /id missing (required): POST /v1/@shop/order {} → 200",
      '    #: expected 400 (or 422) with the error body: the input breaks the flow\'s input schema; got 200: {"orderId":"o1","status":"open"}',
      '  failed: negative: /id as 12345 (type: "string"): POST /v1/@shop/order {"id":12345} → 200',
      '    #: expected 400 (or 422) with the error body: the input breaks the flow\'s input schema; got 200: {"orderId":"o1","status":"open"}',
      '  failed: negative: /id as "" (minLength: 1): POST /v1/@shop/order {"id":""} → 200',
      '    #: expected 400 (or 422) with the error body: the input breaks the flow\'s input schema; got 200: {"orderId":"o1","status":"open"}',
      '  failed: negative: /flowgenUnexpectedProperty added (additionalProperties: false): POST /v1/@shop/order {"id":"o1","flowgenUnexpectedProperty":"flowgen"} → 200',
      '    #: expected 400 (or 422) with the error body: the input breaks the flow\'s input schema; got 200: {"orderId":"o1","status":"open"}',
      "  failed: negative: body [] (an array, not an object): POST /v1/@shop/order [] → 200",
      '    #: expected 400 (or 422) with the error body: the input breaks the flow\'s input schema; got 200: {"orderId":"o1","status":"open"}',
      '  failed: no key: POST /v1/@shop/order without a key {"id":"o1"} → 200',
      '    #: expected 401 with the error body: the call carries no key; got 200: {"orderId":"o1","status":"open"}',
    ]);
  });

  it("reports a value that breaks its declared format (uuid, date-time) by pointer", async () => {
    const cwd = await tempProject({
      "specs/@shop/event.json": spec(
        {
          type: "object",
          required: ["id", "at"],
          properties: {
            id: { type: "string", format: "uuid" },
            at: { type: "string", format: "date-time" },
          },
        },
        {
          input: { id: "e1" },
          output: { id: "0b7c6a5e-8a5f-4a1e-9e53-2f0c3d2b1a00", at: "2026-01-01T00:00:00Z" },
        },
      ),
    });
    const drift = await startStandIn(
      requireKey(KEY, () => ({ json: { id: "not-a-uuid", at: "yesterday at noon" } })),
    );
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(cwd, "verify", "--base-url", drift.url);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '    #/id: expected must match format "uuid" (format: "uuid"); got "not-a-uuid"\n    #/at: expected must match format "date-time" (format: "date-time"); got "yesterday at noon"\n',
    );
  });
});

describe("flowgen verify --seed", () => {
  it("replays the same generated inputs for the same seed, and draws others for another", async () => {
    const cwd = await tempProject(SPECS);
    const plan = async (seed: string) => {
      const run = await runCli(
        cwd,
        "verify",
        "--base-url",
        "https://api.example.com",
        "--dry-run",
        "--generate",
        "3",
        "--seed",
        seed,
      );
      expect(run.code).toBe(0);
      // The header names the seed; the requests follow.
      return run.stdout
        .split("\n")
        .slice(1)
        .filter((line) => line.includes("generated"));
    };
    const first = await plan("7");
    expect(first).toHaveLength(6 * 3);
    expect(await plan("7")).toEqual(first);
    expect(await plan("8")).not.toEqual(first);
  });
});

/** `flowgen verify @shop/cart` against `url`, its report in `format`. */
function verifyCart(cwd: string, url: string, format: string) {
  return runCli(cwd, "verify", "--base-url", url, "@shop/cart", "--format", format);
}

describe("flowgen verify on a shared platform", () => {
  it("never prints or returns the key, whatever the platform echoes, in any format", async () => {
    const cwd = await tempProject(SPECS);
    const echo = (call: StandInCall) => {
      const sent = call.authorization ?? "";
      const key = sent.replace(/^Bearer /, "");
      return {
        headers: { "x-echo": sent },
        json: {
          items: [
            key,
            key.toUpperCase(),
            encodeURIComponent(key),
            encodeURIComponent(key).toLowerCase(),
            // Where a shown value is cut short: the key must go before the cut, not after.
            `${"x".repeat(188)}${key}`,
            `${"y".repeat(185)}${Buffer.from(key).toString("base64")}`,
          ],
          [key]: sent,
        },
      };
    };
    const platform = await startStandIn(requireKey(KEY, echo));
    vi.stubEnv("FLOW_API_KEY", KEY);
    const outputs: string[] = [];
    for (const format of ["text", "json", "junit"]) {
      const run = await verifyCart(cwd, platform.url, format);
      expect(run.code).toBe(1);
      outputs.push(run.stdout + run.stderr);
    }
    expect(outputs[2]).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="flowgen verify" tests="2" failures="1" errors="0" skipped="0" time="[\d.]+">\n {2}<testsuite name="@shop\/cart" tests="2" failures="1"/,
    );
    expect(outputs[2]).toContain(
      '<failure type="contract-violation" message="#/items/0: expected must be object (type: &quot;object&quot;)">',
    );
    const result = await verify({
      cwd,
      config: false,
      baseUrl: platform.url,
      apiKey: KEY,
      flows: ["@shop/cart"],
    });
    outputs.push(JSON.stringify(result));
    for (const output of outputs) {
      expect(output).toContain("[redacted]");
      const lower = output.toLowerCase();
      for (const form of [
        KEY,
        encodeURIComponent(KEY),
        JSON.stringify(KEY).slice(1, -1),
        "sk_test",
        Buffer.from(KEY).toString("base64").slice(0, 12),
      ])
        expect(lower).not.toContain(form.toLowerCase());
    }
  });

  it("says where an answer that is not JSON breaks, quoting none of it around the break", async () => {
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(
      requireKey(KEY, () => ({
        headers: { "content-type": "application/json" },
        text: `[${"1,".repeat(30)}${KEY}]`,
      })),
    );
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await verifyCart(cwd, platform.url, "json");
    expect(run.stdout).toContain(
      "text that is not JSON (unexpected character at line 1, column 62)",
    );
    expect(run.stdout.toLowerCase()).not.toContain(KEY.slice(0, 6).toLowerCase());
  });

  it("keeps its report whole with a key short enough to stand inside its own words", async () => {
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(requireKey("x", () => ({ json: { items: [] } })));
    vi.stubEnv("FLOW_API_KEY", "x");
    const json = await verifyCart(cwd, platform.url, "json");
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toContain("maxRequests");
    const text = await verifyCart(cwd, platform.url, "text");
    expect(text.stdout).not.toContain("undefined");
  });

  it("follows no redirect, and names only the target's origin", async () => {
    const cwd = await tempProject(SPECS);
    const elsewhere = await startStandIn(() => ({ json: {} }));
    const platform = await startStandIn(() => ({
      status: 307,
      headers: { location: `${elsewhere.url}/steal?token=${KEY}` },
    }));
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(cwd, "verify", "--base-url", platform.url, "@shop/ping");
    expect(run.code).toBe(1);
    expect(elsewhere.calls).toEqual([]);
    expect(run.stdout).toContain(
      `expected an answer from the base URL itself (flowgen verify follows no redirects); got 307 redirecting to ${elsewhere.url}\n`,
    );
    expect(run.stdout).not.toContain("steal");
  });

  it("lists what it would send with --dry-run and sends nothing, key or not", async () => {
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(faithful);
    const run = await runCli(
      cwd,
      "verify",
      "--base-url",
      platform.url,
      "@shop/order",
      "--dry-run",
      "--negative",
      "--seed",
      "1",
    );
    expect(run.code).toBe(0);
    expect(platform.calls).toEqual([]);
    expect(run.stdout).toBe(
      [
        `flowgen verify --dry-run: would send 7 requests (before retries; at most 500) to ${platform.url}, seed 1; nothing was sent`,
        "@shop/order",
        `  example "first": POST ${platform.url}/v1/@shop/order with Authorization: Bearer $FLOW_API_KEY {"id":"o1"} → expects 2xx, JSON, valid against the output schema`,
        `  negative: /id missing (required): POST ${platform.url}/v1/@shop/order with Authorization: Bearer $FLOW_API_KEY {} → expects 400 (or 422) with the error body`,
        `  negative: /id as 12345 (type: "string"): POST ${platform.url}/v1/@shop/order with Authorization: Bearer $FLOW_API_KEY {"id":12345} → expects 400 (or 422) with the error body`,
        `  negative: /id as "" (minLength: 1): POST ${platform.url}/v1/@shop/order with Authorization: Bearer $FLOW_API_KEY {"id":""} → expects 400 (or 422) with the error body`,
        `  negative: /flowgenUnexpectedProperty added (additionalProperties: false): POST ${platform.url}/v1/@shop/order with Authorization: Bearer $FLOW_API_KEY {"id":"o1","flowgenUnexpectedProperty":"flowgen"} → expects 400 (or 422) with the error body`,
        `  negative: body [] (an array, not an object): POST ${platform.url}/v1/@shop/order with Authorization: Bearer $FLOW_API_KEY [] → expects 400 (or 422) with the error body`,
        `  no key: POST ${platform.url}/v1/@shop/order without Authorization {"id":"o1"} → expects 401 with the error body`,
        "",
      ].join("\n"),
    );
  });

  it("keeps to the request budget: refuses a plan larger than it, and stops retrying when it is spent (exit 3)", async () => {
    const cwd = await tempProject(SPECS);
    const saturated = await startStandIn(() => rateLimited("1"));
    vi.stubEnv("FLOW_API_KEY", KEY);
    const refused = await runCli(cwd, "verify", "--base-url", saturated.url, "--max-requests", "5");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "--max-requests: the run needs 12 requests (before any retry), more than the budget of 5; select fewer flows, lower --generate, or raise --max-requests [invalid-option] flowgen-cli/docs/errors.md#invalid-option",
    );
    expect(saturated.calls).toEqual([]);

    const clock = fakeClock();
    const result = await verify({
      cwd,
      config: false,
      baseUrl: saturated.url,
      apiKey: KEY,
      flows: ["@shop/ping", "@shop/page"],
      maxRequests: 6,
      concurrency: 1,
      clock,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(saturated.calls).toHaveLength(6);
    expect(result.report.requests).toBe(6);
    expect(result.report.outcome).toBe("unanswered");
    const outcomes = result.report.flows.flatMap((flow) =>
      flow.cases.map((c) => `${c.flowId} ${c.name}: ${c.outcome}`),
    );
    // Waits the platform asked for are not failed attempts: the first case waits them out until the budget is spent.
    expect(outcomes).toEqual([
      '@shop/page example "first": unanswered',
      "@shop/page no key: skipped",
      '@shop/ping example "first": skipped',
      "@shop/ping no key: skipped",
    ]);
    expect(result.report.flows[0]?.cases[0]?.attempts).toBe(6);
    expect(result.report.flows[0]?.cases[0]?.reason).toBe(
      "the request budget (--max-requests 6) was spent while the platform kept answering 429",
    );
    expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  it("after a 429, resumes one request at a time, and does not count the waits it was asked for as attempts", async () => {
    const cwd = await tempProject(SPECS);
    const clock = fakeClock();
    // flowgen serve --rate 1 --burst 1, on the test's clock: the bucket refills only as verify waits.
    const limiter = createRateLimiter({ rate: 1, burst: 1 }, () => clock.now());
    const statuses: number[] = [];
    // Requests in flight as each arrives once verify has waited a first time: one, if it resumes
    // paced. The opening burst (the first 4 to arrive: no fifth is sent before an answer) is left
    // out, since on a busy machine its last requests may arrive after that first wait.
    const inFlightAfterPause: number[] = [];
    let arrivals = 0;
    let pacedInFlight = 0;
    // Each answer is held back a moment, so requests sent together meet the bucket together.
    const hold = async () => {
      arrivals += 1;
      const paced = arrivals > 4 && clock.sleeps.length > 0;
      if (paced) inFlightAfterPause.push(++pacedInFlight);
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
      if (paced) pacedInFlight -= 1;
    };
    const platform = await startStandIn(
      requireKey(KEY, (call): StandInAnswer => {
        const rate = limiter.take("ci");
        const headers = {
          "ratelimit-limit": String(rate.limit),
          "ratelimit-remaining": String(rate.remaining),
          "ratelimit-reset": String(rate.resetSeconds),
        };
        statuses.push(rate.allowed ? 200 : 429);
        return rate.allowed
          ? { headers, json: FAITHFUL[call.path] }
          : rateLimited(String(rate.retryAfterSeconds), headers);
      }),
      hold,
    );
    const result = await verify({
      cwd,
      config: false,
      baseUrl: platform.url,
      apiKey: KEY,
      flows: ["@shop/*"],
      generate: 2,
      seed: 1,
      clock,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const unpassed = result.report.flows.flatMap((flow) =>
      flow.cases
        .filter((c) => c.outcome !== "passed")
        .map((c) => `${c.flowId} ${c.name}: ${c.reason}`),
    );
    expect(unpassed).toEqual([]);
    // Only the opening burst (4 at once, the default concurrency; 3 of them keyed) can meet an
    // empty bucket: after it, one request at a time, each after the reset its answer names.
    expect(inFlightAfterPause.length).toBeGreaterThan(0);
    expect(Math.max(...inFlightAfterPause)).toBe(1);
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBeLessThanOrEqual(2);
    expect(result.report.requests).toBe(24 + refused);
  });

  it("leaves a request unanswered once the waits it was asked for pass the most it waits in all", async () => {
    const cwd = await tempProject(SPECS);
    const saturated = await startStandIn(() => rateLimited("50"));
    const clock = fakeClock();
    const result = await verify({
      cwd,
      config: false,
      baseUrl: saturated.url,
      apiKey: KEY,
      flows: ["@shop/ping"],
      concurrency: 1,
      clock,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.report.flows[0]?.cases[0]?.reason).toBe(
      "the platform kept answering 429 for 300 s (7 attempts); flowgen verify waits at most 300 s in all for one request",
    );
    // Six waits for each of the flow's two cases: the seventh would pass 300 s.
    expect(clock.sleeps).toEqual(Array<number>(12).fill(50_000));
  });

  it("waits out a spent rate-limit window before the next request", async () => {
    const SPENT_WINDOW: Record<string, string> = {
      "ratelimit-remaining": "0",
      "ratelimit-reset": "3",
    };
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(
      requireKey(KEY, (call, index) => ({
        headers: index === 0 ? SPENT_WINDOW : {},
        json: FAITHFUL[call.path],
      })),
    );
    const clock = fakeClock();
    const result = await verify({
      cwd,
      config: false,
      baseUrl: platform.url,
      apiKey: KEY,
      flows: ["@shop/order"],
      concurrency: 1,
      clock,
    });
    expect(result.ok && result.report.outcome).toBe("passed");
    expect(clock.sleeps).toEqual([3000]);
  });

  it("keeps to the concurrency cap", async () => {
    const cwd = await tempProject(SPECS);
    // Each answer is held back a moment, so requests a missing cap would let through pile up.
    const hold = () => new Promise<void>((resolve) => setTimeout(resolve, 30));
    const platform = await startStandIn(faithful, hold);
    const result = await verify({
      cwd,
      config: false,
      baseUrl: platform.url,
      apiKey: KEY,
      concurrency: 2,
    });
    expect(result.ok && result.report.outcome).toBe("passed");
    expect(platform.calls).toHaveLength(12);
    expect(platform.maxInFlight()).toBe(2);
  });

  it("exits 3 when the platform cannot be reached, and stops sending", async () => {
    const cwd = await tempProject(SPECS);
    const url = await closedPort();
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(cwd, "verify", "--base-url", url, "--concurrency", "1");
    expect(run.code).toBe(3);
    expect(run.stdout).toContain(
      `could not reach ${url} (ECONNREFUSED); check --base-url (or FLOW_BASE_URL) and that the platform is up`,
    );
    expect(run.stdout).toContain(
      "0 passed, 0 failed, 1 unanswered, 11 skipped in 6 flows; 1 request of at most 500",
    );
  });

  it("reports a refused key once (exit 2), not a violation per case, and stops sending", async () => {
    const cwd = await tempProject(SPECS);
    const platform = await startStandIn(faithful);
    vi.stubEnv("FLOW_API_KEY", "sk_wrong_key");
    const run = await runCli(cwd, "verify", "--base-url", platform.url, "--concurrency", "1");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        `FLOW_API_KEY: the platform at ${platform.url} refused the key: POST /v1/@shop/busy with it answered 401; set FLOW_API_KEY to a key this platform issued (and check --base-url). flowgen verify stopped after 1 request and checked nothing [key-refused] flowgen-cli/docs/errors.md#key-refused`,
        "flowgen verify: 1 problem; nothing was checked.",
        "",
      ].join("\n"),
    );
    expect(platform.calls).toHaveLength(1);
  });

  it("refuses to start without a key, with a base URL that would leak it, or with bad numbers (exit 2)", async () => {
    const cwd = await tempProject(SPECS);
    vi.stubEnv("FLOW_API_KEY", "");
    const run = await runCli(
      cwd,
      "verify",
      "--base-url",
      "http://api.example.com",
      "--generate",
      "-1",
      "--concurrency",
      "0",
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      [
        "--base-url: http:// sends the key in clear text; use https://api.example.com, or http:// only to localhost [no-base-url] flowgen-cli/docs/errors.md#no-base-url",
        "--concurrency: must be a whole number from 1 to 64, not 0 [invalid-option] flowgen-cli/docs/errors.md#invalid-option",
        "--generate: must be a whole number from 0 to 1000, not -1 [invalid-option] flowgen-cli/docs/errors.md#invalid-option",
        "FLOW_API_KEY: not set; flowgen verify sends it as Authorization: Bearer <key>: set FLOW_API_KEY to the key, as issued (--dry-run needs none) [no-api-key] flowgen-cli/docs/errors.md#no-api-key",
        "flowgen verify: 4 problems; nothing was sent.",
        "",
      ].join("\n"),
    );
    vi.stubEnv("FLOW_BASE_URL", "https://user:pw@api.example.com");
    vi.stubEnv("FLOW_API_KEY", KEY);
    const leaky = await runCli(cwd, "verify");
    expect(leaky.code).toBe(2);
    expect(leaky.stderr).toMatch(
      /^FLOW_BASE_URL: a base URL with credentials, a query or a fragment is refused/,
    );
  });

  it("takes an empty FLOW_BASE_URL for unset, and names the config when its baseUrl is wrong", async () => {
    const cwd = await tempProject({
      ...SPECS,
      "flowgen.config.json": { baseUrl: "http://api.example.com" },
    });
    vi.stubEnv("FLOW_BASE_URL", "");
    vi.stubEnv("FLOW_API_KEY", KEY);
    const run = await runCli(cwd, "verify");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^flowgen\.config\.json #\/baseUrl: http:\/\/ sends the key in clear text; .*\[no-base-url\]/,
    );
  });
});

/** The platform's 429: the error body, and Retry-After with any further headers. */
function rateLimited(retryAfter: string, headers: Record<string, string> = {}) {
  return {
    status: 429,
    headers: { ...headers, "retry-after": retryAfter },
    json: { code: "rate_limited", message: "Slow down." },
  };
}
