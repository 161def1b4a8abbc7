/**
 * How `flowgen verify` keeps to a shared, rate-limited platform: a budget of requests for the
 * whole run, one pause that every worker waits out, set by Retry-After and by rate-limit headers
 * saying the window is spent, and after a pause one request at a time until answers show the
 * window has room again. Time comes from a clock the caller passes, so tests wait for nothing.
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
  /**
   * Resolves once no pause is in force and a request may go: after a pause, one at a time until
   * an answer shows the window allows more. Every call must be followed by one `done`.
   */
  ready(): Promise<void>;
  /** Holds every request back for `ms` from now (a later end wins over an earlier one), then lets them go one at a time. */
  pause(ms: number): void;
  /**
   * A request let through by `ready` is over, with the answer's headers when one came: reads the
   * rate-limit headers (none left: pause until the reset; some left: at most that many in flight)
   * and, after a pause without them, doubles the requests let through at once per 2xx answer.
   */
  done(headers?: Headers, status?: number): void;
}

/**
 * @example
 * const pace = createPace(SYSTEM_CLOCK, 60_000);
 * await pace.ready();
 * pace.done(answer.headers, answer.status);
 */
export function createPace(clock: VerifyClock, maxWaitMs: number): PlatformPace {
  let until = 0;
  // Requests let through and not yet done, and how many may be: unlimited (the concurrency cap
  // holds them) until the platform pushes back. Waking every worker at once when a pause ends is
  // what a rate limit answers with a 429 for each but one.
  let inFlight = 0;
  let allowed = Number.POSITIVE_INFINITY;
  let wakeUp: (() => void)[] = [];
  const pause = (ms: number) => {
    until = Math.max(until, clock.now() + Math.min(ms, maxWaitMs));
    allowed = 1;
  };
  return {
    async ready() {
      for (;;) {
        const wait = until - clock.now();
        if (wait > 0) await clock.sleep(wait);
        else if (inFlight < allowed) break;
        else await new Promise<void>((resolve) => wakeUp.push(resolve));
      }
      inFlight++;
    },
    pause,
    done(headers, status) {
      inFlight--;
      const refused = status === 429 || status === 503;
      const remaining = headers === undefined ? undefined : readNumber(headers, "remaining");
      const reset = headers === undefined ? undefined : readNumber(headers, "reset");
      if (remaining === 0 && reset !== undefined) {
        // Reset is seconds from now (RateLimit-Reset) or, as some servers send it, epoch seconds.
        const ms = reset > 1e9 ? reset * 1000 - clock.now() : reset * 1000;
        if (ms > 0) pause(ms);
      } else if (!refused && remaining !== undefined) allowed = Math.max(1, remaining);
      // Without rate-limit headers only a flow's answer is a sign of room: a 401 or 400 may come before the limit is counted.
      else if (status !== undefined && status >= 200 && status < 300) allowed *= 2;
      const waiting = wakeUp;
      wakeUp = [];
      for (const resolve of waiting) resolve();
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
  if (value !== undefined && /^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day's name: Date.parse alone reads "1.5" as a date in 2001.
  if (value !== undefined && /^(?:mon|tue|wed|thu|fri|sat|sun)/i.test(value)) {
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
