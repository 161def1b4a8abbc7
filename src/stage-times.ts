/** The pipeline's stages, in order, as `--verbose` reports them. */
export const STAGES = [
  "spec read",
  "manifest",
  "checks",
  "model",
  "compile",
  "types",
  "emit",
  "format",
  "write",
] as const;
export type Stage = (typeof STAGES)[number];

/** Time spent per stage in one run. */
export interface StageTimes {
  /** Runs `work` and records when `stage` ran: from now until it returns (or its promise settles). */
  measure<T>(stage: Stage, work: () => T): T;
  /** Per stage that ran, in pipeline order, the milliseconds during which at least one of its works was running. */
  totals(): [Stage, number][];
  /** How many of the run's files are produced (rendered, or taken from the cache) so far, of how many. */
  produced(done: number, total: number): void;
}

/** Hears what a run is doing while it runs: for a progress line. */
export interface StageObserver {
  /** A work of `stage` starts (stages overlap: the latest one named is the one to show). */
  stageStarted(stage: Stage): void;
  produced(done: number, total: number): void;
}

/**
 * A fresh record of stage times for one run. Files are rendered concurrently, so a per-file stage
 * (types, emit, format) counts the time during which any file was in it: overlapping works count
 * once, and stages that overlap each other each count the shared time.
 *
 * @example
 * const times = createStageTimes(progress);
 * const sources = await times.measure("spec read", () => readSpecFiles("specs", cwd));
 */
export function createStageTimes(observer?: StageObserver): StageTimes {
  const intervals = new Map<Stage, [number, number][]>();
  const add = (stage: Stage, started: number) => {
    const list = intervals.get(stage) ?? [];
    list.push([started, performance.now()]);
    intervals.set(stage, list);
  };
  const shown = shownStage(observer);
  return {
    measure(stage, work) {
      shown.begin(stage);
      const started = performance.now();
      const end = () => {
        add(stage, started);
        shown.end(stage);
      };
      const result = work();
      if (result instanceof Promise) return result.finally(end) as typeof result;
      end();
      return result;
    },
    produced: (done, total) => observer?.produced(done, total),
    totals: () =>
      STAGES.filter((stage) => intervals.has(stage)).map((stage) => [
        stage,
        coveredTime(intervals.get(stage) ?? []),
      ]),
  };
}

/**
 * Tells the observer the stage a work starts in, and, when the last work of the stage shown ends
 * while works of others still run, the one of those that started last: a check made while the
 * worker threads render does not leave the line saying the run checks specs once it is done.
 */
function shownStage(observer: StageObserver | undefined) {
  const running = new Map<Stage, number>();
  const startedAt = new Map<Stage, number>();
  let starts = 0;
  let shown: Stage | undefined;
  const show = (stage: Stage) => {
    shown = stage;
    observer?.stageStarted(stage);
  };
  return {
    begin(stage: Stage) {
      running.set(stage, (running.get(stage) ?? 0) + 1);
      startedAt.set(stage, starts++);
      show(stage);
    },
    end(stage: Stage) {
      const left = (running.get(stage) ?? 1) - 1;
      running.set(stage, left);
      if (left > 0 || shown !== stage) return;
      const still = [...running]
        .filter(([, count]) => count > 0)
        .sort(([a], [b]) => (startedAt.get(b) ?? 0) - (startedAt.get(a) ?? 0))[0];
      if (still !== undefined) show(still[0]);
    },
  };
}

/** The length of the union of the intervals. */
function coveredTime(intervals: readonly [number, number][]): number {
  let total = 0;
  let reached = -Infinity;
  for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0])) {
    if (end <= reached) continue;
    total += end - Math.max(start, reached);
    reached = end;
  }
  return total;
}
