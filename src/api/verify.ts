import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import type { Issue } from "../issues.js";
import type { VerifyClock } from "../verify/platform-pace.js";
import type { VerifyReport } from "../verify/verify-report.js";

export type { CaseResult, FlowReport, Violation, VerifyReport } from "../verify/verify-report.js";
export type { VerifyClock } from "../verify/platform-pace.js";

export interface VerifyOptions {
  /** Working directory: where the config is looked for and relative paths start. Default `process.cwd()`. */
  readonly cwd?: string | undefined;
  /** Config file to load (relative to `cwd`); false for none. Default: found from `cwd`. */
  readonly config?: string | false | undefined;
  readonly specs?: string | undefined;
  /** The platform: this option, else `FLOW_BASE_URL`, else the config's `baseUrl`. */
  readonly baseUrl?: string | undefined;
  /** Default: `FLOW_API_KEY`. Never part of the report. */
  readonly apiKey?: string | undefined;
  /** Flow ids or globs (`@acme/*`); default every flow. */
  readonly flows?: readonly string[] | undefined;
  /** Inputs per flow made from its input schema. Default 0. */
  readonly generate?: number | undefined;
  /** Seed of the generated inputs. Default: a random one, reported so a run can be replayed. */
  readonly seed?: number | undefined;
  /** Also send inputs that break the input schema, expecting 400 and the error body. */
  readonly negative?: boolean | undefined;
  /** Requests in flight at once. Default 4. */
  readonly concurrency?: number | undefined;
  /** Requests the run may send, retries included. Default 500. */
  readonly maxRequests?: number | undefined;
  /** Milliseconds an answer may take. Default 30000. */
  readonly timeout?: number | undefined;
  /** Plan, and send nothing: the report lists every case as `planned`. */
  readonly dryRun?: boolean | undefined;
  /** Where time comes from, and how waits happen (Retry-After). Default: the system clock. */
  readonly clock?: VerifyClock | undefined;
  /** Read for FLOW_API_KEY and FLOW_BASE_URL. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

export type VerifyResult =
  | { readonly ok: true; readonly report: VerifyReport }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/**
 * Checks the specs against the live platform, as `flowgen verify` does: sends every example's
 * input (and generated and invalid ones when asked) to each selected flow and checks each answer
 * against the contract. Problems with the options, the config or the specs come back as issues,
 * before anything is sent; the report says what each answer did, never the key.
 *
 * @example
 * import { verify } from "flowgen-cli";
 * const result = await verify({ baseUrl: "https://api.example.com", flows: ["@acme/*"], generate: 5 });
 * if (result.ok && result.report.outcome === "failed") process.exitCode = 1;
 */
export async function verify(options: VerifyOptions = {}): Promise<VerifyResult> {
  const { cwd = process.cwd(), config } = options;
  const loaded =
    config === false ? { ok: true as const, config: {}, root: cwd } : await loadConfig(cwd, config);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, { specs: options.specs });
  if (!resolved.ok) return resolved;
  // The checks, faker and the HTTP client load only when a run needs them, as the other stages do.
  const { verifyProject } = await import("../verify/verify-project.js");
  const configFile =
    "file" in loaded && loaded.file !== undefined
      ? path.relative(cwd, loaded.file).split(path.sep).join("/")
      : undefined;
  return verifyProject({ ...options, cwd }, { ...resolved.settings, configFile });
}
