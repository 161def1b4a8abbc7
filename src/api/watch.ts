import path from "node:path";
import { watch as watchFiles } from "chokidar";
import { CONFIG_FILES, loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import type { Issue } from "../issues.js";
import { keepWorkers } from "../workers/stage-pool.js";
import { generateKeepingWorkers, type GenerateOptions, type GenerateResult } from "./generate.js";

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
  const loaded =
    options.config === false
      ? { ok: true as const, config: {}, file: undefined, root: cwd }
      : await loadConfig(cwd, options.config);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, generateOptions);
  if (!resolved.ok) return resolved;

  // The worker threads stay loaded between runs: a saved spec does not wait for them to load again.
  const workers = keepWorkers();
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  const runOnce = async (): Promise<void> => {
    const started = performance.now();
    const batch = [...changed].sort();
    changed.clear();
    try {
      const result = await generateKeepingWorkers({ ...generateOptions, cwd }, workers);
      onRun({ result, changed: batch, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      onError(error);
    }
  };
  // One run at a time: changes seen during a run start the next one when it ends.
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (closed) return;
      if (running) {
        void running.then(schedule);
        return;
      }
      running = runOnce().finally(() => (running = undefined));
    }, debounceMs);
  };

  const configFiles =
    loaded.file === undefined
      ? CONFIG_FILES.map((name) => path.join(loaded.root, name))
      : [loaded.file];
  const watcher = watchFiles([path.resolve(cwd, resolved.settings.specs), ...configFiles], {
    ignoreInitial: true,
    atomic: true,
  });
  watcher.on("all", (_event, file) => {
    // Editors' temporary and swap files (qa.json.tmp, .qa.json.swp, qa.json~) are not specs.
    if (!/\.(json|ya?ml|[cm]?[jt]s)$/.test(file)) return;
    changed.add(path.relative(cwd, file).split(path.sep).join("/"));
    schedule();
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  running = runOnce().finally(() => (running = undefined));
  await running;
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
      await running;
      await workers.close();
    },
  };
}
