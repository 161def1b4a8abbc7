// State that several clients share on purpose: the concurrency cap and the last rate-limit figures.

/** The last rate-limit figures a server sent (`RateLimit-*` or `X-RateLimit-*` headers). */
export interface RateLimit {
  limit: number | undefined;
  remaining: number | undefined;
  /** When the window resets, in ms since the epoch. */
  resetAt: number | undefined;
}

export interface TransportOptions {
  /** At most this many requests in flight across every client given this transport; further calls queue. Default unlimited. */
  maxConcurrency?: number | undefined;
}

/** A queue and rate-limit figures that the clients given it share: see `createFlowTransport`. */
export interface FlowTransport {
  /** The last rate-limit figures any client of this transport saw. */
  readonly rateLimit: RateLimit | undefined;
  /** Waits for a free slot; false when `signal` aborted first. Call `release()` after a true. */
  acquire?(signal: AbortSignal): boolean | Promise<boolean>;
  release?(): void;
}

/**
 * Shared state for clients that talk to one platform: pass it as `transport` to each, and they
 * queue behind one `maxConcurrency` and see the same `rateLimit`. A client made without one has
 * its own figures and no limit.
 *
 * @example
 * const transport = createFlowTransport({ maxConcurrency: 8 });
 * const qa = createQaClient({ transport });
 * const search = createSearchClient({ transport });
 */
export function createFlowTransport(
  options: TransportOptions = {},
): FlowTransport {
  const max = options.maxConcurrency ?? Infinity;
  // Below 1 (or NaN), no call would ever get a slot: each would wait out its deadline.
  if (!(max >= 1) || (max !== Infinity && !Number.isInteger(max)))
    throw new TypeError(
      `createFlowTransport: maxConcurrency must be a whole number of calls, 1 or more; got ${String(max)}`,
    );
  const queue: (() => void)[] = [];
  let active = 0;
  return {
    rateLimit: undefined,
    acquire(signal) {
      if (signal.aborted) return false;
      if (active < max) return !!++active;
      return new Promise((resolve) => {
        const next = () => {
          signal.removeEventListener("abort", leave);
          active++;
          resolve(true);
        };
        const leave = () => {
          queue.splice(queue.indexOf(next), 1);
          resolve(false);
        };
        queue.push(next);
        signal.addEventListener("abort", leave, { once: true });
      });
    },
    release() {
      active--;
      queue.shift()?.();
    },
  };
}

/**
 * Keeps the rate-limit figures of a response on the transport, when it sent any.
 *
 * @example
 * noteRateLimit(transport, response.headers);
 */
export function noteRateLimit(
  transport: FlowTransport,
  headers: Headers,
): void {
  (transport as { rateLimit: RateLimit | undefined }).rateLimit =
    readRateLimit(headers) ?? transport.rateLimit;
}

/**
 * The rate-limit figures in a response's headers, or undefined when it sent none.
 *
 * @example
 * readRateLimit(new Headers({ "ratelimit-remaining": "3" })); // { limit: undefined, remaining: 3, resetAt: undefined }
 */
export function readRateLimit(headers: Headers): RateLimit | undefined {
  const figures = ["limit", "remaining", "reset"].map((name) => {
    const value =
      headers.get(`ratelimit-${name}`) ?? headers.get(`x-ratelimit-${name}`);
    return value !== null && Number.isFinite(+value) ? +value : undefined;
  });
  if (figures.every((figure) => figure === undefined)) return undefined;
  const [limit, remaining, reset] = figures;
  // Reset is seconds from now (RateLimit-Reset) or, as some servers send it, epoch seconds.
  const resetAt =
    reset === undefined
      ? undefined
      : (reset > 1e9 ? 0 : Date.now()) + reset * 1000;
  return { limit, remaining, resetAt };
}
