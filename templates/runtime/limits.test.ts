import { describe, expect, it } from "vitest";
import {
  createFlowTransport,
  noteRateLimit,
  readRateLimit,
  type FlowTransport,
} from "./limits.js";

describe("readRateLimit", () => {
  it.each([
    [
      "IETF names",
      { "ratelimit-limit": "100", "ratelimit-remaining": "7" },
      { limit: 100, remaining: 7, resetAt: undefined },
    ],
    [
      "X- names",
      { "x-ratelimit-limit": "50", "x-ratelimit-reset": "1900000000" },
      { limit: 50, remaining: undefined, resetAt: 1_900_000_000_000 },
    ],
    ["nothing", {}, undefined],
    ["not numbers", { "ratelimit-limit": "lots" }, undefined],
  ])("%s", (_name, headers, want) => {
    expect(readRateLimit(new Headers(headers))).toEqual(want);
  });
  it("reads a small reset as seconds from now", () => {
    const before = Date.now();
    expect(
      readRateLimit(new Headers({ "ratelimit-reset": "30" }))?.resetAt,
    ).toBeGreaterThanOrEqual(before + 30_000);
  });
});

describe("createFlowTransport", () => {
  it("admits up to maxConcurrency at once and the rest in order as slots free up", async () => {
    const transport = createFlowTransport({ maxConcurrency: 2 });
    const signal = new AbortController().signal;
    expect(transport.acquire!(signal)).toBe(true);
    expect(transport.acquire!(signal)).toBe(true);
    const order: number[] = [];
    const third = Promise.resolve(transport.acquire!(signal)).then(
      (ok) => order.push(3) && ok,
    );
    const fourth = Promise.resolve(transport.acquire!(signal)).then(
      (ok) => order.push(4) && ok,
    );
    transport.release!();
    transport.release!();
    expect(await Promise.all([third, fourth])).toEqual([true, true]);
    expect(order).toEqual([3, 4]);
  });

  it("lets a queued caller leave when its signal aborts, without taking a slot", async () => {
    const transport = createFlowTransport({ maxConcurrency: 1 });
    expect(transport.acquire!(new AbortController().signal)).toBe(true);
    const controller = new AbortController();
    const waiting = transport.acquire!(controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    transport.release!();
    expect(transport.acquire!(new AbortController().signal)).toBe(true);
    expect(transport.acquire!(AbortSignal.abort())).toBe(false);
  });

  it("keeps the last figures a response sent", () => {
    const transport: FlowTransport = createFlowTransport();
    expect(transport.rateLimit).toBeUndefined();
    noteRateLimit(transport, new Headers({ "ratelimit-remaining": "3" }));
    noteRateLimit(transport, new Headers({}));
    expect(transport.rateLimit?.remaining).toBe(3);
  });
});

describe("createFlowTransport", () => {
  it.each([0, -1, 2.5, Number.NaN])(
    "refuses a maxConcurrency of %s, under which no call would get a slot",
    (maxConcurrency) => {
      expect(() => createFlowTransport({ maxConcurrency })).toThrow(
        /^createFlowTransport: maxConcurrency must be a whole number of calls, 1 or more; got /,
      );
    },
  );

  it.each([1, 8, Infinity])(
    "takes a maxConcurrency of %s",
    (maxConcurrency) => {
      expect(createFlowTransport({ maxConcurrency }).acquire).toBeTypeOf(
        "function",
      );
    },
  );
});
