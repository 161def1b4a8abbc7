// A call's deadline: one timer of the platform's own (`AbortSignal.timeout`) joined with the
// caller's signal, so that either stops the call, and the failure says which one did.
import { fail, type AttemptContext, type Failed } from "./attempt.js";

export interface Deadline {
  /** Aborts when the deadline passes or the caller aborts. */
  readonly signal: AbortSignal;
  /** When the deadline passes, in ms since the epoch: no retry waits past it. */
  readonly endsAt: number;
  /** The failure of a call stopped by `signal`: a `timeout`, or `aborted` by the caller. */
  stopped(cause: unknown): Failed;
}

/**
 * Starts the deadline of one call.
 *
 * @example
 * const deadline = startDeadline(context, 5_000, options.signal);
 * await fetch(request, { signal: deadline.signal });
 */
export function startDeadline(
  context: AttemptContext,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Deadline {
  const timeout = AbortSignal.timeout(timerDelay(timeoutMs));
  const signal = callerSignal
    ? AbortSignal.any([timeout, callerSignal])
    : timeout;
  return {
    signal,
    endsAt: Date.now() + timeoutMs,
    stopped: (cause) =>
      fail(
        context,
        timeout.aborted && signal.reason === timeout.reason
          ? {
              kind: "timeout",
              code: "timeout",
              message: `no answer within ${timeoutMs} ms`,
              cause,
            }
          : {
              kind: "aborted",
              code: "aborted",
              message: "the call was aborted",
              cause,
            },
      ),
  };
}

/** The longest delay a timer takes: a longer one would fire at once. */
const LONGEST_DELAY_MS = 2 ** 31 - 1;

/** `ms` as a timer takes it: a whole number from 0 to LONGEST_DELAY_MS (no deadline beyond). */
function timerDelay(ms: number): number {
  return Number.isNaN(ms)
    ? 0
    : Math.min(LONGEST_DELAY_MS, Math.max(0, Math.ceil(ms)));
}

/**
 * `value` once it settles, unless `signal` aborts first: then the abort's `reason`. A key function
 * that never answers cannot hold a call past its deadline, nor past its caller's abort.
 *
 * @example
 * const keyed = await untilStopped(keys.key(), deadline.signal);
 * if ("reason" in keyed) return deadline.stopped(keyed.reason);
 */
export function untilStopped<T>(
  value: T | Promise<T>,
  signal: AbortSignal,
): Promise<{ value: T } | { reason: unknown }> {
  // Any thenable (a promise of another realm too) is waited for, as `await` would.
  if (typeof (value as { then?: unknown } | null)?.then !== "function")
    return Promise.resolve({ value: value as T });
  if (signal.aborted)
    return Promise.resolve({ reason: signal.reason as unknown });
  let stop = () => {};
  const stopped = new Promise<{ reason: unknown }>((resolve) => {
    stop = () => resolve({ reason: signal.reason as unknown });
    signal.addEventListener("abort", stop, { once: true });
  });
  return Promise.race([
    Promise.resolve(value).then((settled) => ({ value: settled })),
    stopped,
  ]).finally(() => signal.removeEventListener("abort", stop));
}
