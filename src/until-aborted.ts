/**
 * `work`, or its abandonment as soon as `signal` aborts (rejecting with the signal's reason): for a
 * stage that holds nothing on disk, such as rendering, which a stopped run need not wait for. The
 * work itself is not stopped; the caller's `finally` ends what it started (worker threads).
 *
 * @example
 * const produced = await untilAborted(produceRun(run, plan), options.signal);
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abandon = () => reject(signal.reason as Error);
    signal.addEventListener("abort", abandon, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abandon));
  });
}
