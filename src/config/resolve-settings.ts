import path from "node:path";
import type { Issue, Rules } from "../issues.js";
import { isInside } from "../project-boundary.js";
import { SERVE_KEYS, describeWrongValue } from "./config-keys.js";
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
  /** Severities the project chose for the problems that may have one. */
  readonly rules: Rules;
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
  /** The config file's top-level `rules`, shared with generate: the spec checks honour them alike. */
  readonly rules: Rules;
}

export const GENERATE_DEFAULTS = {
  specs: "specs",
  out: "generated",
  baseUrl: undefined,
  validators: false,
  cache: true,
  cacheDir: "node_modules/.cache/flowgen",
  failOnBreaking: false,
  rules: {},
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
  rules: {},
} as const satisfies ServeSettings;

const GENERATE_PATHS = ["specs", "out", "cacheDir"] as const;
const SERVE_PATHS = ["specs", "handlers", "keysFile"] as const;

type Given<T> = { readonly [K in keyof T]?: T[K] | undefined };

/**
 * The settings of one generate run: a value given directly (a flag, or an API option) wins over
 * the config file, which wins over the default. Config paths, and the default ones, are relative to
 * the config's folder (`root`: the project's, when a run starts in a folder below it); given paths
 * to `cwd`. `--base-url` is checked here, so every command refuses the same
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
  const settings = mergeSettings<GenerateSettings>(
    rebase(GENERATE_DEFAULTS, GENERATE_PATHS, loaded.root, cwd),
    rebase(config, GENERATE_PATHS, loaded.root, cwd),
    given,
  );
  const issues: Issue[] = [];
  if (given.baseUrl !== undefined) {
    const problem = describeWrongValue(given.baseUrl, "url");
    if (problem !== undefined)
      issues.push({ code: "invalid-option", file: "--base-url", message: problem });
  }
  const overlap = checkFoldersApart(settings, cwd);
  if (overlap !== undefined) issues.push(overlap);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, settings };
}

/**
 * The output folder may not lie inside the specs folder, nor the specs inside the output folder
 * (nor be the same): flowgen replaces the output folder's whole content, and reads every file
 * under the specs folder as a spec, so either run would work once and break the next.
 */
function checkFoldersApart(settings: GenerateSettings, cwd: string): Issue | undefined {
  const specs = path.resolve(cwd, settings.specs);
  const out = path.resolve(cwd, settings.out);
  const where = isInside(out, specs)
    ? specs === out
      ? "is the specs folder"
      : `lies inside the specs folder ${settings.specs}`
    : isInside(specs, out)
      ? `holds the specs folder ${settings.specs}`
      : undefined;
  if (where === undefined) return undefined;
  return {
    code: "overlapping-folders",
    file: settings.out,
    message: `the output folder ${where}; flowgen replaces the output folder's content and reads every file under the specs folder as a spec, so this would work once and break the next run. Keep them apart, such as specs: "specs" and out: "generated"`,
  };
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
): { ok: true; settings: ServeSettings } | { ok: false; issues: Issue[] } {
  const fromConfig: FlowgenServeConfig & { specs?: string; rules?: Rules } = {
    ...(loaded.config.specs === undefined ? {} : { specs: loaded.config.specs }),
    ...(loaded.config.rules === undefined ? {} : { rules: loaded.config.rules }),
    ...loaded.config.serve,
  };
  // A port given as a flag or API option is checked as the config file's is: 70000 is a sentence
  // naming the flag, not Node's RangeError. (The server checks its limits itself, with their ranges.)
  const problem =
    given.port === undefined ? undefined : describeWrongValue(given.port, SERVE_KEYS.port);
  if (problem !== undefined)
    return { ok: false, issues: [{ code: "invalid-option", file: "--port", message: problem }] };
  return {
    ok: true,
    settings: mergeSettings<ServeSettings>(
      rebase(SERVE_DEFAULTS, SERVE_PATHS, loaded.root, cwd),
      rebase(fromConfig, SERVE_PATHS, loaded.root, cwd),
      given,
    ),
  };
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
