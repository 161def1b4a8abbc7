import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { watch as watchFiles, type FSWatcher } from "chokidar";
import type { FlowHandler } from "./define-flow.js";

const EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];
/** `@org/flow.ts` inside the handlers folder: the flow id and the extension. */
const HANDLER_FILE = /^(@[^/]+\/[^/]+)\.(ts|mts|js|mjs)$/;

export interface Handlers {
  /** The handler of a flow, or undefined when there is none (the flow is mocked). */
  get(flowId: string): FlowHandler<unknown, unknown> | undefined;
  /** Handler files found, relative to the handlers folder, by flow id. */
  readonly files: ReadonlyMap<string, string>;
  /** Loads the handlers of flows that were not known before (after the specs were reloaded). */
  addFlows(flowIds: readonly string[]): Promise<void>;
  /** Stops watching. */
  close(): Promise<void>;
}

/** A handler file that cannot be loaded, with the reason. */
export class HandlerLoadError extends Error {}

/**
 * Loads `handlers/@org/flow.(ts|mts|js|mjs)` for each flow: the default export, a function made
 * with `defineFlow`. TypeScript loads through tsx. With `watch`, the folder is watched with
 * chokidar: a changed file (saved in place, or replaced as editors and `sed -i` do) is loaded again
 * and replaces the old handler once it loads; a new file starts answering for its flow; a deleted
 * one hands the flow back to the mock. A broken edit keeps the last good handler and says why.
 *
 * @example
 * const handlers = await loadHandlers("handlers", ["@acme/qa"], { watch: true, log: console.log });
 */
export async function loadHandlers(
  dir: string,
  flowIds: readonly string[],
  options: { readonly watch: boolean; readonly log: (line: string) => void; readonly cwd?: string },
): Promise<Handlers> {
  const files = new Map<string, string>();
  const loaded = new Map<string, FlowHandler<unknown, unknown>>();
  const importFile = createImporter();
  const load = async (ids: readonly string[]) => {
    for (const id of ids) {
      const file = findHandlerFile(dir, id);
      if (file === undefined) continue;
      loaded.set(id, await importFile(file));
      files.set(id, path.relative(dir, file));
    }
  };
  await load(flowIds);
  const watcher = options.watch
    ? await watchHandlers(dir, { ...options, loaded, files, importHandler: importFile })
    : undefined;
  return {
    get: (id) => loaded.get(id),
    files,
    addFlows: (ids) => load(ids.filter((id) => !loaded.has(id))),
    close: async () => watcher?.close(),
  };
}

/** The "type" of the package.json nearest to `file`: how Node reads its .js and .ts files. */
function packageType(file: string): unknown {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type;
      } catch {
        return undefined;
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function findHandlerFile(dir: string, flowId: string): string | undefined {
  return EXTENSIONS.map((ext) => path.join(dir, `${flowId}${ext}`)).find((candidate) =>
    existsSync(candidate),
  );
}

async function watchHandlers(
  dir: string,
  state: {
    readonly log: (line: string) => void;
    readonly cwd?: string;
    readonly loaded: Map<string, FlowHandler<unknown, unknown>>;
    readonly files: Map<string, string>;
    readonly importHandler: (file: string) => Promise<FlowHandler<unknown, unknown>>;
  },
): Promise<FSWatcher> {
  const pending = new Map<string, NodeJS.Timeout>();
  const display = (file: string) => path.relative(state.cwd ?? process.cwd(), file);
  const refresh = async (id: string) => {
    const file = findHandlerFile(dir, id);
    if (file === undefined) {
      if (state.loaded.delete(id))
        state.log(`flowgen serve: the handler of ${id} was deleted; its mock answers now`);
      state.files.delete(id);
      return;
    }
    try {
      const isNew = !state.loaded.has(id);
      state.loaded.set(id, await state.importHandler(file));
      state.files.set(id, path.relative(dir, file));
      state.log(
        `flowgen serve: ${isNew ? "loaded" : "reloaded"} the handler of ${id} (${display(file)})`,
      );
    } catch (error) {
      const what = state.loaded.has(id)
        ? `kept the previous handler of ${id}`
        : `${id} keeps its mock`;
      state.log(
        `flowgen serve: ${what}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const watcher = watchFiles(dir, { ignoreInitial: true, atomic: true });
  watcher.on("all", (_event, file) => {
    const id = HANDLER_FILE.exec(path.relative(dir, file).split(path.sep).join("/"))?.[1];
    if (id === undefined) return;
    // Editors write in bursts: load once the file has been quiet for a moment.
    clearTimeout(pending.get(id));
    pending.set(
      id,
      setTimeout(() => void refresh(id), 100),
    );
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return watcher;
}

/**
 * Node caches modules by URL: each load of a file gets a fresh one, since a replaced file may keep
 * its mtime. TypeScript in a CommonJS package (no "type": "module") goes through tsx's require, so
 * that stack traces name the handler's file and line; tsx's import would run it from a data: URL.
 */
function createImporter(): (file: string) => Promise<FlowHandler<unknown, unknown>> {
  let loads = 0;
  return (file) =>
    importHandler(file, `${pathToFileURL(file).href}?v=${statSync(file).mtimeMs}-${(loads += 1)}`);
}

async function importHandler(file: string, url: string): Promise<FlowHandler<unknown, unknown>> {
  let module: { default?: unknown };
  try {
    if (file.endsWith(".ts") && packageType(file) !== "module") {
      const { require: tsxRequire } = await import("tsx/cjs/api");
      // A fresh load: drop the earlier one from the CommonJS cache (tsx keys it as file?namespace=…).
      const cache = createRequire(import.meta.url).cache;
      for (const key of Object.keys(cache))
        if (key === file || key.startsWith(`${file}?`)) delete cache[key];
      module = tsxRequire(file, import.meta.url) as { default?: unknown };
    } else if (/\.m?ts$/.test(file)) {
      const { tsImport } = await import("tsx/esm/api");
      module = (await tsImport(url, import.meta.url)) as { default?: unknown };
    } else {
      module = (await import(url)) as { default?: unknown };
    }
  } catch (error) {
    throw new HandlerLoadError(
      `${file}: cannot be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // tsx may wrap a default export once more when it compiles to CommonJS.
  const exported =
    typeof module.default === "object" && module.default !== null && "default" in module.default
      ? module.default.default
      : module.default;
  if (typeof exported !== "function") {
    throw new HandlerLoadError(
      `${file}: the default export must be the handler: export default defineFlow(async (input) => output)`,
    );
  }
  return exported as FlowHandler<unknown, unknown>;
}
