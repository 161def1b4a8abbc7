/**
 * Per-key token buckets for `flowgen serve`. Each id gets a bucket of `burst` tokens that refills
 * continuously at `rate` tokens per second; a request takes one token, and a refused one takes none.
 * The numbers returned are what the RateLimit-* and Retry-After headers need.
 */

export interface RateLimitOptions {
  /** Tokens added per second (sustained requests per second). */
  readonly rate: number;
  /** Bucket size: how many requests may come at once. */
  readonly burst: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** The burst (for RateLimit-Limit). */
  readonly limit: number;
  /** Whole tokens left after this request (for RateLimit-Remaining). */
  readonly remaining: number;
  /** Whole seconds until the bucket is full again, rounded up (for RateLimit-Reset). */
  readonly resetSeconds: number;
  /** When refused: whole seconds until one token is available, rounded up, at least 1 (for Retry-After); 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  take(id: string): RateDecision;
}

interface Bucket {
  tokens: number;
  /** Clock reading (ms) when `tokens` was last brought up to date. */
  at: number;
}

/** Refill arithmetic in floating point drifts by ~1e-15; this keeps 0.1 s × 10/s worth one whole token. */
const EPSILON = 1e-9;
/** Buckets kept before the first sweep; afterwards a sweep runs each time the count doubles. */
const SWEEP_FLOOR = 1024;

/**
 * A limiter holding one bucket per id. Buckets start full.
 *
 * Memory stays bounded without timers: when the number of buckets passes a threshold, buckets that
 * have refilled to full are dropped. A full bucket behaves exactly like one never made, so the sweep
 * changes no decision. The next threshold is twice the buckets left (at least SWEEP_FLOOR), so
 * sweeping costs O(1) per call amortised. In `flowgen serve` ids are key names, so there are never
 * more buckets than configured keys anyway.
 *
 * @example
 * const limiter = createRateLimiter({ rate: 10, burst: 20 });
 * const decision = limiter.take("ci");
 * if (!decision.allowed) reply.header("retry-after", String(decision.retryAfterSeconds));
 */
export function createRateLimiter(
  options: RateLimitOptions,
  now: () => number = () => performance.now(),
): RateLimiter {
  const { rate, burst } = options;
  if (!(Number.isFinite(rate) && rate > 0)) {
    throw new RangeError(
      `rate must be a finite number of requests per second above 0 (got ${String(rate)}); pass for example 10 (--rate 10)`,
    );
  }
  if (!(Number.isInteger(burst) && burst >= 1)) {
    throw new RangeError(
      `burst must be a whole number of requests, at least 1 (got ${String(burst)}); pass for example 20 (--burst 20)`,
    );
  }
  const buckets = new Map<string, Bucket>();
  let sweepAt = SWEEP_FLOOR;

  const refill = (bucket: Bucket, time: number) => {
    // max(0, …): an injected clock that steps back must not drain a bucket.
    bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, time - bucket.at) / 1000) * rate);
    bucket.at = time;
  };

  const sweep = (time: number) => {
    for (const [id, bucket] of buckets) {
      refill(bucket, time);
      if (bucket.tokens >= burst - EPSILON) buckets.delete(id);
    }
    sweepAt = Math.max(SWEEP_FLOOR, buckets.size * 2);
  };

  return {
    take(id) {
      const time = now();
      let bucket = buckets.get(id);
      if (bucket === undefined) {
        if (buckets.size >= sweepAt) sweep(time);
        bucket = { tokens: burst, at: time };
        buckets.set(id, bucket);
      } else {
        refill(bucket, time);
      }
      const allowed = bucket.tokens >= 1 - EPSILON;
      if (allowed) bucket.tokens = Math.max(0, bucket.tokens - 1);
      return {
        allowed,
        limit: burst,
        remaining: Math.floor(bucket.tokens + EPSILON),
        resetSeconds: secondsUntil(burst - bucket.tokens, rate),
        retryAfterSeconds: allowed ? 0 : Math.max(1, secondsUntil(1 - bucket.tokens, rate)),
      };
    },
  };
}

/** Whole seconds, rounded up, until `tokens` more have been added at `rate` per second. */
function secondsUntil(tokens: number, rate: number): number {
  return Math.max(0, Math.ceil(tokens / rate - EPSILON));
}
