import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FlowHandler } from "./define-flow.js";

const EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];

export interface Handlers {
  /** The handler of a flow, or undefined when there is none (the flow is mocked). */
  get(flowId: string): FlowHandler<unknown, unknown> | undefined;
  /** Handler files found, relative to the handlers folder, by flow id. */
  readonly files: ReadonlyMap<string, string>;
  /** Stops watching. */
  close(): void;
}

/** A handler file that cannot be loaded, with the reason. */
export class HandlerLoadError extends Error {}

/**
 * Loads `handlers/@org/flow.(ts|mts|js|mjs)` for each flow: the default export, a function made
 * with `defineFlow`. TypeScript loads through tsx. With `watch`, a changed file is loaded again
 * and replaces the old handler once it loads; a broken edit keeps the last good one and says why.
 *
 * @example
 * const handlers = await loadHandlers("handlers", ["@acme/qa"], { watch: true, log: console.log });
 */
export async function loadHandlers(
  dir: string,
  flowIds: readonly string[],
  options: { readonly watch: boolean; readonly log: (line: string) => void },
): Promise<Handlers> {
  const files = new Map<string, string>();
  for (const id of flowIds) {
    const file = EXTENSIONS.map((ext) => path.join(dir, `${id}${ext}`)).find((candidate) => existsSync(candidate));
    if (file) files.set(id, file);
  }
  const loaded = new Map<string, FlowHandler<unknown, unknown>>();
  for (const [id, file] of files) loaded.set(id, await importHandler(file));

  let watcher: FSWatcher | undefined;
  if (options.watch && files.size > 0) {
    const byFile = new Map([...files].map(([id, file]) => [path.resolve(file), id]));
    const pending = new Map<string, NodeJS.Timeout>();
    watcher = watch(dir, { recursive: true }, (_event, name) => {
      const file = name === null ? undefined : path.resolve(dir, name.toString());
      const id = file === undefined ? undefined : byFile.get(file);
      if (file === undefined || id === undefined) return;
      // Editors write in bursts: load once the file has been quiet for a moment.
      clearTimeout(pending.get(file));
      pending.set(
        file,
        setTimeout(() => {
          importHandler(file).then(
            (handler) => {
              loaded.set(id, handler);
              options.log(`flowgen serve: reloaded the handler of ${id} (${path.relative(process.cwd(), file)})`);
            },
            (error: unknown) => options.log(`flowgen serve: kept the previous handler of ${id}: ${error instanceof Error ? error.message : String(error)}`),
          );
        }, 100),
      );
    });
  }
  return {
    get: (id) => loaded.get(id),
    files: new Map([...files].map(([id, file]) => [id, path.relative(dir, file)])),
    close: () => watcher?.close(),
  };
}

async function importHandler(file: string): Promise<FlowHandler<unknown, unknown>> {
  const version = statSync(file).mtimeMs;
  let module: { default?: unknown };
  try {
    if (/\.m?ts$/.test(file)) {
      const { tsImport } = await import("tsx/esm/api");
      module = (await tsImport(`${pathToFileURL(file).href}?v=${version}`, import.meta.url)) as { default?: unknown };
    } else {
      module = (await import(`${pathToFileURL(file).href}?v=${version}`)) as { default?: unknown };
    }
  } catch (error) {
    throw new HandlerLoadError(`${file}: cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  // tsx may wrap a default export once more when it compiles to CommonJS.
  const exported = typeof module.default === "object" && module.default !== null && "default" in module.default ? (module.default as { default: unknown }).default : module.default;
  if (typeof exported !== "function") {
    throw new HandlerLoadError(`${file}: the default export must be the handler: export default defineFlow(async (input) => output)`);
  }
  return exported as FlowHandler<unknown, unknown>;
}
