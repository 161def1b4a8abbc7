import type * as TS from "typescript";
import type { RenderCache } from "./cache/render-cache.js";
import type { Formatter } from "./format/format-files.js";
import { codeLayoutFor } from "./format/code-layout.js";
import type { OutputFile } from "./output-file.js";
import type { StageTimes } from "./stage-times.js";
import { TASKS_IN_FLIGHT, type StagePool } from "./workers/stage-pool.js";
import type { TypesItem } from "./workers/stage-worker.js";

/** One file to produce: where it goes, what identifies its content, and how to make it. */
export interface Planned {
  readonly path: string;
  /** A hash of what the file is rendered from, flowgen's code aside: the manifest records it. */
  readonly inputs: string;
  /** `inputs` and flowgen's code: the render cache's key. */
  readonly key: string;
  /** Unformatted text (emit); a value to write as JSON; or a flow's types, which openapi-typescript renders. */
  readonly render: (() => Promise<string>) | { readonly json: unknown } | { readonly types: TypesItem };
}

export interface ProduceContext {
  readonly cache: RenderCache;
  /** Files already in the output folder whose inputs did not change, by path. */
  readonly kept: ReadonlyMap<string, string>;
  readonly formatter: Formatter;
  readonly pool: StagePool;
  readonly times: StageTimes;
}

/** Files per task handed to a thread: large enough that handing them over costs little, small enough to share the work evenly. */
const BATCH_SIZE = 25;

/** A batch of work for the types or the format stage, by the plan indexes of its files. */
type Job = { readonly stage: "types"; readonly indexes: readonly number[]; readonly items: readonly TypesItem[] } | { readonly stage: "format"; readonly indexes: readonly number[]; readonly texts: readonly string[] };

/**
 * Produces the planned files, in plan order, each either taken from the cache or the output folder
 * or rendered. The types stage runs in batches on the pool's threads while this thread emits the
 * flow modules; then this thread formats the emitted modules, and each pool thread that has no
 * types left takes format batches too, from the same queue. A file whose rendering fails is a
 * rejected entry.
 *
 * @example
 * const settled = await produceFiles(plan, { cache, kept, formatter, pool, times });
 */
export async function produceFiles(plan: readonly Planned[], context: ProduceContext): Promise<PromiseSettledResult<OutputFile>[]> {
  const { cache, kept, formatter, pool, times } = context;
  const results: PromiseSettledResult<OutputFile>[] = new Array(plan.length);
  const done = (index: number, content: string) => {
    const file = plan[index] as Planned;
    cache.set(file.key, content);
    results[index] = { status: "fulfilled", value: { path: file.path, content } };
  };
  const typesJobs: { index: number; item: TypesItem }[] = [];
  const emitJobs: { index: number; render: () => Promise<string> }[] = [];
  const pending: Promise<void>[] = [];
  plan.forEach((file, index) => {
    const reused = cache.get(file.key) ?? kept.get(file.path);
    if (reused !== undefined) done(index, reused);
    else if (typeof file.render === "function") emitJobs.push({ index, render: file.render });
    else if ("types" in file.render) typesJobs.push({ index, item: file.render.types });
    else {
      const { json } = file.render;
      pending.push(times.measure("format", () => formatter.formatJson(file.path, json)).then((formatted) => done(index, formatted.content)));
    }
  });
  const queue = new JobQueue();
  const layout = typesJobs.length > 0 ? codeLayoutFor(formatter.optionsFor((plan[(typesJobs[0] as { index: number }).index] as Planned).path)) : undefined;
  const optionsFor = (indexes: readonly number[]) => formatter.optionsFor((plan[indexes[0] as number] as Planned).path);
  const runJob = async (job: Job, where: "pool" | "here") => {
    if (job.stage === "types") {
      const outputs = await times.measure("types", () => pool.run({ stage: "types", items: job.items, layout }));
      const unformatted = job.indexes.flatMap((index, i) => {
        const output = outputs[i];
        if (output?.formatted === true) done(index, output.text);
        return output === undefined || output.formatted ? [] : [{ index, text: output.text }];
      });
      if (unformatted.length > 0) queue.push({ stage: "format", indexes: unformatted.map((file) => file.index), texts: unformatted.map((file) => file.text) });
      return;
    }
    const options = optionsFor(job.indexes);
    const formatted = await times.measure("format", async () => {
      if (where === "pool") return pool.run({ stage: "format", contents: job.texts, options });
      const [{ formatModules }, { tsMorph }] = await Promise.all([import("./format/format-modules.js"), import("./emit/ts-morph-entry.js")]);
      // Formatting works without giving way to the event loop: let the pool's answers in first, so its threads get their next batches.
      await new Promise((resolve) => setImmediate(resolve));
      // ts-morph's own TypeScript, loaded for emit anyway, parses the modules here.
      return formatModules(job.texts, options, tsMorph.ts as unknown as typeof TS);
    });
    job.indexes.forEach((index, i) => done(index, formatted[i] as string));
  };
  // Types first: the pool's threads work on them while this thread emits the modules.
  for (const batch of chunk(typesJobs)) queue.push({ stage: "types", indexes: batch.map((job) => job.index), items: batch.map((job) => job.item) });
  queue.producers++;
  // As many batches in flight as the pool's threads hold, so none waits for this thread between batches.
  const lanes = Array.from({ length: TASKS_IN_FLIGHT * pool.threads }, () => queue.drain((job) => runJob(job, "pool")));
  try {
    for (const batch of chunk(emitJobs)) {
      const emitted: { index: number; text: string }[] = [];
      for (const job of batch) {
        try {
          emitted.push({ index: job.index, text: await times.measure("emit", job.render) });
        } catch (error) {
          results[job.index] = { status: "rejected", reason: error };
        }
      }
      if (emitted.length > 0) queue.push({ stage: "format", indexes: emitted.map((job) => job.index), texts: emitted.map((job) => job.text) });
    }
  } finally {
    queue.producers--;
    queue.wake();
  }
  // This thread formats too; it renders types only when no pool thread does.
  await Promise.all([...lanes, queue.drain((job) => runJob(job, "here"), pool.threads > 0 ? "format" : undefined), ...pending]);
  return results;
}

/** Jobs waiting for a thread, with a count of what may still add jobs (emit, and types batches that fall back to prettier). */
class JobQueue {
  private readonly jobs: Job[] = [];
  private waiting: (() => void)[] = [];
  producers = 0;

  push(job: Job): void {
    this.jobs.push(job);
    this.wake();
  }

  wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Runs jobs (of `stage` only, when given) until none is left and none can come. */
  async drain(run: (job: Job) => Promise<void>, stage?: Job["stage"]): Promise<void> {
    for (;;) {
      const at = this.jobs.findIndex((job) => stage === undefined || job.stage === stage);
      if (at >= 0) {
        const [job] = this.jobs.splice(at, 1) as [Job];
        // A types batch may add a format batch of files prettier has to format.
        if (job.stage === "types") this.producers++;
        try {
          await run(job);
        } finally {
          if (job.stage === "types") this.producers--;
          this.wake();
        }
      } else if (this.producers > 0 || (stage !== undefined && this.jobs.length > 0)) {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      } else {
        return;
      }
    }
  }
}

function chunk<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH_SIZE) batches.push(items.slice(i, i + BATCH_SIZE));
  return batches;
}
