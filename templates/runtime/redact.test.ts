import { describe, expect, it } from "vitest";
import { redact, redactDeep, redactResponse } from "./redact.js";

const KEY = "sk_0123456789";

describe("redact", () => {
  it.each([
    ["every occurrence", `a ${KEY} b ${KEY}`, KEY, "a [redacted] b [redacted]"],
    [
      "a key under 8 characters",
      "token Zq7x here",
      "Zq7x",
      "token [redacted] here",
    ],
    ["text without the key", "nothing to see", KEY, "nothing to see"],
  ])("%s", (_name, text, secret, want) => {
    expect(redact(text, secret)).toBe(want);
  });
});

describe("redactDeep", () => {
  it("replaces the key in strings and property names, at any depth, and leaves other values alone", () => {
    const value = { [KEY]: [KEY, 1, null, { nested: `x${KEY}` }], flag: true };
    expect(redactDeep(value, KEY)).toEqual({
      "[redacted]": ["[redacted]", 1, null, { nested: "x[redacted]" }],
      flag: true,
    });
  });
});

describe("redactResponse", () => {
  it("returns a clean response as it is", () => {
    const response = new Response("{}", {
      status: 401,
      headers: { "x-request-id": "r-1" },
    });
    expect(redactResponse(response, KEY)).toBe(response);
  });

  it("copies a response whose headers or status text hold the key, without it", () => {
    const response = new Response(null, {
      status: 401,
      statusText: `bad ${KEY}`,
      headers: {
        "x-echo": `Bearer ${KEY}`,
        [`x-${KEY}`]: "1",
        "x-keep": "yes",
      },
    });
    const safe = redactResponse(response, KEY);
    expect(safe).not.toBe(response);
    expect(safe.status).toBe(401);
    expect(safe.statusText).toBe("bad [redacted]");
    const kept: [string, string][] = [];
    safe.headers.forEach((value, name) => kept.push([name, value]));
    expect(kept).toEqual([
      ["x-echo", "Bearer [redacted]"],
      ["x-keep", "yes"],
    ]);
  });
});
