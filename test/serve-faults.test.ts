import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createQaClient } from "../generated/@acme/qa.js";
import { createSearchClient as createGlobexSearchClient } from "../generated/@globex/search.js";
import { main } from "../src/cli.js";
import {
  createFaultInjector,
  parseFaultFlags,
  parseFaultHeader,
  type FaultFlags,
  type FaultPlan,
  type FaultSettings,
} from "../src/serve/faults.js";
import type { ServeOptions } from "../src/serve/serve.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";
import { failureOf } from "./helpers/flow-error.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

const KEY = "k_faults_0123456789abcdef";
const QUESTION = { question: "What is the capital of France?" };

type Started = StartedServe;

function serve(overrides: Partial<ServeOptions> = {}): Promise<Started> {
  return startTestServe(KEY, overrides);
}

/** Raw POST of the qa example; the body is parsed when there is one. */
async function postQa(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/v1/@acme/qa`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(QUESTION),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

/**
 * A clock for injected latency that the test moves: each wait is recorded and ends only when
 * the test calls `release()`, so a test proves the wait without waiting.
 */
function manualDelay() {
  const waits: { ms: number; end: () => void }[] = [];
  return {
    waits,
    delay: (ms: number) => new Promise<void>((resolve) => waits.push({ ms, end: resolve })),
    release: () => waits.splice(0).forEach((wait) => wait.end()),
  };
}

/** Resolves once `condition` holds, checking after each turn of the event loop (bounded). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++)
    await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

function plan(flags: FaultFlags): FaultPlan {
  return parseFaultFlags(flags);
}

describe("parseFaultFlags", () => {
  const cases: [
    string,
    {
      given: FaultFlags;
      want: { all: FaultSettings; flows?: Record<string, FaultSettings>; header?: boolean };
    },
  ][] = [
    ["nothing: no faults, header on", { given: {}, want: { all: {} } }],
    [
      "fixed latency",
      { given: { latency: "100" }, want: { all: { latency: { min: 100, max: 100 } } } },
    ],
    [
      "latency range",
      { given: { latency: " 100 - 300 " }, want: { all: { latency: { min: 100, max: 300 } } } },
    ],
    [
      "rates and status",
      {
        given: { errorRate: "0.1", errorStatus: "500", rateLimitRate: ".05" },
        want: { all: { errorRate: 0.1, errorStatus: 500, rateLimitRate: 0.05 } },
      },
    ],
    [
      "rates at the bounds",
      {
        given: { errorRate: "0", rateLimitRate: "1" },
        want: { all: { errorRate: 0, rateLimitRate: 1 } },
      },
    ],
    [
      "per flow, every setting",
      {
        given: { fault: ["@acme/qa:latency=200, error=0.5,status=500,429=0.1"] },
        want: {
          all: {},
          flows: {
            "@acme/qa": {
              latency: { min: 200, max: 200 },
              errorRate: 0.5,
              errorStatus: 500,
              rateLimitRate: 0.1,
            },
          },
        },
      },
    ],
    [
      "per flow, repeated: settings for one flow combine, the last wins",
      {
        given: {
          fault: ["@acme/qa:error=0.5", "@globex/search:latency=10-20", "@acme/qa:error=0.2,429=1"],
        },
        want: {
          all: {},
          flows: {
            "@acme/qa": { errorRate: 0.2, rateLimitRate: 1 },
            "@globex/search": { latency: { min: 10, max: 20 } },
          },
        },
      },
    ],
    ["--no-dev-faults", { given: { devFaults: false }, want: { all: {}, header: false } }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const parsed = parseFaultFlags(given);
    expect(parsed.all).toEqual(want.all);
    expect(Object.fromEntries(parsed.flows)).toEqual(want.flows ?? {});
    expect(parsed.header).toBe(want.header ?? true);
  });

  const errors: [string, { given: FaultFlags; want: string }][] = [
    [
      "latency not a number",
      {
        given: { latency: "fast" },
        want: '--latency fast: give whole milliseconds up to 600000, or a range low-high, e.g. 200 or 100-300 (got "fast")',
      },
    ],
    [
      "latency range backwards",
      {
        given: { latency: "300-100" },
        want: '--latency 300-100: give whole milliseconds up to 600000, or a range low-high, e.g. 200 or 100-300 (got "300-100")',
      },
    ],
    [
      "latency too long",
      {
        given: { latency: "600001" },
        want: '--latency 600001: give whole milliseconds up to 600000, or a range low-high, e.g. 200 or 100-300 (got "600001")',
      },
    ],
    [
      "rate above 1",
      {
        given: { errorRate: "1.5" },
        want: '--error-rate 1.5: give a share of calls from 0 to 1, e.g. 0.1 for one call in ten (got "1.5")',
      },
    ],
    [
      "rate as a percentage",
      {
        given: { rateLimitRate: "5%" },
        want: '--rate-limit-rate 5%: give a share of calls from 0 to 1, e.g. 0.1 for one call in ten (got "5%")',
      },
    ],
    [
      "empty rate",
      {
        given: { errorRate: "" },
        want: '--error-rate : give a share of calls from 0 to 1, e.g. 0.1 for one call in ten (got "")',
      },
    ],
    [
      "status other than 500 or 503",
      {
        given: { errorStatus: "502" },
        want: '--error-status 502: the injected error status is 500 or 503 (got "502")',
      },
    ],
    [
      "--fault without settings",
      {
        given: { fault: ["@acme/qa"] },
        want: '--fault "@acme/qa": write @org/flow:setting=value,…, e.g. --fault "@acme/qa:latency=200,error=0.5,status=500,429=0.1"',
      },
    ],
    [
      "--fault without a flow",
      {
        given: { fault: ["error=0.5"] },
        want: '--fault "error=0.5": write @org/flow:setting=value,…, e.g. --fault "@acme/qa:latency=200,error=0.5,status=500,429=0.1"',
      },
    ],
    [
      "--fault, empty list",
      {
        given: { fault: ["@acme/qa: , "] },
        want: '--fault "@acme/qa: , ": name at least one setting, e.g. @acme/qa:error=0.5',
      },
    ],
    [
      "--fault, unknown setting",
      {
        given: { fault: ["@acme/qa:errors=0.5"] },
        want: '--fault "@acme/qa:errors=0.5": unknown setting "errors"; the settings are latency=MS or MS-MS, error=RATE, status=500|503 and 429=RATE',
      },
    ],
    [
      "--fault, setting without a value",
      {
        given: { fault: ["@acme/qa:error"] },
        want: '--fault "@acme/qa:error": "error" needs a value, e.g. error=…; the settings are latency, error, status and 429',
      },
    ],
    [
      "--fault, bad rate",
      {
        given: { fault: ["@acme/qa:429=2"] },
        want: '--fault "@acme/qa:429=2": 429: give a share of calls from 0 to 1, e.g. 0.1 for one call in ten (got "2")',
      },
    ],
  ];
  it.each(errors)(
    "refuses %s with a RangeError that says what to write",
    (_name, { given, want }) => {
      expect(() => parseFaultFlags(given)).toThrow(new RangeError(want));
    },
  );
});

describe("parseFaultHeader", () => {
  const cases: [string, { given: string; want: FaultSettings }][] = [
    [
      "the documented example",
      {
        given: "latency=200, error=503, 429",
        want: { latency: { min: 200, max: 200 }, errorRate: 1, errorStatus: 503, rateLimitRate: 1 },
      },
    ],
    ["error alone is a 503", { given: "error", want: { errorRate: 1, errorStatus: 503 } }],
    ["error=500", { given: "error=500", want: { errorRate: 1, errorStatus: 500 } }],
    ["latency range", { given: "latency=5-10", want: { latency: { min: 5, max: 10 } } }],
    ["none", { given: "none", want: {} }],
    ["empty", { given: "", want: {} }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(parseFaultHeader(given)).toEqual({ ok: true, faults: want });
  });

  it("says what it takes when a fault is unknown or malformed", () => {
    expect(parseFaultHeader("timeout")).toMatchInlineSnapshot(`
      {
        "message": "X-Flowgen-Fault takes a comma-separated list of latency=MS (or MS-MS), error (503), error=500, error=503, 429, or none; "timeout" is not one of them.",
        "ok": false,
      }
    `);
    expect(parseFaultHeader("error=502")).toMatchInlineSnapshot(`
      {
        "message": "X-Flowgen-Fault: error: the injected error status is 500 or 503 (got "502"). X-Flowgen-Fault takes a comma-separated list of latency=MS (or MS-MS), error (503), error=500, error=503, 429, or none.",
        "ok": false,
      }
    `);
    expect(parseFaultHeader("429=0.5").ok).toBe(false);
    expect(parseFaultHeader("latency").ok).toBe(false);
  });

  it.each([
    ["a fault named twice", "error=503, error=500", '"error" comes twice'],
    ["none beside another fault", "none, 429", '"none" comes with other faults'],
    ["two headers, as Node joins them", "429, none", '"none" comes with other faults'],
  ])("refuses %s", (_name, given, why) => {
    const parsed = parseFaultHeader(given);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(why);
  });
});

describe("createFaultInjector", () => {
  const FLOWS = ["@acme/qa", "@globex/search"];
  /** One letter per call: . passed, E error, R forced 429. */
  const outcomes = (faults: FaultPlan, seed: number, flowId: string, calls: number) => {
    const injector = createFaultInjector(faults, seed, FLOWS);
    return Array.from({ length: calls }, () => {
      const { error } = injector.decide(flowId, undefined);
      return error === undefined ? "." : error.status === 429 ? "R" : "E";
    }).join("");
  };

  it("repeats the same decisions for the same seed and calls, and others for another seed", () => {
    const faults = plan({ errorRate: "0.3" });
    const first = outcomes(faults, 7, "@acme/qa", 40);
    expect(outcomes(faults, 7, "@acme/qa", 40)).toBe(first);
    expect(outcomes(faults, 8, "@acme/qa", 40)).not.toBe(first);
    expect(outcomes(faults, 7, "@globex/search", 40)).not.toBe(first);
    // Pinned, so a change to the PRNG or the draws is a reviewed diff: seeds in users' tests keep their meaning.
    expect(outcomes(faults, 1, "@acme/qa", 40)).toMatchInlineSnapshot(
      `".E.EE......EE..E..EEEE.E.E...EE..E.E..E."`,
    );
  });

  it("keeps each flow's sequence apart: calls to one flow do not move another's", () => {
    const faults = plan({ errorRate: "0.5" });
    const alone = outcomes(faults, 3, "@acme/qa", 20);
    const injector = createFaultInjector(faults, 3, FLOWS);
    const interleaved = Array.from({ length: 20 }, () => {
      injector.decide("@globex/search", undefined);
      return injector.decide("@acme/qa", undefined).error === undefined ? "." : "E";
    }).join("");
    expect(interleaved).toBe(alone);
  });

  it("leaves the errors where they were when the 429 rate changes, and never injects both at once", () => {
    const errorsOnly = outcomes(plan({ errorRate: "0.3" }), 5, "@acme/qa", 60);
    const both = outcomes(plan({ errorRate: "0.3", rateLimitRate: "0.2" }), 5, "@acme/qa", 60);
    expect(both).toContain("R");
    for (let i = 0; i < both.length; i++)
      if (both[i] !== "R") expect(both[i], `call ${i}`).toBe(errorsOnly[i]);
  });

  it("draws latency within the range, whole milliseconds, and reaches both ends", () => {
    const injector = createFaultInjector(plan({ latency: "10-12" }), 1, FLOWS);
    const seen = new Set(
      Array.from({ length: 200 }, () => injector.decide("@acme/qa", undefined).latencyMs),
    );
    expect([...seen].sort()).toEqual([10, 11, 12]);
  });

  it("hits about the configured share of calls", () => {
    const errors = [...outcomes(plan({ errorRate: "0.3" }), 1, "@acme/qa", 2000)].filter(
      (c) => c === "E",
    ).length;
    expect(errors).toBeGreaterThan(500);
    expect(errors).toBeLessThan(700);
  });

  it("refuses a plan that names a flow that does not exist", () => {
    expect(() => createFaultInjector(plan({ fault: ["@acme/qaa:error=1"] }), 1, FLOWS)).toThrow(
      new RangeError(
        "--fault names @acme/qaa, which is not a flow here; the flows are: @acme/qa, @globex/search",
      ),
    );
  });
});

describe("flowgen serve with faults, called over HTTP on 127.0.0.1", () => {
  it("adds the latency and still answers", async () => {
    const clock = manualDelay();
    const server = await serve({ faults: plan({ latency: "150" }), delay: clock.delay });
    try {
      expect(await postQa(server.url, { "x-flowgen-fault": "none" })).toMatchObject({
        status: 200,
      });
      expect(clock.waits).toEqual([]);
      let answered = false;
      const slow = postQa(server.url).finally(() => (answered = true));
      await until(() => clock.waits.length === 1);
      expect(clock.waits[0]?.ms).toBe(150);
      expect(answered).toBe(false);
      clock.release();
      expect(await slow).toMatchObject({ status: 200, body: { answer: "Paris" } });
    } finally {
      await server.close();
    }
  });

  it("answers every call with 503 and Retry-After at --error-rate 1, in the platform's error body", async () => {
    const server = await serve({ faults: plan({ errorRate: "1" }) });
    try {
      const qa = createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false });
      const error = await failureOf(qa.run(QUESTION));
      expect(error).toMatchObject({
        kind: "server",
        status: 503,
        code: "unavailable",
        retryAfterMs: 1000,
      });
      expect(error.message).toContain("injected by flowgen serve --error-rate 1");
      expect(error.requestId).toBe(error.headers?.get("x-request-id"));
    } finally {
      await server.close();
    }
  });

  it("answers 500 without Retry-After with --error-status 500", async () => {
    const server = await serve({ faults: plan({ errorRate: "1", errorStatus: "500" }) });
    try {
      const error = await failureOf(
        createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false }).run(QUESTION),
      );
      expect(error).toMatchObject({
        kind: "server",
        status: 500,
        code: "internal",
        retryAfterMs: undefined,
      });
      expect(error.headers?.get("retry-after")).toBeNull();
    } finally {
      await server.close();
    }
  });

  it("answers every call with 429 and Retry-After at --rate-limit-rate 1", async () => {
    const server = await serve({ faults: plan({ rateLimitRate: "1" }) });
    try {
      const error = await failureOf(
        createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false }).run(QUESTION),
      );
      expect(error).toMatchObject({
        kind: "rate_limited",
        status: 429,
        code: "rate_limited",
        retryAfterMs: 1000,
      });
      expect(error.message).toContain("injected by flowgen serve --rate-limit-rate 1");
      expect(error.headers?.get("ratelimit-remaining")).toBe("0");
    } finally {
      await server.close();
    }
  });

  it("lets auth, the real rate limit and the body checks answer first", async () => {
    const server = await serve({ faults: plan({ errorRate: "1" }), rate: 1, burst: 1 });
    try {
      const unknown = await failureOf(
        createQaClient({ apiKey: "k_not_a_real_key_000", baseUrl: server.url, retry: false }).run(
          QUESTION,
        ),
      );
      expect(unknown).toMatchObject({ status: 401 });
      const invalid = await failureOf(
        createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false }).run({ question: "" }),
      );
      expect(invalid).toMatchObject({ status: 400, code: "invalid_input" });
      const limited = await failureOf(
        createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false }).run(QUESTION),
      );
      expect(limited).toMatchObject({ status: 429 });
      expect(limited.message).not.toContain("injected");
    } finally {
      await server.close();
    }
  });

  it("applies --fault to that flow only", async () => {
    const server = await serve({ faults: plan({ fault: ["@acme/qa:error=1,status=500"] }) });
    try {
      const error = await failureOf(
        createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false }).run(QUESTION),
      );
      expect(error).toMatchObject({ status: 500, code: "internal" });
      expect(error.message).toContain("injected by flowgen serve --fault @acme/qa:error=1");
      const search = createGlobexSearchClient({ apiKey: KEY, baseUrl: server.url, retry: false });
      expect(await search.run({ text: "anything" })).toBeTypeOf("object");
    } finally {
      await server.close();
    }
  });

  it("lets one call set its faults with X-Flowgen-Fault, in place of the planned ones", async () => {
    const clock = manualDelay();
    const server = await serve({ faults: plan({ errorRate: "1" }), delay: clock.delay });
    try {
      const qa = createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false });
      const limited = await failureOf(qa.run(QUESTION, { headers: { "X-Flowgen-Fault": "429" } }));
      expect(limited).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 1000 });
      expect(limited.message).toContain("injected by the X-Flowgen-Fault header");

      const slow = postQa(server.url, { "x-flowgen-fault": "latency=100, error=500" });
      await until(() => clock.waits.length === 1);
      expect(clock.waits[0]?.ms).toBe(100);
      clock.release();
      expect(await slow).toMatchObject({ status: 500, body: { code: "internal" } });

      expect(await qa.run(QUESTION, { headers: { "X-Flowgen-Fault": "none" } })).toEqual({
        answer: "Paris",
      });

      const malformed = await postQa(server.url, { "x-flowgen-fault": "error=418" });
      expect(malformed).toMatchObject({ status: 400, body: { code: "bad_request" } });
      expect(malformed.body["message"]).toContain("X-Flowgen-Fault takes a comma-separated list");
    } finally {
      await server.close();
    }
  });

  it("ignores X-Flowgen-Fault with --no-dev-faults, as the platform would", async () => {
    const server = await serve({ faults: plan({ devFaults: false }) });
    try {
      for (const header of ["429", "error", "not even valid"]) {
        expect(await postQa(server.url, { "x-flowgen-fault": header })).toMatchObject({
          status: 200,
          body: { answer: "Paris" },
        });
      }
    } finally {
      await server.close();
    }
  });

  it("gives the same sequence of outcomes for the same seed, and another for another seed", async () => {
    const statuses = async (seed: number) => {
      const server = await serve({ seed, faults: plan({ errorRate: "0.3" }) });
      try {
        const seen: number[] = [];
        for (let i = 0; i < 40; i++) seen.push((await postQa(server.url)).status);
        return seen;
      } finally {
        await server.close();
      }
    };
    const [first, again, other] = await Promise.all([statuses(11), statuses(11), statuses(12)]);
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });
});

describe("flowgen serve fault flags", () => {
  it("exits 2 with the parser's message for a bad value", async () => {
    const err: string[] = [];
    const code = await main(["serve", "--port", "0", "--no-watch", "--error-rate", "2"], {
      io: { out: () => undefined, err: (line) => err.push(line) },
    });
    expect(code).toBe(2);
    expect(err).toEqual([
      'flowgen serve: --error-rate 2: give a share of calls from 0 to 1, e.g. 0.1 for one call in ten (got "2") [invalid-option] flowgen-cli/docs/errors.md#invalid-option',
    ]);
  });

  it("exits 2 when --fault names a flow that does not exist", async () => {
    const err: string[] = [];
    const code = await main(
      ["serve", "--port", "0", "--no-watch", "--fault", "@acme/nope:error=1"],
      { io: { out: () => undefined, err: (line) => err.push(line) } },
    );
    expect(code).toBe(2);
    expect(err[0]).toContain("--fault names @acme/nope, which is not a flow here");
  });

  // The command line as bin/flowgen.js runs it, in this process (test/system/processes.test.ts runs it as a process).
  describe("from the command line", () => {
    let url = "";
    let key = "";
    const accessLog: string[] = [];
    let stop: (signal: string) => void = () => undefined;
    let running: Promise<number>;
    beforeAll(async () => {
      const stopped = new Promise<string>((resolve) => (stop = resolve));
      const said: string[] = [];
      let ready: () => void = () => undefined;
      const started = new Promise<void>((resolve) => (ready = resolve));
      // No keys configured: the run makes a dev key (read as the server starts).
      vi.stubEnv("FLOWGEN_SERVE_KEYS", "");
      running = main(
        [
          "serve",
          "--port",
          "0",
          "--no-watch",
          "--latency",
          "20-40",
          "--error-rate",
          "1",
          "--error-status",
          "500",
          "--fault",
          "@acme/qa:error=0",
        ],
        {
          cwd: REPO_ROOT,
          io: {
            out: (line) => accessLog.push(line),
            err: (line) => {
              said.push(line);
              // Started once it prints its sample call (or gone, when it returns first).
              if (line.includes("curl")) ready();
            },
          },
          stopped: () => stopped,
        },
      );
      await Promise.race([started, running]).finally(() => vi.unstubAllEnvs());
      const stderr = said.join("\n");
      url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] ?? "";
      key = /dev key is (fg_dev_[0-9a-f]+)/.exec(stderr)?.[1] ?? "";
      expect(url, stderr).not.toBe("");
    });
    afterAll(async () => {
      stop("SIGTERM");
      expect(await running).toBe(0);
    });

    it("passes the flags to the server: global faults, overridden for one flow", async () => {
      const search = createGlobexSearchClient({ apiKey: key, baseUrl: url, retry: false });
      expect(await failureOf(search.run({ text: "x" }))).toMatchObject({
        status: 500,
        code: "internal",
      });
      expect(
        await createQaClient({ apiKey: key, baseUrl: url, retry: false }).run(QUESTION),
      ).toEqual({ answer: "Paris" });
      // The access log says what was injected: latency from --latency, no error for @acme/qa.
      await until(() => accessLog.some((line) => line.includes('"path":"/v1/@acme/qa"')));
      const entry = accessLog
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((logged) => logged["path"] === "/v1/@acme/qa");
      expect(entry).toMatchObject({ status: 200, fault: { latencyMs: expect.any(Number) } });
      const { latencyMs } = (entry as { fault: { latencyMs: number } }).fault;
      expect(latencyMs).toBeGreaterThanOrEqual(20);
      expect(latencyMs).toBeLessThanOrEqual(40);
    });
  });
});
