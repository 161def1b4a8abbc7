import path from "node:path";
import { codeCacheSettings, useCodeCache, type CodeCacheSettings } from "../cache/code-cache.js";
import { openRenderCache, type RenderCache } from "../cache/render-cache.js";
import type { Issue } from "../issues.js";
import { readManifest, type OutputManifest } from "../manifest/output-manifest.js";
import type { OutputFile } from "../output-file.js";
import { projectBoundary } from "../project-boundary.js";
import type { SpecSources } from "../spec/read-spec-files.js";
import type { StageTimes } from "../stage-times.js";
import { startWorkerPool, type StagePool } from "../workers/stage-pool.js";
import type { GenerateOptions } from "./generate-options.js";
import { readRunInputs, type RunInputs } from "./run-inputs.js";
import { createRunKeys, recallRun, type RunKeys } from "./run-keys.js";

/** Below this many files to render, starting worker threads costs more than it saves. */
export const POOL_THRESHOLD = 64;

/** One run's state, handed from stage to stage. */
export interface Run {
  readonly options: GenerateOptions;
  readonly sources: SpecSources;
  readonly times: StageTimes;
  readonly outDir: string;
  readonly cache: RenderCache;
  readonly inputs: RunInputs;
  readonly keys: RunKeys;
  /** The committed manifest, when trusted and made by a run with this one's fingerprint. */
  readonly reusable: OutputManifest | undefined;
  /** Where TypeScript and ts-morph, once compiled, are kept for the next run (`code-cache.ts`). */
  readonly codeCache: CodeCacheSettings | undefined;
  /** Worker threads, once started. */
  pool: Promise<StagePool | undefined> | undefined;
}

/** A run before it knows whether to trust the manifest or start worker threads. */
export type OpenedRun = Omit<Run, "reusable" | "codeCache" | "pool">;

/**
 * Opens the render cache and reads what every file depends on. Everything a run depends on is
 * in its key: when none of it changed, the previous run's files are the answer.
 *
 * @example
 * const opened = await openRun(options, sources, times);
 */
export async function openRun(
  options: GenerateOptions,
  sources: SpecSources,
  times: StageTimes,
): Promise<OpenedRun> {
  const cache = await openRenderCache(
    options.cacheDir === undefined ? undefined : path.resolve(options.cwd, options.cacheDir),
    projectBoundary(options.cwd, options.cwd),
  );
  const outDir = path.resolve(options.cwd, options.out);
  const inputs = await readRunInputs(options, outDir);
  const keys = createRunKeys(inputs.stamp, sources, options.rules);
  return { options, sources, times, outDir, cache, inputs, keys };
}

/**
 * The previous run's files, when the cache holds a run with this one's key.
 *
 * @example
 * const remembered = await recallFiles(opened);
 */
export async function recallFiles(
  run: OpenedRun,
): Promise<{ files: OutputFile[]; flowCount: number; warnings: Issue[] } | undefined> {
  const remembered =
    run.sources.issues.length === 0 ? recallRun(run.cache, run.keys.run) : undefined;
  if (remembered === undefined) return undefined;
  await run.cache.save();
  return remembered;
}

/**
 * Reads the manifest when asked to trust it, and starts the worker threads in a large project.
 *
 * @example
 * const run = await trustRun(opened);
 */
export async function trustRun(opened: OpenedRun): Promise<Run> {
  const { options, sources } = opened;
  // The committed manifest is no evidence of what generated/ holds: only when asked to trust it.
  const manifest =
    options.trustManifest === true && options.cacheDir !== undefined
      ? await readManifest(opened.outDir)
      : undefined;
  const reusable = manifest?.fingerprint === opened.keys.fingerprint ? manifest : undefined;
  // `--no-cache` uses nothing an earlier run kept, compiled code included.
  const codeCache =
    options.cacheDir === undefined ? undefined : await codeCacheSettings(options.cwd);
  useCodeCache(codeCache);
  // Worker threads are slow to start: each loads openapi-typescript, TypeScript and ts-morph
  // (bench/NOTES.md). This run renders something (the previous run's key did not match): start
  // them now, while this thread checks the specs, so that even one edited flow's files do not wait
  // for those loads. A small project renders on this thread unless it has many files to render.
  // The threads are made before this thread's checks begin: those hold it for long stretches, and
  // a thread made (or a task handed over) from a callback would wait for them to end.
  const threads =
    2 * sources.flows.length >= POOL_THRESHOLD ? await startThreads(options, codeCache) : undefined;
  // With an earlier run's files at hand (this machine's cache, or a trusted manifest), a run
  // renders what changed, typically a few modules, which a thread emits: one thread loads ts-morph
  // now, ahead of its other tasks. A run that renders everything has the threads load it after the
  // types, which need the memory meanwhile (a warm run whose keys all changed loads it early).
  if (!opened.cache.empty || reusable !== undefined)
    threads?.run({ stage: "load modules" }).catch(() => undefined);
  const pool = threads === undefined ? undefined : Promise.resolve(threads);
  return { ...opened, reusable, codeCache, pool };
}

/**
 * The worker threads a run renders on: the ones kept between runs when there are, else new ones.
 *
 * @example
 * run.pool ??= startThreads(run.options, run.codeCache);
 */
export function startThreads(
  options: GenerateOptions,
  codeCache: CodeCacheSettings | undefined,
): Promise<StagePool | undefined> {
  return options.workers?.start(codeCache) ?? startWorkerPool(codeCache);
}

/**
 * Ends the run's worker threads, unless they are kept for the next run.
 *
 * @example
 * await endThreads(run);
 */
export async function endThreads(run: Run): Promise<void> {
  if (run.options.workers === undefined) await (await run.pool)?.close();
}
