import { constants } from "node:os";
import type { CliContext } from "./command.js";

/** Why a run was stopped: the signal the process was sent. */
export class RunStopped extends Error {
  constructor(readonly by: string) {
    super(`stopped by ${by}`);
    this.name = "RunStopped";
  }
}

/** A run that may be stopped: its result when it finished, and the signal when one came. */
export type Stoppable<T> =
  | { readonly finished: true; readonly value: T; readonly stoppedBy: string | undefined }
  | { readonly finished: false; readonly stoppedBy: string };

/**
 * Runs `work` with a signal that aborts when the process is told to stop (Ctrl-C, SIGTERM), so a
 * one-shot command ends where the disk is whole instead of wherever Node's default exit would
 * leave it. Only the first signal is caught: a second one ends the process at once, as usual.
 *
 * @example
 * const ran = await runStoppable(context.stopped, (signal) => generate({ cwd, signal }));
 */
export async function runStoppable<T>(
  stopped: CliContext["stopped"],
  work: (signal: AbortSignal) => Promise<T>,
): Promise<Stoppable<T>> {
  const stop = new AbortController();
  const done = new AbortController();
  void stopped(done.signal).then((by) => stop.abort(new RunStopped(by)));
  const stoppedBy = () => (stop.signal.reason as RunStopped | undefined)?.by;
  try {
    const value = await work(stop.signal);
    return { finished: true, value, stoppedBy: stoppedBy() };
  } catch (error) {
    if (error instanceof RunStopped) return { finished: false, stoppedBy: error.by };
    throw error;
  } finally {
    done.abort();
  }
}

/**
 * The exit code of a process a signal stopped, as shells give it: 128 plus the signal's number
 * (130 for SIGINT, 143 for SIGTERM).
 *
 * @example
 * return exitCodeForSignal("SIGINT"); // 130
 */
export function exitCodeForSignal(signal: string): number {
  const number = (constants.signals as Readonly<Record<string, number | undefined>>)[signal];
  return 128 + (number ?? constants.signals.SIGINT);
}
