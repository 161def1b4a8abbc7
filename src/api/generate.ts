import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings, type GenerateSettings } from "../config/resolve-settings.js";
import { readCurrentOutput, renderProject } from "../generate.js";
import type { DiffReport } from "../diff/contract-diff.js";
import type { Issue } from "../issues.js";
import { createStageTimes, type Stage } from "../stage-times.js";
import type { OutputFile } from "../output-file.js";
import {
  ForeignOutputError,
  diffOutput,
  writeOutput,
  type OutputDiff,
} from "../write/write-output.js";

/** Settings of one run; any left out come from the config file, then the defaults. */
export interface GenerateOptions extends Partial<GenerateSettings> {
  /** Working directory: where the config is looked for and relative paths start. Default `process.cwd()`. */
  readonly cwd?: string | undefined;
  /** Config file to load (relative to `cwd`); false for none. Default: found from `cwd`. */
  readonly config?: string | false | undefined;
}

export type GenerateResult =
  | {
      readonly ok: true;
      /** Which files were added, changed and removed; with `check`, which would be. */
      readonly diff: OutputDiff;
      readonly files: readonly OutputFile[];
      readonly flowCount: number;
      /** The settings used, after the config file and defaults. */
      readonly settings: GenerateSettings;
      /** Absolute path of the config file used, if any. */
      readonly configFile: string | undefined;
      /** How the new contract differs from the one in the output folder, when it changed. */
      readonly contract?: DiffReport | undefined;
      /** Milliseconds spent per stage, in pipeline order (`--verbose` prints them). */
      readonly stages: readonly (readonly [Stage, number])[];
    }
  | {
      readonly ok: false;
      readonly issues: readonly Issue[];
      /** The settings, when the problems were found after reading them (in the specs, or the output folder). */
      readonly settings?: GenerateSettings | undefined;
      /** With `failOnBreaking`: the changes, breaking ones included, that made the run refuse (`breaking-change` issues). */
      readonly contract?: DiffReport | undefined;
    };

export type CheckResult =
  | (Extract<GenerateResult, { ok: true }> & { readonly upToDate: boolean })
  | Extract<GenerateResult, { ok: false }>;

/**
 * Compiles the flow specs and writes the output folder: the same run as `flowgen generate`, with
 * the same config file. Problems in the specs or the config come back as issues; nothing is
 * written then.
 *
 * @example
 * import { generate } from "flowgen-cli";
 * const result = await generate({ cwd: "/path/to/project", validators: true });
 * if (!result.ok) for (const issue of result.issues) console.error(issue.file, issue.message);
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  return runGenerate(options, "write");
}

/**
 * Renders in memory and compares with the output folder, writing nothing: `flowgen generate
 * --check`. `upToDate` is false when a file would be added, changed or removed.
 *
 * @example
 * import { check } from "flowgen-cli";
 * const result = await check({ cwd: process.cwd() });
 * if (result.ok && !result.upToDate) process.exitCode = 1;
 */
export async function check(options: GenerateOptions = {}): Promise<CheckResult> {
  const result = await runGenerate(options, "check");
  return result.ok ? { ...result, upToDate: countChanges(result.diff) === 0 } : result;
}

/**
 * Files added, changed and removed.
 *
 * @example
 * if (result.ok && countChanges(result.diff) === 0) console.log("nothing to write");
 */
export function countChanges(diff: OutputDiff): number {
  return diff.added.length + diff.changed.length + diff.removed.length;
}

async function runGenerate(
  options: GenerateOptions,
  mode: "write" | "check",
): Promise<GenerateResult> {
  const { cwd = process.cwd(), config, ...given } = options;
  const loaded =
    config === false
      ? { ok: true as const, config: {}, file: undefined, root: cwd }
      : await loadConfig(cwd, config);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, given);
  if (!resolved.ok) return resolved;
  const { settings } = resolved;
  const times = createStageTimes();
  const renderOptions = {
    times,
    specs: settings.specs,
    out: settings.out,
    cwd,
    baseUrl: settings.baseUrl,
    validators: settings.validators,
    cacheDir: settings.cache ? settings.cacheDir : undefined,
    failOnBreaking: settings.failOnBreaking,
  };
  // --check on a fresh clone: the committed manifest answers when it shows every input and file as recorded.
  const current =
    mode === "check" && settings.cache ? await readCurrentOutput(renderOptions) : undefined;
  if (current) {
    const diff: OutputDiff = {
      added: [],
      changed: [],
      removed: [],
      unchanged: current.files.length,
      previous: new Map(),
    };
    return {
      ok: true,
      diff,
      files: current.files,
      flowCount: current.flowCount,
      settings,
      configFile: loaded.file,
      stages: times.totals(),
    };
  }
  const result = await renderProject(renderOptions);
  if (!result.ok) return { ...result, settings };
  const outDir = path.resolve(cwd, settings.out);
  try {
    const diff = await times.measure("write", () =>
      mode === "check" ? diffOutput(outDir, result.files) : writeOutput(outDir, result.files),
    );
    return {
      ok: true,
      diff,
      files: result.files,
      flowCount: result.flowCount,
      settings,
      configFile: loaded.file,
      contract: result.contract,
      stages: times.totals(),
    };
  } catch (error) {
    if (!(error instanceof ForeignOutputError)) throw error;
    const message = error.message.slice(error.message.indexOf(" is not") + " is ".length);
    return {
      ok: false,
      issues: [{ code: "not-an-output-folder", file: settings.out, message }],
      settings,
    };
  }
}
