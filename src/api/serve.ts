import { loadConfig } from "../config/load-config.js";
import { resolveServeSettings, type ServeSettings } from "../config/resolve-settings.js";
import type { ServeOptions, ServeResult } from "../serve/serve.js";

/** Settings of `flowgen serve`; any left out come from the config file's `serve` section, then the defaults. */
export interface ServeApiOptions
  extends
    Partial<ServeSettings>,
    Partial<Pick<ServeOptions, "keysEnv" | "faults" | "tls" | "log" | "say">> {
  /** Working directory: where the config is looked for and relative paths start. Default `process.cwd()`. */
  readonly cwd?: string | undefined;
  /** Config file to load (relative to `cwd`); false for none. Default: found from `cwd`. */
  readonly config?: string | false | undefined;
}

/**
 * Starts the flow invocation service, as `flowgen serve` does, with the same config file. Resolves
 * once it listens (`url`, `close()`), or with the issues that kept it from starting.
 *
 * @example
 * import { serve } from "flowgen-cli";
 * const server = await serve({ cwd: process.cwd(), port: 0, watch: false });
 * if (server.ok) { console.log(server.url); await server.close(); }
 */
export async function serve(options: ServeApiOptions = {}): Promise<ServeResult> {
  const { cwd = process.cwd(), config, keysEnv, faults, tls, log, say, ...given } = options;
  const loaded =
    config === false ? { ok: true as const, config: {}, root: cwd } : await loadConfig(cwd, config);
  if (!loaded.ok) return loaded;
  const resolved = resolveServeSettings(loaded, cwd, given);
  if (!resolved.ok) return resolved;
  const { headersTimeout, requestTimeout, ...settings } = resolved.settings;
  const { startServe } = await import("../serve/serve.js");
  return startServe({
    ...settings,
    headersTimeoutMs: headersTimeout,
    requestTimeoutMs: requestTimeout,
    cwd,
    keysEnv,
    faults,
    tls,
    log,
    say,
  });
}
