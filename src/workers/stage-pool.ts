import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { setEnvironmentData } from "node:worker_threads";
import { CODE_CACHE_DATA, type CodeCacheSettings } from "../cache/code-cache.js";
import type { ExamplesTask } from "../spec/check-examples.js";
import type { SchemaFinding } from "../spec/schema-refs.js";
import type {
  FormatTask,
  LoadModulesTask,
  ModuleTask,
  StageTask,
  TypesTask,
  TypesText,
} from "./stage-worker.js";

/** Where stage tasks run: worker threads, or this thread. */
export interface StagePool {
  /** Threads that run tasks besides this one: 0 when tasks run here. */
  readonly threads: number;
  run(task: TypesTask): Promise<TypesText[]>;
  run(task: FormatTask | ModuleTask): Promise<string[]>;
  run(task: ExamplesTask): Promise<SchemaFinding[]>;
  run(task: LoadModulesTask): Promise<[]>;
  close(): Promise<void>;
}

/**
 * Runs stage tasks on this thread: for small runs, where starting threads costs more than it saves,
 * and when flowgen runs from its TypeScript sources (tests), which worker threads cannot load.
 *
 * @example
 * const [formatted] = await inThreadPool().run({ stage: "format", contents: [text], options });
 */
export function inThreadPool(): StagePool {
  return {
    threads: 0,
    run: (async (task: StageTask) => {
      const { default: runStageTask } = await import("./stage-worker.js");
      return runStageTask(task);
    }) as StagePool["run"],
    close: () => Promise.resolve(),
  };
}

/** Tasks each pool thread holds at once, besides the types batches (all handed over at once). */
export const TASKS_IN_FLIGHT = 4;

/** How many tasks tinypool lets a thread hold: the run decides how many it hands over. */
const TASKS_PER_THREAD = 1024;

/**
 * One worker thread per core besides this one (at least one), each loading openapi-typescript and
 * ts-morph as it starts (from `codeCache`, when given) and prettier when it first formats;
 * undefined when running from sources.
 *
 * @example
 * const pool = (await startWorkerPool(codeCache)) ?? inThreadPool();
 */
export async function startWorkerPool(
  codeCache: CodeCacheSettings | undefined,
): Promise<StagePool | undefined> {
  if (!import.meta.url.endsWith(".js")) return undefined;
  const { Tinypool } = await import("tinypool");
  const threads = Math.max(1, availableParallelism() - 1);
  // Tasks are handed to a thread while it still works on earlier ones: this thread, busy formatting,
  // does not have to hear of each finished task before the next one can start. How many is the
  // run's choice (produce-files.ts), so tinypool's own limit is out of its way.
  // The threads start as the pool is made, each with a copy of the environment data set now.
  setEnvironmentData(CODE_CACHE_DATA, codeCache);
  let pool: InstanceType<typeof Tinypool>;
  try {
    pool = new Tinypool({
      filename: fileURLToPath(new URL("./stage-worker.js", import.meta.url)),
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: TASKS_PER_THREAD,
    });
  } finally {
    setEnvironmentData(CODE_CACHE_DATA, undefined);
  }
  return {
    threads,
    run: ((task: StageTask) => pool.run(task)) as StagePool["run"],
    close: () => pool.destroy(),
  };
}

/** Worker threads that stay loaded from one run to the next: a watching generate's. */
export interface KeptWorkers {
  /** The threads, started by the first run that asks (undefined when running from sources). */
  start(codeCache: CodeCacheSettings | undefined): Promise<StagePool | undefined>;
  /** Ends the threads, once no run uses them. */
  close(): Promise<void>;
}

/**
 * Worker threads shared by the runs of one watching generate: each thread loads openapi-typescript
 * and ts-morph once, not once per saved spec.
 *
 * @example
 * const workers = keepWorkers();
 * await renderProject({ ...options, workers });
 * await workers.close();
 */
export function keepWorkers(): KeptWorkers {
  let started: Promise<StagePool | undefined> | undefined;
  return {
    start: (codeCache) => (started ??= startWorkerPool(codeCache)),
    close: async () => (await started)?.close(),
  };
}
