import { describe, expect, it } from "vitest";
import { createRateLimiter, type RateLimitOptions } from "../src/serve/rate-limit.js";

/** A clock the test moves by hand, in ms. */
function fakeClock(start = 1_000) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

describe("createRateLimiter", () => {
  it("allows a burst, then refuses with Retry-After and reset figures", () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, burst: 3 }, clock.now);
    expect([1, 2, 3].map(() => limiter.take("ci"))).toEqual([
      { allowed: true, limit: 3, remaining: 2, resetSeconds: 1, retryAfterSeconds: 0 },
      { allowed: true, limit: 3, remaining: 1, resetSeconds: 2, retryAfterSeconds: 0 },
      { allowed: true, limit: 3, remaining: 0, resetSeconds: 3, retryAfterSeconds: 0 },
    ]);
    expect(limiter.take("ci")).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 3,
      retryAfterSeconds: 1,
    });
  });

  it("rounds waits up to whole seconds, never below 1 when refused", () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 0.25, burst: 2 }, clock.now);
    limiter.take("k");
    limiter.take("k");
    // Empty: a token takes 4 s, a full bucket 8 s.
    expect(limiter.take("k")).toMatchObject({
      allowed: false,
      remaining: 0,
      resetSeconds: 8,
      retryAfterSeconds: 4,
    });
    clock.advance(1_500);
    expect(limiter.take("k")).toMatchObject({
      allowed: false,
      resetSeconds: 7,
      retryAfterSeconds: 3,
    });
    clock.advance(2_499);
    expect(limiter.take("k")).toMatchObject({
      allowed: false,
      resetSeconds: 5,
      retryAfterSeconds: 1,
    });
    clock.advance(1);
    expect(limiter.take("k")).toMatchObject({
      allowed: true,
      remaining: 0,
      resetSeconds: 8,
      retryAfterSeconds: 0,
    });
  });

  it("gives fast rates a Retry-After of at least 1", () => {
    const limiter = createRateLimiter({ rate: 100, burst: 1 }, fakeClock().now);
    expect(limiter.take("k")).toMatchObject({ allowed: true, resetSeconds: 1 });
    expect(limiter.take("k")).toMatchObject({
      allowed: false,
      retryAfterSeconds: 1,
      resetSeconds: 1,
    });
  });

  it("refills continuously, up to the burst and no further", () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 10, burst: 5 }, clock.now);
    for (let i = 0; i < 5; i++) expect(limiter.take("k").allowed).toBe(true);
    expect(limiter.take("k").allowed).toBe(false);
    clock.advance(50);
    expect(limiter.take("k").allowed).toBe(false);
    clock.advance(50);
    // 0.1 s at 10/s is one token, despite floating-point steps of 0.05 s.
    expect(limiter.take("k")).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(250);
    expect(limiter.take("k")).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(60_000);
    expect(limiter.take("k")).toEqual({
      allowed: true,
      limit: 5,
      remaining: 4,
      resetSeconds: 1,
      retryAfterSeconds: 0,
    });
  });

  it("does not charge refused requests", () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, burst: 1 }, clock.now);
    expect(limiter.take("k").allowed).toBe(true);
    for (let i = 0; i < 10; i++) {
      clock.advance(90);
      expect(limiter.take("k").allowed).toBe(false);
    }
    clock.advance(100);
    expect(limiter.take("k").allowed).toBe(true);
  });

  it("keeps one bucket per id", () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, burst: 2 }, clock.now);
    limiter.take("a");
    limiter.take("a");
    expect(limiter.take("a").allowed).toBe(false);
    expect(limiter.take("b")).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("survives a clock that steps back", () => {
    const clock = fakeClock(10_000);
    const limiter = createRateLimiter({ rate: 1, burst: 2 }, clock.now);
    limiter.take("k");
    clock.advance(-5_000);
    expect(limiter.take("k")).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("drops full buckets when many ids pile up, without changing decisions", () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, burst: 2 }, clock.now);
    limiter.take("busy");
    limiter.take("busy");
    for (let i = 0; i < 5_000; i++) limiter.take(`id-${i}`);
    // Sweeps ran while the idle ids were still refilling; "busy" stayed empty and keeps its state.
    expect(limiter.take("busy").allowed).toBe(false);
    clock.advance(2_000);
    for (let i = 5_000; i < 10_000; i++) limiter.take(`id-${i}`);
    expect(limiter.take("busy")).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.take("id-0")).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("uses performance.now when no clock is given", () => {
    const limiter = createRateLimiter({ rate: 1, burst: 1 });
    expect(limiter.take("k").allowed).toBe(true);
    expect(limiter.take("k")).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  it.each<[string, RateLimitOptions, string]>([
    [
      "rate 0",
      { rate: 0, burst: 1 },
      "rate must be a finite number of requests per second above 0 (got 0); pass for example 10 (--rate 10)",
    ],
    [
      "a negative rate",
      { rate: -1, burst: 1 },
      "rate must be a finite number of requests per second above 0 (got -1); pass for example 10 (--rate 10)",
    ],
    [
      "rate NaN",
      { rate: Number.NaN, burst: 1 },
      "rate must be a finite number of requests per second above 0 (got NaN); pass for example 10 (--rate 10)",
    ],
    [
      "rate Infinity",
      { rate: Number.POSITIVE_INFINITY, burst: 1 },
      "rate must be a finite number of requests per second above 0 (got Infinity); pass for example 10 (--rate 10)",
    ],
    [
      "burst 0",
      { rate: 1, burst: 0 },
      "burst must be a whole number of requests, at least 1 (got 0); pass for example 20 (--burst 20)",
    ],
    [
      "a fractional burst",
      { rate: 1, burst: 2.5 },
      "burst must be a whole number of requests, at least 1 (got 2.5); pass for example 20 (--burst 20)",
    ],
    [
      "burst Infinity",
      { rate: 1, burst: Number.POSITIVE_INFINITY },
      "burst must be a whole number of requests, at least 1 (got Infinity); pass for example 20 (--burst 20)",
    ],
  ])("rejects %s with a RangeError", (_, options, message) => {
    expect(() => createRateLimiter(options)).toThrow(new RangeError(message));
  });
});
