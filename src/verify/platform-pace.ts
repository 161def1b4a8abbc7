/**
 * How `flowgen verify` keeps to a shared, rate-limited platform: a budget of requests for the
 * whole run, and one pause that every worker waits out, set by Retry-After and by rate-limit
 * headers saying the window is spent. Time comes from a clock the caller passes, so tests wait
 * for nothing.
 */

/** Wall-clock milliseconds since the epoch, and a way to wait. */
export interface VerifyClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: VerifyClock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface RequestBudget {
  /** Takes one request from the budget; false when it is spent. */
  take(): boolean;
  readonly used: number;
}

/**
 * @example
 * const budget = createBudget(100);
 * if (!budget.take()) return "budget spent";
 */
export function createBudget(max: number): RequestBudget {
  let used = 0;
  return {
    take() {
      if (used >= max) return false;
      used++;
      return true;
    },
    get used() {
      return used;
    },
  };
}

export interface PlatformPace {
  /** Resolves once no pause is in force. */
  ready(): Promise<void>;
  /** Holds every request back for `ms` from now (a later end wins over an earlier one). */
  pause(ms: number): void;
  /** Reads rate-limit headers: when they say none is left, pauses until the window resets. */
  note(headers: Headers): void;
}

/** A pause that keeps growing (workers extending each other's) is waited out at most this many times per request. */
const MAX_PAUSE_ROUNDS = 8;

/**
 * @example
 * const pace = createPace(SYSTEM_CLOCK, 60_000);
 * await pace.ready();
 */
export function createPace(clock: VerifyClock, maxWaitMs: number): PlatformPace {
  let until = 0;
  const pause = (ms: number) => {
    until = Math.max(until, clock.now() + Math.min(ms, maxWaitMs));
  };
  return {
    async ready() {
      for (let round = 0; round < MAX_PAUSE_ROUNDS; round++) {
        const wait = until - clock.now();
        if (wait <= 0) return;
        await clock.sleep(wait);
      }
    },
    pause,
    note(headers) {
      const remaining = readNumber(headers, "remaining");
      const reset = readNumber(headers, "reset");
      if (remaining !== 0 || reset === undefined) return;
      // Reset is seconds from now (RateLimit-Reset) or, as some servers send it, epoch seconds.
      const ms = reset > 1e9 ? reset * 1000 - clock.now() : reset * 1000;
      if (ms > 0) pause(ms);
    },
  };
}

/**
 * The wait a 429 or 503 asked for, in ms: `Retry-After` (seconds or an HTTP date), else on 429
 * the rate-limit reset; undefined when the answer names none.
 *
 * @example
 * retryAfterMs(new Headers({ "retry-after": "2" }), 429, Date.now()); // 2000
 */
export function retryAfterMs(headers: Headers, status: number, now: number): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (value !== undefined && value !== "") {
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (status !== 429) return undefined;
  const reset = readNumber(headers, "reset");
  if (reset === undefined) return undefined;
  return Math.max(0, reset > 1e9 ? reset * 1000 - now : reset * 1000);
}

function readNumber(headers: Headers, name: string): number | undefined {
  const value = headers.get(`ratelimit-${name}`) ?? headers.get(`x-ratelimit-${name}`);
  if (value === null || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}
