import path from "node:path";
import { watch as watchFiles } from "chokidar";
import { keepWatchingFolder, ready } from "../watch-folder.js";
import { CONFIG_FILES, loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import type { Issue } from "../issues.js";
import { keepWorkers, type KeptWorkers } from "../workers/stage-pool.js";
import { generateKeepingWorkers, type GenerateOptions, type GenerateResult } from "./generate.js";

/** `signal` (of `GenerateOptions`) stops the watching too, as `close` does. */
export interface WatchOptions extends GenerateOptions {
  /** Called after each run, the first one included. */
  readonly onRun: (run: WatchRun) => void;
  /** Called when a run fails with an exception (a bug, not a problem in the specs); watching goes on. Default: logs it with console.error. */
  readonly onError?: ((error: unknown) => void) | undefined;
  /** Quiet time after the last change before a run starts, in ms. Default 100. */
  readonly debounceMs?: number | undefined;
}

export interface WatchRun {
  readonly result: GenerateResult;
  /** Files whose change started this run, relative to `cwd`; empty for the first run. */
  readonly changed: readonly string[];
  readonly seconds: number;
}

export interface GenerateWatcher {
  /** Stops watching; a run in progress finishes first. */
  close(): Promise<void>;
}

/**
 * `flowgen generate --watch`: generates once, then again whenever a spec file or the config file
 * is added, changed or removed, once the files have been quiet for `debounceMs`. Editors that save
 * by writing a new file and renaming it over the old one (and `sed -i`) are seen like any edit. Runs
 * never overlap, and each reuses the render cache, so only the flows that changed are rendered, and
 * the worker threads, loaded once.
 * Returns the issues instead when the config or options are wrong before anything runs.
 *
 * @example
 * import { watch } from "flowgen-cli";
 * const watcher = await watch({ cwd: process.cwd(), onRun: ({ result }) => console.log(result.ok) });
 * if ("close" in watcher) process.once("SIGINT", () => void watcher.close());
 */
export async function watch(
  options: WatchOptions,
): Promise<GenerateWatcher | { readonly ok: false; readonly issues: readonly Issue[] }> {
  const {
    onRun,
    onError = (error: unknown) => console.error(error),
    debounceMs = 100,
    ...generateOptions
  } = options;
  const cwd = generateOptions.cwd ?? process.cwd();
  const watched = await resolveWatchedPaths(generateOptions, cwd);
  if (!watched.ok) return watched;
  // The worker threads stay loaded between runs: a saved spec does not wait for them to load again.
  const workers = keepWorkers();
  const queue = createRunQueue(
    (changed) => runGenerate({ ...generateOptions, cwd }, workers, changed, { onRun, onError }),
    debounceMs,
  );
  const shown = (file: string) => path.relative(cwd, file).split(path.sep).join("/");
  const watcher = watchFiles(watched.paths, { ignoreInitial: true, atomic: true });
  watcher.on("all", (_event, file) => {
    if (isSpecOrConfig(file)) queue.add(shown(file));
  });
  const specs = watched.paths[0] as string;
  const made = keepWatchingFolder(watcher, specs, () => queue.add(shown(specs)));
  await Promise.all([ready(watcher), ready(made)]);
  let closing: Promise<void> | undefined;
  const { signal } = generateOptions;
  const onAbort = () => void close().catch(onError);
  const close = () =>
    (closing ??= (async () => {
      signal?.removeEventListener("abort", onAbort);
      queue.stop();
      await Promise.all([watcher.close(), made.close()]);
      await queue.idle();
      await workers.close();
    })());
  // The signal stops the run in progress (it is every run's) and the watching with it.
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted !== true) await queue.runNow();
  else await close();
  return { close };
}

/** The specs folder and the config file (or, when there is none, where one would be found). */
async function resolveWatchedPaths(
  options: GenerateOptions,
  cwd: string,
): Promise<{ ok: true; paths: string[] } | { ok: false; issues: readonly Issue[] }> {
  const loaded =
    options.config === false
      ? { ok: true as const, config: {}, file: undefined, root: cwd }
      : await loadConfig(cwd, options.config);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, options);
  if (!resolved.ok) return resolved;
  const configFiles =
    loaded.file === undefined
      ? CONFIG_FILES.map((name) => path.join(loaded.root, name))
      : [loaded.file];
  return { ok: true, paths: [path.resolve(cwd, resolved.settings.specs), ...configFiles] };
}

/** Editors' temporary and swap files (qa.json.tmp, .qa.json.swp, qa.json~) are not specs. */
function isSpecOrConfig(file: string): boolean {
  return /\.(json|ya?ml|[cm]?[jt]s)$/.test(file);
}

/** One run, reported to `onRun`; an exception goes to `onError` and watching goes on. */
async function runGenerate(
  options: GenerateOptions,
  workers: KeptWorkers,
  changed: readonly string[],
  report: { onRun: WatchOptions["onRun"]; onError: (error: unknown) => void },
): Promise<void> {
  const { onRun, onError } = report;
  const started = performance.now();
  try {
    const result = await generateKeepingWorkers(options, workers);
    onRun({ result, changed, seconds: (performance.now() - started) / 1000 });
  } catch (error) {
    // A run the signal stopped was asked to stop: not a failure to report.
    if (options.signal?.aborted !== true) onError(error);
  }
}

/** Runs started by changed files, once they are quiet for a while, never two at once. */
interface RunQueue {
  /** Notes a changed file; a run starts once no file changed for `debounceMs`. */
  add(file: string): void;
  /** Starts a run now, with the files noted so far. */
  runNow(): Promise<void>;
  /** Starts no more runs. */
  stop(): void;
  /** Resolves when the run in progress, if any, has finished. */
  idle(): Promise<void>;
}

function createRunQueue(
  run: (changed: readonly string[]) => Promise<void>,
  debounceMs: number,
): RunQueue {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const start = (): Promise<void> => {
    const batch = [...changed].sort();
    changed.clear();
    running = run(batch).finally(() => (running = undefined));
    return running;
  };
  // One run at a time: changes seen during a run start the next one when it ends.
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (stopped) return;
      if (running) {
        void running.then(schedule);
        return;
      }
      void start();
    }, debounceMs);
  };
  return {
    add(file) {
      changed.add(file);
      schedule();
    },
    runNow: start,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    async idle() {
      await running;
    },
  };
}
