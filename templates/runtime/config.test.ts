import { afterEach, describe, expect, it, vi } from "vitest";
import { checkApiKey } from "./auth.js";
import { checkBaseUrl, checkFlowPath, env } from "./config.js";
import { keyRedactor } from "./redact.js";

const KEY = "sk_live_Q7wE9rT2yU4iO6pA";
const redact = keyRedactor(KEY);

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

describe("checkBaseUrl in a page", () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ["a path, on the page's origin", "/api/", "http://localhost:5173/api"],
    ["the origin's root", "/", "http://localhost:5173"],
  ])("accepts %s", (_name, given, want) => {
    vi.stubGlobal("location", { origin: "http://localhost:5173" });
    expect(checkBaseUrl("@t/f", given, false, redact)).toBe(want);
  });

  it.each([
    ["a path that names another host", "//evil.example/api"],
    ["a path that a URL parser reads as another host", "/\\evil.example/api"],
    ["a path with a query", "/api?x=1"],
    [
      "a path on a page served over http elsewhere",
      "/api",
      "http://intranet.example",
    ],
  ])("refuses %s", (_name, given, origin = "http://localhost:5173") => {
    vi.stubGlobal("location", { origin });
    expect(() => checkBaseUrl("@t/f", given, false, redact)).toThrow(TypeError);
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
    expect(checkBaseUrl("@t/f", given, allowHttp, redact)).toBe(want);
  });
  it.each([
    ["nothing", undefined, /got undefined$/],
    [
      "a relative URL",
      "/api",
      /pass \{ baseUrl \} or set FLOW_BASE_URL: an https:\/\/ URL without query, credentials or API key/,
    ],
    [
      "a query",
      "https://a.example/?x=1",
      /pass \{ baseUrl \} or set FLOW_BASE_URL: an https:\/\/ URL without query, credentials or API key/,
    ],
    [
      "credentials, quoted without them",
      "https://u:p4ssw0rd@a.example/x",
      /without query, credentials or API key.*; got "https:\/\/a\.example\/x" \(credentials left out\)$/,
    ],
    ["the API key (options swapped), not quoted", KEY, /; got "\[redacted\]"$/],
    [
      "the API key in the path, in any letter case",
      `https://api.example.com/${KEY.toLowerCase()}`,
      /without query, credentials or API key.*; got "https:\/\/api\.example\.com\/\[redacted\]"$/,
    ],
    [
      "the API key as a user name",
      `https://${KEY}@api.example.com`,
      /; got "https:\/\/api\.example\.com\/" \(credentials left out\)$/,
    ],
    [
      "http elsewhere",
      "http://10.0.0.1",
      /unless \{ allowInsecureHttp: true \}\); got "http:\/\/10\.0\.0\.1"$/,
    ],
  ])("refuses %s", (_name, given, want) => {
    expect(() => checkBaseUrl("@t/f", given, false, redact)).toThrow(want);
    expect(() => checkBaseUrl("@t/f", given, false, redact)).not.toThrow(
      /p4ssw0rd|Q7wE9rT2/i,
    );
  });
});

describe("checkFlowPath", () => {
  it("accepts the platform's route", () => {
    expect(checkFlowPath("@acme/qa", "/v1/@acme/qa", redact)).toBe(
      "/v1/@acme/qa",
    );
  });
  it.each([
    ["another host after the base URL", "@other.example/v1/@acme/qa"],
    ["a path leaving /v1/", "/v1/../admin"],
    ["an encoded dot segment", "/v1/%2e%2e/admin"],
    ["a second slash", "//other.example/v1/@acme/qa"],
    ["a query", "/v1/@acme/qa?x=1"],
    ["a backslash", "/v1/@acme\\qa"],
    ["upper case", "/v1/@Acme/qa"],
    ["no path", undefined],
  ])("refuses %s", (_name, path) => {
    expect(() => checkFlowPath("@acme/qa", path, redact)).toThrow(
      new TypeError(
        `@acme/qa: the flow's path must be "/v1/@<org>/<flow-name>", as flowgen generates it; got ${path === undefined ? "undefined" : JSON.stringify(path)}`,
      ),
    );
  });
  it("does not quote the API key", () => {
    expect(() => checkFlowPath("@acme/qa", `/v1/@acme/${KEY}`, redact)).toThrow(
      /got "\/v1\/@acme\/\[redacted\]"$/,
    );
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
