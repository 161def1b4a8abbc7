import { afterEach, describe, expect, it, vi } from "vitest";
import { checkApiKey, checkBaseUrl, env } from "./config.js";

describe("checkApiKey", () => {
  it.each([
    ["a key", "sk_123", undefined],
    ["a short key", "k", undefined],
    [
      "nothing",
      undefined,
      "pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
    ],
    [
      "a blank string",
      "  ",
      "pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
    ],
    [
      "a line break",
      "abc\ndef",
      "pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters",
    ],
  ])("%s", (_name, given, problem) => {
    if (problem === undefined) expect(checkApiKey("@t/f", given)).toBe(given);
    else
      expect(() => checkApiKey("@t/f", given)).toThrow(
        new TypeError(`@t/f: ${problem}`),
      );
  });
});

describe("checkBaseUrl", () => {
  it.each([
    [
      "https, trailing slashes dropped",
      "https://api.example.com//",
      false,
      "https://api.example.com",
    ],
    [
      "a path prefix",
      "https://example.com/api/",
      false,
      "https://example.com/api",
    ],
    [
      "http to loopback",
      "http://127.0.0.1:8787",
      false,
      "http://127.0.0.1:8787",
    ],
    ["http elsewhere when allowed", "http://10.0.0.1", true, "http://10.0.0.1"],
  ])("accepts %s", (_name, given, allowHttp, want) => {
    expect(checkBaseUrl("@t/f", given, allowHttp)).toBe(want);
  });
  it.each([
    ["nothing", undefined, /got undefined$/],
    [
      "a relative URL",
      "/api",
      /pass \{ baseUrl \} or set FLOW_BASE_URL: an https:\/\/ URL without query or credentials/,
    ],
    [
      "a query",
      "https://a.example/?x=1",
      /pass \{ baseUrl \} or set FLOW_BASE_URL: an https:\/\/ URL without query or credentials/,
    ],
    [
      "credentials",
      "https://u:p@a.example",
      /pass \{ baseUrl \} or set FLOW_BASE_URL: an https:\/\/ URL without query or credentials/,
    ],
    [
      "http elsewhere",
      "http://10.0.0.1",
      /unless \{ allowInsecureHttp: true \}\); got "http:\/\/10\.0\.0\.1"$/,
    ],
  ])("refuses %s", (_name, given, want) => {
    expect(() => checkBaseUrl("@t/f", given)).toThrow(want);
  });
});

describe("env", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });
  it("reads the environment, treats empty as unset, and never reads it in a browser", () => {
    vi.stubEnv("FLOW_BASE_URL", "https://api.example.com");
    vi.stubEnv("FLOW_API_KEY", "");
    expect(env("FLOW_BASE_URL")).toBe("https://api.example.com");
    expect(env("FLOW_API_KEY")).toBeUndefined();
    vi.stubGlobal("document", {});
    expect(env("FLOW_BASE_URL")).toBeUndefined();
  });
});
