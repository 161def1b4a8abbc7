import { describe, expect, it } from "vitest";
import {
  describeHttpError,
  FlowError,
  isFlowError,
  kindOf,
  toErrorBody,
} from "./errors.js";

describe("kindOf", () => {
  it.each([
    [401, "auth"],
    [403, "auth"],
    [404, "not_found"],
    [400, "invalid_input"],
    [422, "invalid_input"],
    [429, "rate_limited"],
    [500, "server"],
    [503, "server"],
    [409, "http"],
  ])("%i is %s", (status, want) => {
    expect(kindOf(status)).toBe(want);
  });
});

describe("toErrorBody", () => {
  it.each([
    [
      "the platform's body",
      { code: "c", message: "m", requestId: "r" },
      { code: "c", message: "m", requestId: "r" },
    ],
    [
      "extra fields kept, bad details dropped",
      {
        code: "c",
        message: "m",
        hint: 1,
        details: [{ pointer: "", message: "x" }, { nope: 1 }],
      },
      {
        code: "c",
        message: "m",
        hint: 1,
        details: [{ pointer: "", message: "x" }],
      },
    ],
    [
      "a non-string request id dropped",
      { code: "c", message: "m", requestId: 7 },
      { code: "c", message: "m" },
    ],
    ["another shape", { error: "boom" }, undefined],
    ["text", "<html>", undefined],
  ])("%s", (_name, given, want) => {
    expect(toErrorBody(given)).toEqual(want);
  });
});

describe("describeHttpError", () => {
  const response = new Response(null, {
    status: 502,
    statusText: "Bad Gateway",
  });
  it.each([
    [
      "a platform body with details",
      {
        code: "c",
        message: "Nope",
        details: [{ pointer: "/a", message: "bad" }],
      },
      "r-1",
      "Nope [HTTP 502 c] (request id r-1)\n  /a: bad",
    ],
    [
      "text",
      "<html>down</html>",
      undefined,
      'HTTP 502 Bad Gateway without a JSON error body: "<html>down</html>"',
    ],
    [
      "nothing",
      undefined,
      undefined,
      "HTTP 502 Bad Gateway without a JSON error body",
    ],
    [
      "JSON of another shape",
      { code: 42, message: "x" },
      undefined,
      'HTTP 502 Bad Gateway with JSON that is not the error body ({ code, message }): "{\\"code\\":42,\\"message\\":\\"x\\"}"',
    ],
    [
      "a message as long as a page, cut short",
      { code: "c", message: "m".repeat(5000) },
      undefined,
      `${"m".repeat(1000)}… [HTTP 502 c]`,
    ],
  ])("%s", (_name, raw, requestId, want) => {
    expect(describeHttpError(response, raw, toErrorBody(raw), requestId)).toBe(
      want,
    );
  });
});

describe("FlowError", () => {
  it("is named, branded across copies, and serialises only log-safe fields", () => {
    const error = new FlowError({
      kind: "server",
      flowId: "@t/f",
      code: "http_500",
      message: "m",
      status: 500,
      response: new Response(null, { status: 500 }),
      cause: new Error("inner"),
    });
    expect(error.name).toBe("FlowError");
    expect(isFlowError(error)).toBe(true);
    expect(isFlowError(new Error("m"))).toBe(false);
    expect(isFlowError({ [Symbol.for("flowgen.FlowError")]: true })).toBe(true);
    expect(error.headers).toBe(error.response?.headers);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      kind: "server",
      flowId: "@t/f",
      status: 500,
      code: "http_500",
      message: "m",
      details: [],
      attempts: 1,
    });
  });
});
