import { describe, expect, it } from "vitest";
import { keyRedactor, redactDeep, redactResponse } from "./redact.js";

const KEY = "sk_0123456789";
const redact = keyRedactor(KEY);
const hex = (text: string, upper = false) =>
  [...text]
    .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    .map((e) => (upper ? e.toUpperCase() : e))
    .join("");

describe("keyRedactor", () => {
  it("replaces each of several keys, a longer one whole where a shorter one starts it", () => {
    const several = keyRedactor([
      "tok_abc123",
      "tok_abc123_longer",
      "other_9f2e",
    ]);
    expect(
      several(
        `a tok_abc123_longer b TOK_ABC123 c ${hex("other_9f2e")} d ${btoa("u:other_9f2e")}`,
      ),
    ).toBe("a [redacted] b [redacted] c [redacted] d dTp[redacted]");
  });

  it("with no keys, changes nothing", () => {
    expect(keyRedactor([])("nothing at all, not even an empty match")).toBe(
      "nothing at all, not even an empty match",
    );
  });

  it.each([
    ["every occurrence", `a ${KEY} b ${KEY}`, KEY, "a [redacted] b [redacted]"],
    [
      "a key under 8 characters",
      "token Zq7x here",
      "Zq7x",
      "token [redacted] here",
    ],
    ["text without the key", "nothing to see", KEY, "nothing to see"],
    ["upper case", `x ${KEY.toUpperCase()} y`, KEY, "x [redacted] y"],
    [
      "lower case, in a host name",
      "https://sk_live_abc.example",
      "Sk_Live_ABC",
      "https://[redacted].example",
    ],
    ["percent-encoded, lower-case hex", `k=${hex(KEY)}`, KEY, "k=[redacted]"],
    [
      "percent-encoded, upper-case hex",
      `k=${hex(KEY, true)}`,
      KEY,
      "k=[redacted]",
    ],
    [
      "percent-encoded twice",
      `k=${hex(KEY).replaceAll("%", "%25")}`,
      KEY,
      "k=[redacted]",
    ],
    [
      "partly encoded, mixed case",
      "k=sK%5f01%32345678%39&",
      KEY,
      "k=[redacted]&",
    ],
    [
      "a + read as a space by a form decoder",
      "q=ab cd/ef gh",
      "ab+cd/ef+gh",
      "q=[redacted]",
    ],
    [
      "a + encoded as %2B, a / as %2f",
      "q=ab%2Bcd%2fef%2bgh",
      "ab+cd/ef+gh",
      "q=[redacted]",
    ],
    [
      "a space encoded as %20 for a +",
      "q=ab%20cd/ef+gh",
      "ab+cd/ef+gh",
      "q=[redacted]",
    ],
    [
      "base64, as in a Basic header",
      `Basic ${btoa(`user:${KEY}`)}`,
      KEY,
      "Basic dXNlcjp[redacted]",
    ],
    [
      "base64 at each offset",
      [KEY, `x${KEY}`, `xy${KEY}`].map((t) => btoa(t)).join(" "),
      KEY,
      /^\S{0,4}\[redacted\]\S{0,4} \S{0,4}\[redacted\]\S{0,4} \S{0,4}\[redacted\]\S{0,4}$/,
    ],
    [
      "URL-safe base64, lower-cased",
      btoa("?>~~~~~~~~~")
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .toLowerCase(),
      "~~~~~~~~",
      /^\S{0,4}\[redacted\]\S{0,4}$/,
    ],
    [
      "full-width letters (NFKC)",
      "ｓｋ_０１２３４５６７８９",
      KEY,
      "[redacted]",
    ],
    [
      "right after a % whose escape would swallow its start",
      "x%41abcdefgh",
      "41abcdefgh",
      "x%[redacted]",
    ],
    ["encoded, right after a lone %", `%${hex(KEY)}`, KEY, "%[redacted]"],
    [
      "each byte percent-encoded, then each byte of that",
      `k=${hex(hex(KEY))}`,
      KEY,
      "k=[redacted]",
    ],
    [
      "in a JSON pointer",
      "/body/sk~10~0123456",
      "sk/0~123456",
      "/body/[redacted]",
    ],
    [
      "as JSON unicode escapes",
      [...KEY]
        .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
        .join(""),
      KEY,
      "[redacted]",
    ],
    ["as character references", "&#115;&#x6b;_0123456789", KEY, "[redacted]"],
    [
      "overlapping forms, masked once",
      `${KEY}${hex(KEY)}`,
      KEY,
      "[redacted][redacted]",
    ],
    [
      "regular expression characters in the key",
      "a.b*c+d?e(f)g[h]i{j}k|l^m$n\\o",
      "a.b*c+d?e(f)g[h]i{j}k|l^m$n\\o",
      "[redacted]",
    ],
    [
      "a lone surrogate and astral letters",
      "\ud800 𝐬𝐤_0123456789",
      KEY,
      "\ud800 [redacted]",
    ],
  ])("%s", (_name, text, secret, want) => {
    const got = keyRedactor(secret)(text);
    if (typeof want === "string") expect(got).toBe(want);
    else expect(got).toMatch(want);
  });

  it("reads each character once, however deep its escapes nest", () => {
    // 200,000 levels of "%25" around one escape: decoded round after round, this text would be
    // read 200,000 times.
    const nested = `%${"25".repeat(200_000)}73k_0123456789`;
    expect(redact(nested)).toBe("[redacted]");
    // Each "&#x26;" is an "&"; only the last one starts a reference, "&#115;".
    expect(redact(`${"&#x26;".repeat(50_000)}#115;k_0123456789`)).toBe(
      `${"&#x26;".repeat(49_999)}[redacted]`,
    );
  });

  it("finds nothing in escapes that decode to other text", () => {
    expect(redact("%7B%22a%22%3A1%7D and %zz and 100%")).toBe(
      "%7B%22a%22%3A1%7D and %zz and 100%",
    );
  });
});

describe("redactDeep", () => {
  it("replaces the key in strings and property names, at any depth, and leaves other values alone", () => {
    const value = { [KEY]: [KEY, 1, null, { nested: `x${KEY}` }], flag: true };
    expect(redactDeep(value, redact)).toEqual({
      "[redacted]": ["[redacted]", 1, null, { nested: "x[redacted]" }],
      flag: true,
    });
  });

  it("returns what holds no key as it is, errors included", () => {
    const value = {
      a: [1, "two"],
      error: new DOMException("gone", "AbortError"),
    };
    expect(redactDeep(value, redact)).toBe(value);
  });

  it("copies an error chain that holds the key into plain errors with the same names and fields", () => {
    const inner = Object.assign(new Error(`no ${KEY.toUpperCase()}`), {
      code: "ENOTFOUND",
    });
    const error = new TypeError("fetch failed", {
      cause: new AggregateError([inner], "all failed"),
    });
    const copy = redactDeep(error, redact) as Error & { cause: AggregateError };
    expect(copy).not.toBe(error);
    expect(copy).toMatchObject({ name: "TypeError", message: "fetch failed" });
    expect(copy.cause).toMatchObject({
      name: "AggregateError",
      message: "all failed",
    });
    const [first] = copy.cause.errors as Error[];
    expect(first).toMatchObject({
      message: "no [redacted]",
      code: "ENOTFOUND",
    });
    expect(first?.stack).not.toContain(KEY.toUpperCase());
  });

  it("masks a cycle and what lies too deep, and visits a shared value once", () => {
    const cycle: Record<string, unknown> = { text: KEY };
    cycle.self = cycle;
    expect(redactDeep(cycle, redact)).toEqual({
      text: "[redacted]",
      self: "[redacted]",
    });
    let deep: unknown = KEY;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(JSON.stringify(redactDeep(deep, redact))).not.toContain(KEY);
    let shared: unknown = "x";
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    expect(redactDeep(shared, redact)).toBe(shared);
  });
});

describe("redactResponse", () => {
  it("returns a clean response as it is", () => {
    const response = new Response("{}", {
      status: 401,
      headers: { "x-request-id": "r-1" },
    });
    expect(redactResponse(response, redact)).toBe(response);
  });

  it("copies a response whose URL, headers or status text hold the key, without it or a Location", () => {
    const response = new Response(null, {
      status: 302,
      statusText: `bad ${KEY.toUpperCase()}`,
      headers: {
        "x-echo": `Bearer ${hex(KEY)}`,
        [`x-${KEY}`]: "1",
        location: "https://other.example/",
        "x-keep": "yes",
      },
    });
    Object.defineProperty(response, "url", {
      value: `https://api.example/${KEY}`,
    });
    const safe = redactResponse(response, redact);
    expect(safe).not.toBe(response);
    expect(safe.status).toBe(302);
    expect(safe.statusText).toBe("bad [redacted]");
    expect(safe.url).toBe("https://api.example/[redacted]");
    const kept: [string, string][] = [];
    safe.headers.forEach((value, name) => kept.push([name, value]));
    expect(kept).toEqual([
      ["x-echo", "Bearer [redacted]"],
      ["x-keep", "yes"],
    ]);
  });

  it("copies a status-0 response (a browser's opaque answer) whose URL holds the key", () => {
    const response = Response.error();
    Object.defineProperty(response, "url", {
      value: `https://api.example/${KEY}`,
    });
    expect(redactResponse(response, redact).url).toBe(
      "https://api.example/[redacted]",
    );
  });
});
