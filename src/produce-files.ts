import type { RenderCache } from "./cache/render-cache.js";
import type { Formatter } from "./format/format-files.js";
import type { OutputFile } from "./output-file.js";
import type { StageTimes } from "./stage-times.js";
import type { StagePool } from "./workers/stage-pool.js";
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

/**
 * Produces the planned files, in plan order, each either taken from the cache or the output folder
 * or rendered: the types stage and the format stage run in batches on the pool's threads, while
 * this thread emits the flow modules. A file whose rendering fails is a rejected entry.
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
  const format = async (indexes: readonly number[], texts: readonly string[]) => {
    const options = formatter.optionsFor((plan[indexes[0] as number] as Planned).path);
    const formatted = await times.measure("format", () => pool.run({ stage: "format", contents: texts, options }));
    indexes.forEach((index, i) => done(index, formatted[i] as string));
  };
  // Types first: the pool's threads work on them while this thread emits the modules.
  for (const batch of chunk(typesJobs)) {
    const rendered = times.measure("types", () => pool.run({ stage: "types", items: batch.map((job) => job.item) }));
    pending.push(rendered.then((texts) => format(batch.map((job) => job.index), texts)));
  }
  for (const batch of chunk(emitJobs)) {
    const emitted: { index: number; text: string }[] = [];
    for (const job of batch) {
      try {
        emitted.push({ index: job.index, text: await times.measure("emit", job.render) });
      } catch (error) {
        results[job.index] = { status: "rejected", reason: error };
      }
    }
    if (emitted.length > 0) pending.push(format(emitted.map((job) => job.index), emitted.map((job) => job.text)));
  }
  await Promise.all(pending);
  return results;
}

function chunk<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH_SIZE) batches.push(items.slice(i, i + BATCH_SIZE));
  return batches;
}
