import path from "node:path";
import { watch as watchFiles, type FSWatcher } from "chokidar";

/**
 * Keeps `watcher` on `folder` when the folder is removed and made again: chokidar lets go of a
 * watched folder that is removed, and would not see it come back. A second watch, on the folder's
 * parent (its entries only), sees it made; then `watcher` watches it anew and `made` runs (files
 * written before the new watch is ready raise no event of their own: `made` reads what is there).
 * Close the returned watch with `watcher`.
 *
 * @example
 * const parent = keepWatchingFolder(watcher, "/app/specs", () => queue.add("specs"));
 * await Promise.all([ready(watcher), ready(parent)]);
 */
export function keepWatchingFolder(
  watcher: FSWatcher,
  folder: string,
  made: () => void,
): FSWatcher {
  const parent = watchFiles(path.dirname(folder), { ignoreInitial: true, depth: 0 });
  parent.on("addDir", (dir) => {
    if (path.resolve(dir) !== folder) return;
    watcher.unwatch(folder).add(folder);
    made();
  });
  return parent;
}

/**
 * Resolves once `watcher` has read what it watches.
 *
 * @example
 * await ready(watcher);
 */
export function ready(watcher: FSWatcher): Promise<void> {
  return new Promise((resolve) => watcher.once("ready", () => resolve()));
}
