import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isStale } from "../write/stale-pid.js";

/**
 * Rendered files from earlier runs, by a hash of everything that went into them. Rendering is a
 * pure function of its inputs, so a hit gives the same bytes a fresh render would: the cache makes
 * runs faster and never changes what they write. Only entries the current run used are kept.
 */
export interface RenderCache {
  /** True when nothing from an earlier run is remembered: every file will be rendered. */
  readonly empty: boolean;
  get(key: string): string | undefined;
  set(key: string, content: string): void;
  /** Writes the entries this run used; a cache that cannot be written is skipped silently. */
  save(): Promise<void>;
}

const FILE_NAME = "render-cache.json";

/** A hex SHA-256 of the parts, each length-prefixed so that ("ab","c") and ("a","bc") differ. */
export function hashParts(...parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}

/**
 * Opens the cache in `dir`, or a cache that remembers nothing when `dir` is undefined.
 *
 * @example
 * const cache = await openRenderCache("node_modules/.cache/flowgen");
 */
export async function openRenderCache(dir: string | undefined): Promise<RenderCache> {
  if (dir === undefined)
    return {
      empty: true,
      get: () => undefined,
      set: () => undefined,
      save: () => Promise.resolve(),
    };
  const file = path.join(dir, FILE_NAME);
  const previous = await readFile(file, "utf8")
    .then((text) => new Map(Object.entries(JSON.parse(text) as Record<string, string>)))
    // Missing, unreadable or damaged: start empty; the cache only ever saves time.
    .catch(() => new Map<string, string>());
  await removeStaleTemporaries(dir);
  const used = new Map<string, string>();
  let dirty = false;
  return {
    empty: previous.size === 0,
    get(key) {
      const value = used.get(key) ?? previous.get(key);
      if (value !== undefined) used.set(key, value);
      return value;
    },
    set(key, content) {
      used.set(key, content);
      dirty = true;
    },
    async save() {
      if (!dirty && used.size === previous.size) return;
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(temporary, JSON.stringify(Object.fromEntries(used)));
        await rename(temporary, file);
      } catch {
        // A read-only or full disk costs speed, not correctness.
      }
    },
  };
}

/**
 * A hash of flowgen's own code (the folder this module was loaded from) and package.json, so that
 * output cached by one build of flowgen is never served by another.
 */
export async function codeFingerprint(): Promise<string> {
  const codeDir = new URL("../", import.meta.url);
  const entries = await readdir(codeDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter(
      (entry) =>
        entry.isFile() && /\.(js|ts|json)$/.test(entry.name) && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const contents = await Promise.all(
    [...files, new URL("../../package.json", import.meta.url)].map((file) =>
      readFile(file, "utf8"),
    ),
  );
  return hashParts(...files.map((file) => path.relative(codeDir.pathname, file)), ...contents);
}

/** Removes `render-cache.json.<pid>.tmp` files that runs which crashed while saving left behind. */
async function removeStaleTemporaries(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = /^render-cache\.json\.(\d+)\.tmp$/.exec(name)?.[1];
    return pid !== undefined && Number(pid) > 0 && isStale(Number(pid));
  });
  await Promise.all(stale.map((name) => rm(path.join(dir, name), { force: true })));
}
