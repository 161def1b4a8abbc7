import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings, type GenerateSettings } from "../config/resolve-settings.js";
import { readCurrentOutput, renderProject } from "../generate.js";
import type { DiffReport } from "../diff/contract-diff.js";
import type { Issue } from "../issues.js";
import { createStageTimes, type Stage } from "../stage-times.js";
import type { OutputFile } from "../output-file.js";
import { projectBoundary, staysInside } from "../project-boundary.js";
import { OutputLockedError } from "../write/output-lock.js";
import {
  ForeignOutputError,
  diffOutput,
  refuseLinkedFolder,
  writeOutput,
  type OutputDiff,
} from "../write/write-output.js";

/** Settings of one run; any left out come from the config file, then the defaults. */
export interface GenerateOptions extends Partial<GenerateSettings> {
  /** Working directory: where the config is looked for and relative paths start. Default `process.cwd()`. */
  readonly cwd?: string | undefined;
  /** Config file to load (relative to `cwd`); false for none. Default: found from `cwd`. */
  readonly config?: string | false | undefined;
  /**
   * `--trust-manifest`: take the committed manifest's word that files are current, instead of
   * proving it by rendering. Unsafe for output you did not write (a pull request from others): a
   * forged manifest passes. Never read from the config file, which a commit can change.
   */
  readonly trustManifest?: boolean | undefined;
  /** How long to wait for another run writing the same output folder, in ms (default 60 000); then an `output-locked` issue. */
  readonly waitForLock?: number | undefined;
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
  const { cwd = process.cwd(), config, trustManifest, waitForLock, ...given } = options;
  const loaded =
    config === false
      ? { ok: true as const, config: {}, file: undefined, root: cwd }
      : await loadConfig(cwd, config);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, given);
  if (!resolved.ok) return resolved;
  const { settings } = resolved;
  const outDir = path.resolve(cwd, settings.out);
  const refused = await checkOutputPlace(outDir, settings.out, cwd);
  if (refused !== undefined) return { ok: false, issues: [refused], settings };
  const times = createStageTimes();
  const renderOptions = {
    times,
    specs: settings.specs,
    out: settings.out,
    cwd,
    baseUrl: settings.baseUrl,
    validators: settings.validators,
    cacheDir: (await usableCacheDir(settings, cwd)) ?? undefined,
    failOnBreaking: settings.failOnBreaking,
    trustManifest,
  };
  // Trusted only: the committed manifest answers --check when it shows every input and file as recorded.
  const current =
    mode === "check" && trustManifest === true && renderOptions.cacheDir !== undefined
      ? await readCurrentOutput(renderOptions)
      : undefined;
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
  try {
    const diff = await times.measure("write", () =>
      mode === "check"
        ? diffOutput(outDir, result.files, { waitForLock })
        : writeOutput(outDir, result.files, { waitForLock }),
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
    const issue = outputIssue(error, settings.out, cwd);
    if (issue === undefined) throw error;
    return { ok: false, issues: [issue], settings };
  }
}

/**
 * The output folder may not be a link: flowgen never writes through one. When it lies in the
 * project as written, it must stay there once the links on its way are followed.
 */
async function checkOutputPlace(
  outDir: string,
  out: string,
  cwd: string,
): Promise<Issue | undefined> {
  try {
    await refuseLinkedFolder(outDir);
  } catch (error) {
    const issue = outputIssue(error, out, cwd);
    if (issue === undefined) throw error;
    return issue;
  }
  if (await staysInside(outDir, projectBoundary(outDir, cwd))) return undefined;
  return {
    code: "outside-project",
    file: out,
    message:
      "leads out of the project through a symlink on its way; flowgen writes only inside the project: point --out at a folder in it, or, if you mean the link's target, at the target itself",
  };
}

/** The cache folder, unless it lies in the project as written but leads out of it: then no cache (it only saves time). */
async function usableCacheDir(
  settings: GenerateSettings,
  cwd: string,
): Promise<string | undefined> {
  if (!settings.cache) return undefined;
  const dir = path.resolve(cwd, settings.cacheDir);
  return (await staysInside(dir, projectBoundary(dir, cwd))) ? settings.cacheDir : undefined;
}

function outputIssue(error: unknown, out: string, cwd: string): Issue | undefined {
  if (error instanceof ForeignOutputError)
    return { code: "not-an-output-folder", file: out, message: error.detail };
  if (error instanceof OutputLockedError) {
    const lock = path.relative(cwd, error.lockDir).split(path.sep).join("/");
    return {
      code: "output-locked",
      file: out,
      message: `another flowgen run (pid ${error.pid}) is writing this folder; wait for it to finish, or, if no flowgen runs, remove ${lock}`,
    };
  }
  return undefined;
}
