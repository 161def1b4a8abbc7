import path from "node:path";
import type { Issue } from "../issues.js";
import { describeWrongValue } from "./config-keys.js";
import type { FlowgenConfig, FlowgenServeConfig } from "./define-config.js";

/** Everything `generate`, `--check` and `--watch` need, defaults filled in; paths relative to `cwd`. */
export interface GenerateSettings {
  readonly specs: string;
  readonly out: string;
  readonly baseUrl: string | undefined;
  readonly validators: boolean;
  readonly cache: boolean;
  readonly cacheDir: string;
  /** Refuse to write (exit 4) when the new contract breaks callers of a flow. */
  readonly failOnBreaking: boolean;
}

/** What `serve` needs besides the run-time flags (faults, TLS); paths relative to `cwd`. */
export interface ServeSettings {
  readonly specs: string;
  readonly port: number;
  readonly host: string;
  readonly handlers: string;
  readonly watch: boolean;
  readonly keysFile: string | undefined;
  readonly rate: number;
  readonly burst: number;
  readonly bodyLimit: number;
  readonly maxDepth: number;
  /** Milliseconds a client has to send the request headers, and the whole request. */
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly seed: number;
  /** Origins whose pages may call; undefined for pages on loopback. */
  readonly cors: string | undefined;
  readonly docs: boolean;
}

export const GENERATE_DEFAULTS = {
  specs: "specs",
  out: "generated",
  baseUrl: undefined,
  validators: false,
  cache: true,
  cacheDir: "node_modules/.cache/flowgen",
  failOnBreaking: false,
} as const satisfies GenerateSettings;

export const SERVE_DEFAULTS = {
  specs: "specs",
  port: 8787,
  host: "127.0.0.1",
  handlers: "handlers",
  watch: true,
  keysFile: undefined,
  rate: 10,
  burst: 20,
  bodyLimit: 1_048_576,
  maxDepth: 64,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  seed: 1,
  cors: undefined,
  docs: true,
} as const satisfies ServeSettings;

const GENERATE_PATHS = ["specs", "out", "cacheDir"] as const;
const SERVE_PATHS = ["specs", "handlers", "keysFile"] as const;

type Given<T> = { readonly [K in keyof T]?: T[K] | undefined };

/**
 * The settings of one generate run: a value given directly (a flag, or an API option) wins over
 * the config file, which wins over the default. Config paths are relative to the config's folder
 * (`root`); given paths to `cwd`. `--base-url` is checked here, so every command refuses the same
 * values.
 *
 * @example
 * const settings = resolveGenerateSettings({ config: { validators: true }, root: cwd }, cwd, { out: "client" });
 */
export function resolveGenerateSettings(
  loaded: { readonly config: FlowgenConfig; readonly root: string },
  cwd: string,
  given: Given<GenerateSettings>,
): { ok: true; settings: GenerateSettings } | { ok: false; issues: Issue[] } {
  const { serve: _serve, ...config } = loaded.config;
  const settings = mergeSettings(
    GENERATE_DEFAULTS,
    rebase(config, GENERATE_PATHS, loaded.root, cwd),
    given,
  );
  const issues: Issue[] = [];
  if (given.baseUrl !== undefined) {
    const problem = describeWrongValue(given.baseUrl, "url");
    if (problem !== undefined)
      issues.push({ code: "invalid-option", file: "--base-url", message: problem });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, settings };
}

/**
 * The settings of `flowgen serve`: given values, then the config's `serve` section (and its
 * top-level `specs`, shared with generate), then defaults.
 *
 * @example
 * const settings = resolveServeSettings({ config: { serve: { port: 0 } }, root: cwd }, cwd, {});
 */
export function resolveServeSettings(
  loaded: { readonly config: FlowgenConfig; readonly root: string },
  cwd: string,
  given: Given<ServeSettings>,
): ServeSettings {
  const fromConfig: FlowgenServeConfig & { specs?: string } = {
    ...(loaded.config.specs === undefined ? {} : { specs: loaded.config.specs }),
    ...loaded.config.serve,
  };
  return mergeSettings(SERVE_DEFAULTS, rebase(fromConfig, SERVE_PATHS, loaded.root, cwd), given);
}

function mergeSettings<T extends object>(defaults: T, config: Given<T>, given: Given<T>): T {
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const source of [config, given] as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(source)) if (value !== undefined) merged[key] = value;
  }
  return merged as T;
}

/** A config path, relative to the config's folder, as a path relative to the working directory. */
function rebase<T extends object>(
  config: T,
  keys: readonly string[],
  root: string,
  cwd: string,
): T {
  if (root === cwd) return config;
  const out: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  for (const key of keys) {
    const value = out[key];
    if (typeof value === "string")
      out[key] = path.relative(cwd, path.resolve(root, value)).split(path.sep).join("/") || ".";
  }
  return out as T;
}
