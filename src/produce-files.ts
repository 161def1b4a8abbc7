import { posix } from "node:path";
import type * as Prettier from "prettier";
import type * as TS from "typescript";
import type { RenderCache } from "./cache/render-cache.js";
import { checkHandPrinted } from "./format/check-printers.js";
import type { CodeLayout } from "./format/code-layout.js";
import type { Formatter } from "./format/format-files.js";
import { JobQueue, type Job } from "./job-queue.js";
import type { OutputFile } from "./output-file.js";
import type { StageTimes } from "./stage-times.js";
import { TASKS_IN_FLIGHT, type StagePool } from "./workers/stage-pool.js";
import type { ModuleItem, TypesItem } from "./workers/stage-worker.js";

/** One file to produce: where it goes, what identifies its content, and how to make it. */
export interface Planned {
  readonly path: string;
  /** A hash of what the file is rendered from, flowgen's code aside: the manifest records it. */
  readonly inputs: string;
  /** `inputs` and flowgen's code: the render cache's key. */
  readonly key: string;
  /**
   * Unformatted text (emit); a value to write as JSON; a flow's types, which openapi-typescript
   * renders; a flow's module, which ts-morph emits; or text already formatted under prettier's
   * defaults (the runtime's templates, which lint holds to them), formatted again only under others.
   */
  readonly render:
    | (() => Promise<string>)
    | { readonly json: unknown }
    | { readonly formattedByDefault: string }
    | { readonly types: () => TypesItem }
    | { readonly module: ModuleItem };
}

export interface ProduceContext {
  readonly cache: RenderCache;
  /** Files already in the output folder whose inputs did not change, by path. */
  readonly kept: ReadonlyMap<string, string>;
  readonly formatter: Formatter;
  readonly pool: StagePool;
  readonly times: StageTimes;
  /**
   * Resolves the prettier options of the files to render (a prettier call per file, in a project
   * with a config): called once the types batches are handed over, which go out with the options
   * of the first types file in their folder. Default: none to resolve.
   */
  readonly prepare?: () => Promise<void>;
  /**
   * Work for this thread once none of the files is left for it to take while the pool's threads
   * still render theirs (the run's deferred checks). Default: none.
   */
  readonly whenIdle?: () => void;
}

/** The options a types batch was rendered with, taken before its files' own were resolved. */
interface TypesOptions {
  readonly key: string;
  readonly options: Prettier.Options;
  readonly layout: CodeLayout | undefined;
}

/** Document characters of types batches handed to each thread ahead of its work (`typesOnThreads`). */
const TYPES_BYTES_AHEAD = 8_000_000;

/** A types batch: the flows' documents are made as it is handed over (`Job`). */
type TypesJob = Extract<Job, { stage: "types" }>;

/** Files per task handed to a thread: large enough that handing them over costs little, small enough to share the work evenly. */
const BATCH_SIZE = 25;

/**
 * Produces the planned files, in plan order, each either taken from the cache or the output folder
 * or rendered. Types and flow modules (emitted, then formatted) go to a queue in batches; the
 * pool's threads take the types first, then modules. This thread emits the other files (index,
 * runtime, validators) and queues them for the format stage, then takes the modules of a run that
 * has many, and the format batches. A file whose rendering fails is a rejected entry.
 *
 * @example
 * const settled = await produceFiles(plan, { cache, kept, formatter, pool, times });
 */
export async function produceFiles(
  plan: readonly Planned[],
  context: ProduceContext,
): Promise<PromiseSettledResult<OutputFile>[]> {
  return new Production(plan, context).run();
}

class Production {
  private readonly results: PromiseSettledResult<OutputFile>[];
  private readonly queue = new JobQueue();
  private readonly typesOptions = new Map<Job, TypesOptions>();
  /** The files' own prettier options, resolved (`ProduceContext.prepare`). */
  private readonly prepared: Promise<void>;
  private settlePrepared: (resolving: Promise<void>) => void = () => undefined;
  private produced = 0;

  constructor(
    private readonly plan: readonly Planned[],
    private readonly context: ProduceContext,
  ) {
    this.results = new Array<PromiseSettledResult<OutputFile>>(plan.length);
    this.prepared = new Promise((resolve) => (this.settlePrepared = resolve));
  }

  async run(): Promise<PromiseSettledResult<OutputFile>[]> {
    const { pool } = this.context;
    const emitting = this.queue.producing();
    const { typed } = await this.startTypes();
    // The files' own options are resolved while the threads render types.
    this.settlePrepared(this.context.prepare?.() ?? Promise.resolve());
    await this.prepared;
    const { moduleJobs, emitJobs, direct } = this.sortPlan("others");
    for (const batch of this.batches(moduleJobs))
      this.queue.push({ stage: "module", indexes: indexesOf(batch), items: itemsOf(batch) });
    // Then the threads help with what is left, as many batches in flight as they hold, so none waits for this thread between batches.
    const lanes = Array.from({ length: TASKS_IN_FLIGHT * pool.threads }, async () => {
      await typed;
      await this.queue.drain((job) => this.runJob(job, "pool"));
    });
    // After the lanes have handed the threads their first batches: openapi.json takes a while.
    const finished = direct.map((finish) => finish());
    try {
      await this.emit(emitJobs);
    } finally {
      emitting.done();
    }
    const here = this.queue.drain(
      (job) => this.runJob(job, "here"),
      this.stagesHere(moduleJobs),
      this.context.whenIdle,
    );
    await Promise.all([...lanes, here, ...finished]);
    return this.results;
  }

  /**
   * Starts the types: on the pool's threads, or queued first for this one when there are none.
   * The batches go out with the options of the first types file in their folder, resolved before
   * the others' (`speculate`); a file whose own options turn out to differ is rendered again
   * (`runJob`). The lanes that wait for them report their failure; a failure before the
   * lanes exist is not left unheard.
   */
  private async startTypes(): Promise<{ typed: Promise<void> }> {
    const { typesJobs } = this.sortPlan("types");
    const types = (await this.speculate(typesJobs)).flatMap(({ options, jobs }) =>
      chunk(jobs).map((batch): TypesJob => {
        const job: TypesJob = { stage: "types", indexes: indexesOf(batch), items: itemsOf(batch) };
        this.typesOptions.set(job, options);
        return job;
      }),
    );
    if (this.context.pool.threads === 0) {
      for (const job of types) this.queue.push(job);
      return { typed: Promise.resolve() };
    }
    const typed = this.typesOnThreads(types);
    typed.catch(() => undefined);
    return { typed };
  }

  /**
   * The types files grouped by the options they go out with: those of the first types file in
   * their folder, resolved before the others' (overrides by file name or by folder, the common
   * kinds, apply to it as to the rest of the folder).
   */
  private async speculate<T extends { index: number }>(
    jobs: readonly T[],
  ): Promise<{ options: TypesOptions; jobs: T[] }[]> {
    const probes = new Map<string, string>();
    for (const job of jobs) {
      const file = this.pathOf(job.index);
      const folder = posix.dirname(file);
      if (!probes.has(folder)) probes.set(folder, file);
    }
    await this.context.formatter.prepare([...probes.values()]);
    // Each folder's options are taken once, not once per file.
    const folderOptions = new Map(
      [...probes].map(([folder, probe]) => [folder, this.optionsOf(probe)] as const),
    );
    const groups = new Map<string, { options: TypesOptions; jobs: T[] }>();
    for (const job of jobs) {
      const file = this.pathOf(job.index);
      const options = folderOptions.get(posix.dirname(file)) ?? this.optionsOf(file);
      const group = groups.get(options.key);
      if (group === undefined) groups.set(options.key, { options, jobs: [job] });
      else group.jobs.push(job);
    }
    return [...groups.values()];
  }

  /**
   * Types batches go to the pool's threads well ahead: only they render types, and a thread that
   * holds its next batches keeps working while this one cannot hear its answers (loading ts-morph,
   * collecting garbage, printing openapi.json). How far ahead is counted in document bytes, which
   * a thread holds until it gets to them: all of a project of small flows, a few batches of large
   * ones. A batch's documents are made as it goes out, so this thread holds no more of them either.
   */
  private async typesOnThreads(jobs: readonly TypesJob[]): Promise<void> {
    // Types that prettier has to format come back as format jobs for the queue.
    const typing = this.queue.producing();
    const ahead = new ByteWindow(TYPES_BYTES_AHEAD * this.context.pool.threads);
    const running: Promise<void>[] = [];
    let failed = false;
    try {
      for (const job of jobs) {
        await ahead.room();
        // After a failed batch the run fails: the rest need not be rendered.
        if (failed) break;
        const items = job.items.map((make) => make());
        const bytes = documentBytes(items);
        ahead.take(bytes);
        const rendered = this.renderTypes(job, items, "pool").finally(() => ahead.give(bytes));
        // Heard at once, so a failure while this loop waits for room is no unhandled rejection;
        // Promise.all below reports it.
        rendered.catch(() => (failed = true));
        running.push(rendered);
      }
      await Promise.all(running);
    } finally {
      typing.done();
    }
  }

  /**
   * Of the types files (`part` "types") or the others: those taken from the cache or the output
   * folder are done; the rest, by how each is rendered.
   */
  private sortPlan(part: "types" | "others") {
    const { cache, kept, formatter, times } = this.context;
    const typesJobs: { index: number; item: () => TypesItem }[] = [];
    const moduleJobs: { index: number; item: ModuleItem }[] = [];
    const emitJobs: { index: number; render: () => Promise<string> }[] = [];
    // Files finished here without a queue: JSON values, and text kept as it is.
    const direct: (() => Promise<void>)[] = [];
    this.plan.forEach((file, index) => {
      if (isTypes(file) !== (part === "types")) return;
      const cached = cache.get(file.key);
      const keptFile = cached === undefined ? kept.get(file.path) : undefined;
      if (cached !== undefined) this.done(index, cached);
      // Kept on the manifest's word (--trust-manifest): not cached, so no later run takes it as rendered.
      else if (keptFile !== undefined) this.done(index, keptFile, { cache: false });
      else if (typeof file.render === "function") emitJobs.push({ index, render: file.render });
      else if ("types" in file.render) typesJobs.push({ index, item: file.render.types });
      else if ("module" in file.render) moduleJobs.push({ index, item: file.render.module });
      else if ("formattedByDefault" in file.render) {
        const text = file.render.formattedByDefault;
        if (formatter.formatsByDefault(file.path) && !text.includes("\r"))
          direct.push(() => this.keepFormatted(index, text));
        else emitJobs.push({ index, render: () => Promise.resolve(text) });
      } else {
        const value = file.render.json;
        direct.push(() =>
          times
            .measure("format", () => formatter.formatJson(file.path, value))
            .then((formatted) => this.done(index, formatted.content)),
        );
      }
    });
    return { typesJobs, moduleJobs, emitJobs, direct };
  }

  /** Text already in the layout prettier would print: kept as it is (and checked when the printers are). */
  private async keepFormatted(index: number, text: string): Promise<void> {
    const { formatter } = this.context;
    const path = this.pathOf(index);
    await checkHandPrinted(path, text, text, formatter.optionsFor(path), formatter.prettier);
    this.done(index, text);
  }

  /**
   * The stages this thread takes from the queue: all of them without a pool. With one, the types
   * stay on the pool's threads (openapi-typescript is not loaded here), and so do the modules of a
   * run that has few: those threads load ts-morph as they start, and loading it here too would cost
   * more than the modules.
   */
  private stagesHere(moduleJobs: readonly unknown[]): Job["stage"][] | undefined {
    if (this.context.pool.threads === 0) return undefined;
    return moduleJobs.length >= 2 * BATCH_SIZE ? ["module", "format"] : ["format"];
  }

  /** Emits the other modules on this thread, a batch at a time, queueing each batch for the format stage. */
  private async emit(
    jobs: readonly { index: number; render: () => Promise<string> }[],
  ): Promise<void> {
    for (const batch of this.batches(jobs)) {
      const emitted: { index: number; text: string }[] = [];
      for (const job of batch) {
        try {
          emitted.push({
            index: job.index,
            text: await this.context.times.measure("emit", job.render),
          });
        } catch (error) {
          this.results[job.index] = { status: "rejected", reason: error };
        }
      }
      if (emitted.length > 0)
        this.queue.push({
          stage: "format",
          indexes: emitted.map((job) => job.index),
          texts: emitted.map((job) => job.text),
        });
    }
  }

  /** Jobs in batches of files that share prettier options (a config's overrides may set them per file). */
  private batches<T extends { index: number }>(jobs: readonly T[]): T[][] {
    const groups = new Map<string, T[]>();
    for (const job of jobs) {
      const key = this.context.formatter.optionsKey(this.pathOf(job.index));
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [job]);
      else group.push(job);
    }
    return [...groups.values()].flatMap(chunk);
  }

  private async runJob(job: Job, where: "pool" | "here"): Promise<void> {
    const { pool, times, formatter } = this.context;
    const first = this.pathOf(job.indexes[0] as number);
    const options = formatter.optionsFor(first);
    const prettier = formatter.prettier;
    if (job.stage === "module") {
      const task = { stage: "module", items: job.items, options, prettier } as const;
      try {
        const texts = await times.measure("emit", async () => {
          if (where === "pool") return pool.run(task);
          const { emitModules } = await import("./emit/emit-modules.js");
          await letThreadsIn();
          return emitModules(task);
        });
        job.indexes.forEach((index, i) => this.done(index, texts[i] as string));
      } catch (error) {
        for (const index of job.indexes)
          this.results[index] = { status: "rejected", reason: error };
      }
      return;
    }
    if (job.stage === "types") {
      await this.renderTypes(
        job,
        job.items.map((make) => make()),
        where,
      );
      return;
    }
    const formatted = await times.measure("format", async () => {
      if (where === "pool")
        return pool.run({ stage: "format", contents: job.texts, options, prettier });
      const [{ formatModules }, { tsMorph }] = await Promise.all([
        import("./format/format-modules.js"),
        import("./emit/ts-morph-entry.js"),
      ]);
      await letThreadsIn();
      // ts-morph's own TypeScript, loaded for emit anyway, parses the modules here.
      return formatModules(job.texts, options, tsMorph.ts as unknown as typeof TS, prettier);
    });
    job.indexes.forEach((index, i) => this.done(index, formatted[i] as string));
  }

  /** Renders a types batch whose documents are `items`, and queues what prettier has to format. */
  private async renderTypes(job: TypesJob, items: TypesItem[], where: "pool" | "here") {
    const { pool, times, formatter } = this.context;
    const used =
      this.typesOptions.get(job) ?? this.optionsOf(this.pathOf(job.indexes[0] as number));
    const outputs = await times.measure("types", () =>
      pool.run({
        stage: "types",
        items,
        layout: used.layout,
        options: used.options,
        prettier: formatter.prettier,
      }),
    );
    await this.prepared;
    // Files whose own options differ from their folder's (a config's overrides): rendered again.
    const redo: { index: number; item: () => TypesItem }[] = [];
    const unformatted = job.indexes.flatMap((index, i) => {
      const output = outputs[i];
      if (formatter.optionsKey(this.pathOf(index)) !== used.key) {
        redo.push({ index, item: job.items[i] as () => TypesItem });
        return [];
      }
      if (output?.formatted === true) this.done(index, output.text);
      return output === undefined || output.formatted ? [] : [{ index, text: output.text }];
    });
    for (const batch of this.batches(redo)) {
      const again: TypesJob = { stage: "types", indexes: indexesOf(batch), items: itemsOf(batch) };
      await this.runJob(again, where);
    }
    if (unformatted.length > 0)
      this.queue.push({
        stage: "format",
        indexes: unformatted.map((file) => file.index),
        texts: unformatted.map((file) => file.text),
      });
  }

  /** A file's prettier options as they stand now: its folder's until its own are resolved. */
  private optionsOf(path: string): TypesOptions {
    const { formatter } = this.context;
    return {
      key: formatter.optionsKey(path),
      options: formatter.optionsFor(path),
      layout: formatter.layoutFor(path),
    };
  }

  private done(index: number, content: string, options = { cache: true }): void {
    const file = this.plan[index] as Planned;
    if (options.cache) this.context.cache.set(file.key, content);
    this.results[index] = { status: "fulfilled", value: { path: file.path, content } };
    this.context.times.produced(++this.produced, this.plan.length);
  }

  private pathOf(index: number): string {
    return (this.plan[index] as Planned).path;
  }
}

/**
 * Emitting and formatting on this thread never give way to the event loop, and awaiting the next
 * job only runs microtasks: without this, the pool's answers wait until this thread has no work
 * left, and its threads sit idle meanwhile instead of getting their next batches.
 */
function letThreadsIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How many characters of OpenAPI documents a types batch carries. */
function documentBytes(items: readonly TypesItem[]): number {
  let bytes = 0;
  for (const item of items) bytes += item.document.length;
  return bytes;
}

/**
 * How many bytes may be out at once: `room` waits until what is out is under the limit (at once
 * when nothing is, however large the next part), `take` and `give` count a part out and back.
 */
class ByteWindow {
  private out = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async room(): Promise<void> {
    while (this.out > 0 && this.out >= this.limit)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  take(bytes: number): void {
    this.out += bytes;
  }

  give(bytes: number): void {
    this.out -= bytes;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

/** A flow's types file, which the pool's threads render. */
function isTypes(file: Planned): boolean {
  return typeof file.render === "object" && "types" in file.render;
}

function indexesOf(jobs: readonly { index: number }[]): number[] {
  return jobs.map((job) => job.index);
}

function itemsOf<T>(jobs: readonly { item: T }[]): T[] {
  return jobs.map((job) => job.item);
}

function chunk<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH_SIZE) batches.push(items.slice(i, i + BATCH_SIZE));
  return batches;
}
