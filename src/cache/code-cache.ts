import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import Module from "node:module";
import path from "node:path";
import vm from "node:vm";
import { getEnvironmentData, isMainThread } from "node:worker_threads";
import { isStale } from "../write/stale-pid.js";
import { readMachineSecret, secretFile } from "./machine-secret.js";

/**
 * Where compiled code is kept between runs, and the machine's secret that authenticates it. The
 * folder is beside the secret, outside every project.
 */
export interface CodeCacheSettings {
  readonly dir: string;
  readonly secret: string;
}

/**
 * The code cache of this machine: undefined when its secret cannot be had (then nothing is cached).
 *
 * @example
 * const codeCache = await codeCacheSettings(process.cwd());
 */
export async function codeCacheSettings(project: string): Promise<CodeCacheSettings | undefined> {
  const secret = await readMachineSecret(project);
  return secret === undefined
    ? undefined
    : { dir: path.join(path.dirname(secretFile()), "code-cache"), secret };
}

/** Files this large are the ones worth caching: TypeScript, twice over, and ts-morph's common library. */
const LARGE_FILE = 1 << 20;
/** Entries kept: a few per project that renders on this machine, the oldest removed first. */
const MAX_ENTRIES = 32;
const MAC_BYTES = 32;

/** The environment data that gives worker threads the code cache, as they start (stage-pool.ts). */
export const CODE_CACHE_DATA = "flowgen code cache";

let settings = isMainThread ? undefined : givenSettings(getEnvironmentData(CODE_CACHE_DATA));

function givenSettings(value: unknown): CodeCacheSettings | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { dir, secret } = value as Record<string, unknown>;
  return typeof dir === "string" && typeof secret === "string" ? { dir, secret } : undefined;
}

/**
 * Sets the code cache `requireCached` uses on this thread (worker threads are given theirs as
 * they start). Undefined turns it off. It is the thread's, as `require`'s own module cache is,
 * not a run's: it changes how fast modules load, never what a run renders, and each run sets it.
 */
export function useCodeCache(value: CodeCacheSettings | undefined): void {
  settings = value;
}

type CompileMethod = (
  this: Module,
  content: string,
  filename: string,
  ...rest: unknown[]
) => unknown;

/**
 * `require(id)`, with the large CommonJS files it loads compiled from the V8 code an earlier run
 * on this machine cached: TypeScript (which openapi-typescript and ts-morph each load, their own
 * copy) is slow to compile on every thread that renders (bench/NOTES.md). An entry is used only
 * when it carries an HMAC under the machine's secret over the V8 version and the file's path,
 * size, inode and modification and change times (a file written again in place, even with its
 * modification time put back, has a new change time). V8 itself checks only its version, its
 * flags and the source's length. An entry missing or rejected is written again.
 *
 * @example
 * export const tsMorph = requireCached(createRequire(import.meta.url), "ts-morph");
 */
export function requireCached(require: NodeJS.Require, id: string): unknown {
  const current = settings;
  if (current === undefined) return require(id);
  const prototype = Module.prototype as unknown as { _compile: CompileMethod };
  const compile = prototype._compile;
  // Node 20.19+ passes a third argument, the file's format: a module file is Node's to load.
  prototype._compile = function (content, filename, ...rest) {
    return content.length < LARGE_FILE || rest[0] === "module"
      ? compile.call(this, content, filename, ...rest)
      : compileCached(this, content, filename, current);
  };
  try {
    return require(id);
  } finally {
    prototype._compile = compile;
  }
}

/** What Node's own `_compile` does for a CommonJS file, with V8's code cache. */
function compileCached(
  module: Module,
  content: string,
  filename: string,
  cache: CodeCacheSettings,
): unknown {
  const entry = path.join(cache.dir, `${createHash("sha256").update(filename).digest("hex")}.v8`);
  const stamp = sourceStamp(filename, content);
  const cachedData = readEntry(entry, stamp, cache.secret);
  const script = new vm.Script(Module.wrap(content), {
    filename,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const wrapper = script.runInThisContext({ displayErrors: true }) as (
    ...args: unknown[]
  ) => unknown;
  const result = wrapper.call(
    module.exports,
    module.exports,
    requireOf(module),
    module,
    filename,
    path.dirname(filename),
  );
  if (cachedData === undefined || script.cachedDataRejected === true)
    writeEntry(cache, entry, stamp, script.createCachedData());
  return result;
}

/** The `require` a CommonJS module is given: its own, resolving from its file. */
function requireOf(module: Module): NodeJS.Require {
  const internals = Module as unknown as {
    _resolveFilename(request: string, parent: Module, isMain: boolean, options?: object): string;
    _resolveLookupPaths(request: string, parent: Module): string[] | null;
    _extensions: NodeJS.RequireExtensions;
    _cache: NodeJS.Dict<NodeJS.Module>;
  };
  const require = ((id: string): unknown => module.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) =>
    internals._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request) => internals._resolveLookupPaths(request, module);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = internals._extensions;
  require.cache = internals._cache;
  return require;
}

/** What the cached code was compiled from: the V8 that compiled it and the file as it stood. */
function sourceStamp(filename: string, content: string): string {
  const info = statSync(filename);
  const fields = [
    process.versions.v8,
    filename,
    content.length,
    info.size,
    info.ino,
    info.mtimeMs,
    info.ctimeMs,
  ];
  return fields.join("\0");
}

function mac(secret: string, stamp: string, data: Uint8Array): Buffer {
  return createHmac("sha512-256", secret).update(stamp).update("\0").update(data).digest();
}

/** An entry's code, when this machine wrote it for this source. */
function readEntry(entry: string, stamp: string, secret: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(entry);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(MAC_BYTES);
  const expected = mac(secret, stamp, data);
  return bytes.length > MAC_BYTES && timingSafeEqual(bytes.subarray(0, MAC_BYTES), expected)
    ? data
    : undefined;
}

/** Writes an entry whole (a temporary file renamed into place); a cache that cannot be written is skipped. */
function writeEntry(cache: CodeCacheSettings, entry: string, stamp: string, data: Buffer): void {
  const temporary = `${entry}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, Buffer.concat([mac(cache.secret, stamp, data), data]), {
      mode: 0o600,
      flag: "wx",
    });
    renameSync(temporary, entry);
    removeOldest(cache.dir);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Keeps the newest entries, and removes what writers that died (a crash, a kill) left. */
function removeOldest(dir: string): void {
  const names = readdirSync(dir);
  for (const name of names) {
    const pid = Number(/\.v8\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1]);
    // This process's other threads may be writing theirs.
    if (pid > 0 && pid !== process.pid && isStale(pid))
      rmSync(path.join(dir, name), { force: true });
  }
  const entries = names.filter((name) => name.endsWith(".v8"));
  if (entries.length <= MAX_ENTRIES) return;
  const byAge = entries
    .map((name) => ({ name, time: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => a.time - b.time);
  for (const { name } of byAge.slice(0, entries.length - MAX_ENTRIES))
    rmSync(path.join(dir, name), { force: true });
}
