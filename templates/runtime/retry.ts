// When a failed attempt may be sent again, and how long to wait first.
import type { FlowFailure } from "./errors.js";
import { readRateLimit } from "./limits.js";

export interface RetryOptions {
  /** Attempts after the first one. Default 2; 0 turns retrying off. */
  maxRetries?: number | undefined;
  /** The first backoff step in ms, doubled at each retry, with full jitter. Default 500. */
  baseDelayMs?: number | undefined;
  /** The longest wait between attempts in ms; a server that asks for longer is not retried. Default 30000. */
  maxDelayMs?: number | undefined;
}

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * The client's retry options with their defaults filled in; `false` means one attempt.
 *
 * @example
 * retryPolicy({ maxRetries: 5 }); // { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30000 }
 */
export function retryPolicy(
  options: RetryOptions | false | undefined,
): RetryPolicy {
  const {
    maxRetries = 2,
    baseDelayMs = 500,
    maxDelayMs = 30_000,
  } = (options ?? {}) || { maxRetries: 0 };
  return { maxRetries, baseDelayMs, maxDelayMs };
}

/** Connection errors that happen before a request is written: refused, unknown host, unreachable. */
const NEVER_SENT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_CONNECT_TIMEOUT)$/;

/**
 * Safe to send again? 429 and 503 say the server did not run the flow; a refused connection never
 * reached it. Anything else may have run it once already: only when the caller says that is fine.
 * A redirect never: sent again, it would be redirected again (or, through a custom fetch that
 * follows, reach the other origin again).
 *
 * @example
 * if (retryable(error, options.idempotent)) await sleep(delay, signal);
 */
export function retryable(error: FlowFailure, idempotent: boolean): boolean {
  const { status, kind, code } = error;
  // A request that could not be made (no status: a server's body may use the code too) fails the
  // same way again, whatever its cause says.
  if (kind === "redirected" || (code === "invalid_request" && status === 0))
    return false;
  return (
    status === 429 ||
    status === 503 ||
    NEVER_SENT.test(
      (error as { cause?: { cause?: { code?: string } } }).cause?.cause
        ?.code as string,
    ) ||
    (idempotent && (kind === "server" || kind === "connection"))
  );
}

/**
 * The wait before retry number `attempt` in ms: full-jitter exponential backoff, or longer when
 * the server asked for it; undefined when the server asked for more than `maxDelayMs`.
 *
 * @example
 * backoffDelay(retryPolicy(undefined), 1, undefined); // somewhere in [0, 500)
 */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  askedMs: number | undefined,
): number | undefined {
  const step = policy.baseDelayMs * 2 ** (attempt - 1);
  const backoff = Math.random() * Math.min(policy.maxDelayMs, step);
  if (askedMs === undefined) return backoff;
  return askedMs > policy.maxDelayMs ? undefined : Math.max(askedMs, backoff);
}

/**
 * The wait a server asked for, in ms: `Retry-After` (seconds or HTTP date), else the rate-limit
 * reset on 429. A `Retry-After` that is neither counts as not sent.
 *
 * @example
 * retryAfter(new Headers({ "retry-after": "2" }), 503); // 2000
 */
export function retryAfter(
  headers: Headers,
  status: number,
): number | undefined {
  const ms =
    readRetryAfter(headers.get("retry-after")) ??
    (status === 429
      ? (readRateLimit(headers)?.resetAt ?? NaN) - Date.now()
      : NaN);
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}

/**
 * A `Retry-After` value in ms from now (RFC 9110 §10.2.3): whole seconds, or an HTTP date, which
 * starts with the day's name. Anything else is undefined: `Date.parse` alone reads "1.5" as a
 * date in 2001.
 */
function readRetryAfter(value: string | null): number | undefined {
  const text = value?.trim() ?? "";
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^(?:mon|tue|wed|thu|fri|sat|sun)/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at - Date.now();
}

/**
 * Resolves true after `ms`, or false as soon as `signal` aborts.
 *
 * @example
 * if (!(await sleep(250, signal))) return; // aborted while waiting
 */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      resolve(ok);
    };
    const stop = () => done(false);
    const timer = setTimeout(done, ms, true);
    signal.addEventListener("abort", stop);
  });
}
