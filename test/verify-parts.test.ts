import { describe, expect, it } from "vitest";
import { verify } from "../src/api/verify.js";
import { createAjv } from "../src/spec/ajv.js";
import { show } from "../src/verify/check-answer.js";
import { deriveNegativeInputs } from "../src/verify/negative-inputs.js";
import { retryAfterMs } from "../src/verify/platform-pace.js";
import { createRedactor } from "../src/verify/redact-key.js";
import { selectFlows } from "../src/verify/select-flows.js";
import { measureTimings, type CaseResult } from "../src/verify/verify-report.js";
import { tempProject } from "./helpers/temp-dir.js";

describe("createRedactor", () => {
  const redact = createRedactor('sk_Ab/9+"&<');
  const cases: [string, { given: string; want: string }][] = [
    ["as sent", { given: 'key sk_Ab/9+"&< end', want: "key [redacted] end" }],
    ["another letter case", { given: 'SK_AB/9+"&<', want: "[redacted]" }],
    ["percent-encoded, lower-case hex", { given: "sk_Ab%2f9%2b%22%26%3c", want: "[redacted]" }],
    ["encoded in part", { given: 'sk%5FAb/9%2B"&<', want: "[redacted]" }],
    ["escaped in JSON", { given: 'sk_Ab\\/9+\\"&<', want: "[redacted]" }],
    ["escaped in XML", { given: "sk_Ab/9+&quot;&amp;&lt;", want: "[redacted]" }],
    ["not the key", { given: 'sk_Ab/9+"&', want: 'sk_Ab/9+"&' }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => expect(redact(given)).toBe(want));
});

describe("retryAfterMs", () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const cases: [
    string,
    { headers: Record<string, string>; status: number; want: number | undefined },
  ][] = [
    ["seconds", { headers: { "retry-after": "2" }, status: 503, want: 2000 }],
    [
      "an HTTP date",
      { headers: { "retry-after": "Thu, 01 Jan 2026 12:00:05 GMT" }, status: 429, want: 5000 },
    ],
    ["RateLimit-Reset on 429", { headers: { "ratelimit-reset": "3" }, status: 429, want: 3000 }],
    [
      "X-RateLimit-Reset in epoch seconds",
      { headers: { "x-ratelimit-reset": String(now / 1000 + 7) }, status: 429, want: 7000 },
    ],
    ["not the reset on 503", { headers: { "ratelimit-reset": "3" }, status: 503, want: undefined }],
    ["nothing", { headers: {}, status: 429, want: undefined }],
    [
      "a fraction, which is no Retry-After: the reset instead",
      { headers: { "retry-after": "1.5", "ratelimit-reset": "3" }, status: 429, want: 3000 },
    ],
  ];
  it.each(cases)("%s", (_name, { headers, status, want }) =>
    expect(retryAfterMs(new Headers(headers), status, now)).toBe(want),
  );
});

describe("selectFlows", () => {
  const ids = ["@acme/qa", "@acme/search", "@globex/search"];
  const cases: [string, { given: string[]; want: string[] }][] = [
    ["everything by default", { given: [], want: ids }],
    ["an id", { given: ["@acme/qa"], want: ["@acme/qa"] }],
    ["an org's flows", { given: ["@acme/*"], want: ["@acme/qa", "@acme/search"] }],
    ["a name in every org", { given: ["@*/search"], want: ["@acme/search", "@globex/search"] }],
    ["stars inside a name", { given: ["@*/s*ar*h"], want: ["@acme/search", "@globex/search"] }],
    ["a star stays within its segment", { given: ["@acme*"], want: [] }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const selected = selectFlows(ids, given);
    expect(selected.ok ? selected.ids : []).toEqual(want);
  });
});

describe("deriveNegativeInputs", () => {
  it("breaks the schema one named way at a time, each input invalid, the same every run", () => {
    const document = {
      $ref: "#/$defs/In",
      $defs: {
        In: {
          type: "object",
          required: ["query", "page"],
          additionalProperties: false,
          properties: {
            query: { type: "string", maxLength: 5 },
            page: { $ref: "#/$defs/Page" },
            pick: { oneOf: [{ type: "string" }, { type: "integer" }] },
          },
        },
        Page: {
          type: "object",
          properties: {
            size: { type: "integer", minimum: 1, maximum: 100 },
            at: { format: "date-time" },
          },
        },
      },
    };
    const validate = createAjv().compile(document);
    const isValid = (value: unknown) => validate(value);
    const base = { query: "tea", page: { size: 10, at: "2026-01-01T00:00:00Z" }, pick: "a" };
    const derived = deriveNegativeInputs(document, base, isValid);
    expect(derived).toEqual([
      { name: "/query missing (required)", input: { page: base.page, pick: "a" } },
      { name: '/query as 12345 (type: "string")', input: { ...base, query: 12345 } },
      { name: '/query as "xxxxxx" (maxLength: 5)', input: { ...base, query: "xxxxxx" } },
      {
        name: "/flowgenUnexpectedProperty added (additionalProperties: false)",
        input: { ...base, flowgenUnexpectedProperty: "flowgen" },
      },
      { name: "body [] (an array, not an object)", input: [] },
    ]);
    for (const { input } of derived) expect(isValid(input)).toBe(false);
    expect(deriveNegativeInputs(document, base, isValid)).toEqual(derived);
    // With the root's own breaks taken as valid, the walk goes on into /page, through its $ref.
    const nested = deriveNegativeInputs(
      document,
      base,
      (value) => isValid(value) || (value as { query?: unknown }).query !== "tea",
    ).map((one) => one.name);
    expect(nested).toEqual([
      "/page missing (required)",
      '/page as 12345 (type: "object")',
      "/page/size as 0 (minimum: 1)",
      "/flowgenUnexpectedProperty added (additionalProperties: false)",
    ]);
  });
});

describe("verify --dry-run", () => {
  it("notes the generated inputs it could not make, and sends nothing without them", async () => {
    const cwd = await tempProject({
      "specs/@acme/odd.json": {
        input: {
          type: "object",
          required: ["a"],
          properties: { a: { type: "string", pattern: "^x$", not: { const: "x" } } },
        },
        output: { type: "object" },
      },
    });
    const result = await verify({
      cwd,
      config: false,
      baseUrl: "https://api.example.com",
      generate: 2,
      seed: 1,
      dryRun: true,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.report.flows[0]?.notes).toEqual([
      "generated 1, 2: no value json-schema-faker drew was valid against the input schema, so they were not sent; add examples to the spec instead",
    ]);
    expect(result.report.flows[0]?.cases.map((c) => c.name)).toEqual(["no key"]);
  });
});

describe("report parts", () => {
  it("measures p50 and p95 by nearest rank over answered cases", () => {
    const durations = [5, 1, 4, 2, 3, 100, undefined];
    const cases = durations.map((durationMs) => ({ durationMs }) as CaseResult);
    expect(measureTimings(cases)).toEqual({ p50Ms: 3, p95Ms: 100 });
    expect(measureTimings([])).toBeUndefined();
  });

  it("shows bodies without the control characters a terminal would act on", () => {
    expect(show("ok\u001b[2J\r\ndone")).toBe("ok\\u001b[2J\\u000d\\u000adone");
  });
});
