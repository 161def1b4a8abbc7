import type { ModuleItem, TypesItem } from "./workers/stage-worker.js";

/**
 * A batch of work for the types, module or format stage, by the plan indexes of its files. A types
 * batch holds how to make each flow's document, made as the batch is handed over: a run does not
 * hold every flow's document at once.
 */
export type Job =
  | {
      readonly stage: "types";
      readonly indexes: readonly number[];
      readonly items: readonly (() => TypesItem)[];
    }
  | {
      readonly stage: "module";
      readonly indexes: readonly number[];
      readonly items: readonly ModuleItem[];
    }
  | {
      readonly stage: "format";
      readonly indexes: readonly number[];
      readonly texts: readonly string[];
    };

/**
 * Jobs waiting for a thread, shared by the threads that run them, with a count of what may still
 * add jobs (the emit loop, and types batches whose files prettier has to format).
 *
 * @example
 * const queue = new JobQueue();
 * queue.push(job);
 * await queue.drain(run);
 */
export class JobQueue {
  private readonly jobs: Job[] = [];
  private waiting: (() => void)[] = [];
  private producers = 0;

  push(job: Job): void {
    this.jobs.push(job);
    this.wake();
  }

  /** Marks the start of work that may push jobs; `done` marks its end. */
  producing(): { done(): void } {
    this.producers++;
    return {
      done: () => {
        this.producers--;
        this.wake();
      },
    };
  }

  /**
   * Runs jobs (of `stages` only, when given) until none is left and none can come. `whenIdle` runs
   * once, the first time no job is left for this drain (others may still run theirs).
   */
  async drain(
    run: (job: Job) => Promise<void>,
    stages?: readonly Job["stage"][],
    whenIdle?: () => void,
  ): Promise<void> {
    let idle = whenIdle;
    for (;;) {
      const at = this.jobs.findIndex((job) => stages === undefined || stages.includes(job.stage));
      if (at >= 0) {
        const [job] = this.jobs.splice(at, 1) as [Job];
        // A types batch may add a format batch of files prettier has to format.
        const producing = job.stage === "types" ? this.producing() : undefined;
        try {
          await run(job);
        } finally {
          producing?.done();
          this.wake();
        }
      } else if (idle !== undefined) {
        idle();
        idle = undefined;
      } else if (this.producers > 0 || (stages !== undefined && this.jobs.length > 0)) {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      } else {
        return;
      }
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
