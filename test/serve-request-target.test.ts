import { describe, expect, it } from "vitest";
import { findDepthOrNumberProblem } from "../src/serve/json-body.js";
import { requestPath } from "../src/serve/request-target.js";

describe("requestPath", () => {
  const cases: [string, { given: string; want: string | undefined }][] = [
    ["origin form", { given: "/v1/@acme/qa", want: "/v1/@acme/qa" }],
    ["query cut off", { given: "/v1/@acme/qa?api_key=x&y=1", want: "/v1/@acme/qa" }],
    ["empty query", { given: "/v1/@acme/qa?", want: "/v1/@acme/qa" }],
    ["percent-escapes kept", { given: "/v%31/@acme/qa", want: "/v%31/@acme/qa" }],
    ["dot segments kept", { given: "/v1/@acme/../@acme/qa", want: "/v1/@acme/../@acme/qa" }],
    ["a fragment is part of the path", { given: "/v1/@acme/qa#x", want: "/v1/@acme/qa#x" }],
    ["absolute form", { given: "http://x/v1/@acme/qa", want: "/v1/@acme/qa" }],
    [
      "absolute form with port and query",
      { given: "HTTPS://127.0.0.1:8787/v1/@acme/qa?k=1", want: "/v1/@acme/qa" },
    ],
    ["absolute form, no path", { given: "http://x", want: undefined }],
    ["absolute form, query only", { given: "http://x?/v1/@acme/qa", want: undefined }],
    ["network-path reference is a path", { given: "//x/v1/@acme/qa", want: "//x/v1/@acme/qa" }],
    ["asterisk form", { given: "*", want: undefined }],
    ["authority form", { given: "127.0.0.1:443", want: undefined }],
    ["relative", { given: "v1/@acme/qa", want: undefined }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(requestPath(given)).toBe(want);
  });
});

describe("findDepthOrNumberProblem", () => {
  const cases: [
    string,
    { given: unknown; maxDepth: number; want: { pointer: string; message: RegExp } | undefined },
  ][] = [
    ["flat object", { given: { a: 1, b: "x" }, maxDepth: 1, want: undefined }],
    ["at the limit", { given: { a: [{ b: 1 }] }, maxDepth: 3, want: undefined }],
    [
      "past the limit",
      {
        given: { a: [{ b: [] }] },
        maxDepth: 3,
        want: { pointer: "/a/0/b", message: /deeper than 3 levels/ },
      },
    ],
    [
      "Infinity",
      {
        given: { a: [1, Number.POSITIVE_INFINITY] },
        maxDepth: 64,
        want: { pointer: "/a/1", message: /must be finite/ },
      },
    ],
    [
      "-Infinity at the root of a key with / and ~",
      {
        given: { "a/b~": Number.NEGATIVE_INFINITY },
        maxDepth: 64,
        want: { pointer: "/a~1b~0", message: /must be finite/ },
      },
    ],
    ["a scalar body", { given: 3, maxDepth: 1, want: undefined }],
  ];
  it.each(cases)("%s", (_name, { given, maxDepth, want }) => {
    const problem = findDepthOrNumberProblem(given, maxDepth);
    if (want === undefined) return expect(problem).toBeUndefined();
    expect(problem?.pointer).toBe(want.pointer);
    expect(problem?.message).toMatch(want.message);
  });
});
