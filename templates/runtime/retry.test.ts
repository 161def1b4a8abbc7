import { describe, expect, it, vi } from "vitest";
import { FlowError, type FlowFailure, type FlowErrorKind } from "./errors.js";
import {
  backoffDelay,
  retryable,
  retryAfter,
  retryPolicy,
  sleep,
} from "./retry.js";

const failure = (kind: FlowErrorKind, status: number, cause?: unknown) =>
  new FlowError({
    kind,
    flowId: "@t/f",
    code: "c",
    message: "m",
    status,
    cause,
  }) as FlowFailure;
const refused = new TypeError("fetch failed", {
  cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
});
const reset = new TypeError("fetch failed", {
  cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }),
});

describe("retryPolicy", () => {
  it.each([
    [
      "defaults",
      undefined,
      { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 30_000 },
    ],
    [
      "off",
      false as const,
      { maxRetries: 0, baseDelayMs: 500, maxDelayMs: 30_000 },
    ],
    [
      "partial",
      { maxRetries: 5 },
      { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30_000 },
    ],
  ])("%s", (_name, given, want) => {
    expect(retryPolicy(given)).toEqual(want);
  });
});

describe("retryable", () => {
  it.each([
    ["429, never ran", failure("rate_limited", 429), false, true],
    ["503, never ran", failure("server", 503), false, true],
    ["a refused connection", failure("connection", 0, refused), false, true],
    ["500, may have run", failure("server", 500), false, false],
    ["500, idempotent", failure("server", 500), true, true],
    ["a redirect, idempotent", failure("redirected", 307), true, false],
    [
      "a 503 reached through a redirect, idempotent",
      failure("redirected", 503),
      true,
      false,
    ],
    ["a reset connection", failure("connection", 0, reset), false, false],
    [
      "a reset connection, idempotent",
      failure("connection", 0, reset),
      true,
      true,
    ],
    ["400, never worth it", failure("invalid_input", 400), true, false],
    ["a timeout", failure("timeout", 0), true, false],
  ])("%s", (_name, error, idempotent, want) => {
    expect(retryable(error, idempotent)).toBe(want);
  });
});

describe("backoffDelay", () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
  it("jitters below the doubled step, capped at maxDelayMs", () => {
    for (let i = 0; i < 50; i++) {
      expect(backoffDelay(policy, 1, undefined)).toBeLessThan(100);
      expect(backoffDelay(policy, 3, undefined)).toBeLessThan(400);
      expect(backoffDelay(policy, 10, undefined)).toBeLessThan(1000);
    }
  });
  it("waits at least what the server asked, and gives up when it asks for too long", () => {
    expect(backoffDelay(policy, 1, 700)).toBeGreaterThanOrEqual(700);
    expect(backoffDelay(policy, 1, 1001)).toBeUndefined();
  });
});

describe("retryAfter", () => {
  it.each([
    ["seconds", { "retry-after": "3" }, 503, 3000],
    ["zero", { "retry-after": "0" }, 429, 0],
    ["garbage", { "retry-after": "soon" }, 429, undefined],
    ["a past date", { "retry-after": new Date(0).toUTCString() }, 429, 0],
    ["nothing", {}, 429, undefined],
    [
      "a fraction, which is no Retry-After",
      { "retry-after": "1.5" },
      503,
      undefined,
    ],
    ["a reset without 429", { "ratelimit-reset": "30" }, 503, undefined],
  ])("%s", (_name, headers, status, want) => {
    expect(retryAfter(new Headers(headers), status)).toBe(want);
  });
  it.each([
    ["there is no Retry-After", {}],
    ["Retry-After is not one", { "retry-after": "1.5" }],
  ])("reads the rate-limit reset on 429 when %s", (_name, headers) => {
    // A clock that stands still: the reset is read, then waited from, at the same instant.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 1) });
    try {
      const ms = retryAfter(
        new Headers({ ...headers, "ratelimit-reset": "30" }),
        429,
      );
      expect(ms).toBe(30_000);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("sleep", () => {
  it("resolves true after the wait, false at once when aborted", async () => {
    vi.useFakeTimers();
    try {
      const done = sleep(1000, new AbortController().signal);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await done).toBe(true);
      const controller = new AbortController();
      const stopped = sleep(10_000, controller.signal);
      controller.abort();
      expect(await stopped).toBe(false);
      // Its timer is gone too: nothing is left to keep a process alive.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
