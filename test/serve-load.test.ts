// Bounded load tests of `flowgen serve` on 127.0.0.1: the server runs in this process (startServe)
// and autocannon drives it through its programmatic API, for a fixed number of requests (run A) or a
// fixed duration (run B), so every run stops by itself. Both share this process's event loop.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { ServeOptions } from "../src/serve/serve.js";
import { startTestServe, type StartedServe } from "./helpers/serve.js";

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface AutocannonClient {
  on(
    event: "headers",
    listener: (info: { statusCode: number; headers: readonly string[] }) => void,
  ): void;
}
interface AutocannonOptions {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  body: string;
  connections: number;
  amount?: number;
  duration?: number;
  timeout?: number;
  expectBody?: string;
  setupClient?: (client: AutocannonClient) => void;
}
interface AutocannonResult {
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  resets: number;
  "2xx": number;
  statusCodeStats: Record<string, { count: number }>;
  requests: { sent: number; total: number };
}
const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

const KEY = "k_load_0123456789abcdef";
/** The first example of specs/@acme/qa.json: the mock answers with its output. */
const BODY = JSON.stringify({ question: "What is the capital of France?" });
const ANSWER = JSON.stringify({ answer: "Paris" });

type Started = StartedServe;

function serve(overrides: Partial<ServeOptions>): Promise<Started> {
  return startTestServe(KEY, { rate: 1_000_000, burst: 1_000_000, ...overrides });
}

/** Valid calls of @acme/qa with the test key, as autocannon sends them. */
function qaCalls(server: Started): Pick<AutocannonOptions, "url" | "method" | "headers" | "body"> {
  return {
    url: `${server.url}/v1/@acme/qa`,
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: BODY,
  };
}

function statusCounts(result: AutocannonResult): Record<string, number> {
  return Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
}

describe("flowgen serve under load (autocannon, 127.0.0.1, in-process)", () => {
  it(
    "answers every one of 4,000 valid calls with 200 when the limit is out of reach",
    { timeout: 30_000 },
    async () => {
      const server = await serve({});
      try {
        const result = await autocannon({
          ...qaCalls(server),
          connections: 10,
          amount: 4000,
          timeout: 5,
          expectBody: ANSWER,
        });
        expect({
          errors: result.errors,
          timeouts: result.timeouts,
          mismatches: result.mismatches,
          non2xx: result.non2xx,
          resets: result.resets,
        }).toEqual({
          errors: 0,
          timeouts: 0,
          mismatches: 0,
          non2xx: 0,
          resets: 0,
        });
        expect(result.requests.sent).toBe(4000);
        expect(result.requests.total).toBe(4000);
        expect(result["2xx"]).toBe(4000);
        expect(statusCounts(result)).toEqual({ 200: 4000 });
      } finally {
        await server.close();
      }
    },
  );

  it(
    "holds one key to its rate (within 5%) past the burst, refusing the rest with 429 and Retry-After",
    { timeout: 30_000 },
    async () => {
      const RATE = 200;
      const BURST = 20;
      const server = await serve({ rate: RATE, burst: BURST });
      // Counted from the responses themselves (headers complete), timed on this process's clock, which
      // is also the rate limiter's: the window runs from the first answer to the last one counted.
      const seen = {
        ok: 0,
        limited: 0,
        other: new Map<number, number>(),
        retryAfter: new Map<string, number>(),
      };
      let first = Number.POSITIVE_INFINITY;
      let last = Number.NEGATIVE_INFINITY;
      try {
        const result = await autocannon({
          ...qaCalls(server),
          connections: 50,
          duration: 3,
          timeout: 5,
          setupClient(client) {
            client.on("headers", ({ statusCode, headers }) => {
              const now = performance.now();
              if (now < first) first = now;
              last = now;
              if (statusCode === 200) seen.ok++;
              else if (statusCode === 429) {
                seen.limited++;
                const at = headers.findIndex(
                  (value, i) => i % 2 === 0 && value.toLowerCase() === "retry-after",
                );
                const value = at === -1 ? "(none)" : (headers[at + 1] ?? "(none)");
                seen.retryAfter.set(value, (seen.retryAfter.get(value) ?? 0) + 1);
              } else seen.other.set(statusCode, (seen.other.get(statusCode) ?? 0) + 1);
            });
          },
        });
        const seconds = (last - first) / 1000;
        const accepted = (seen.ok - BURST) / seconds;
        const report = {
          ...statusCounts(result),
          seconds: Number(seconds.toFixed(3)),
          acceptedPerSecond: Number(accepted.toFixed(1)),
          retryAfter: Object.fromEntries(seen.retryAfter),
        };
        console.log(`serve-load rate limit: ${JSON.stringify(report)}`);

        expect({ errors: result.errors, timeouts: result.timeouts, resets: result.resets }).toEqual(
          { errors: 0, timeouts: 0, resets: 0 },
        );
        expect(Object.fromEntries(seen.other)).toEqual({});
        expect(statusCounts(result)).toEqual({ 200: seen.ok, 429: seen.limited });
        // Far more offered than allowed, or the limit was never tested.
        expect(seen.limited).toBeGreaterThan(5 * seen.ok);
        expect(seconds).toBeGreaterThan(2.5);
        expect(accepted).toBeGreaterThanOrEqual(RATE * 0.95);
        expect(accepted).toBeLessThanOrEqual(RATE * 1.05);
        // One token comes every 5 ms, so a refused call may retry after the minimum, 1 s.
        expect(Object.fromEntries(seen.retryAfter)).toEqual({ 1: seen.limited });
      } finally {
        await server.close();
      }
    },
  );
});
