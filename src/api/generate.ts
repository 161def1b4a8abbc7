import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { needsModuleMarker } from "../config/module-marker.js";
import { resolveGenerateSettings, type GenerateSettings } from "../config/resolve-settings.js";
import {
  readCurrentOutput,
  renderProject,
  type GenerateOptions as RenderOptions,
  type RenderResult,
} from "../generate.js";
import type { DiffReport } from "../diff/contract-diff.js";
import { triageIssues, type Issue } from "../issues.js";
import { checkRuntimeDependency } from "../scaffold/runtime-dependency.js";
import {
  createStageTimes,
  type Stage,
  type StageObserver,
  type StageTimes,
} from "../stage-times.js";
import type { KeptWorkers } from "../workers/stage-pool.js";
import type { OutputFile } from "../output-file.js";
import { checkOutputPlace, outputIssue, usableCacheDir } from "./output-place.js";
import { diffOutput, writeOutput, type OutputDiff } from "../write/write-output.js";

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
  /** Told which stage the run is in and how many files are done, as it runs (a progress line). */
  readonly onProgress?: StageObserver | undefined;
  /**
   * Stops the run (the CLI aborts it on Ctrl-C and SIGTERM) where that leaves the output folder
   * whole: rendering is abandoned, a write in progress is finished or rolled back, and the lock
   * and the folders written beside the output folder are removed. The call then rejects with the
   * signal's reason; a write done before the run saw the signal is returned as usual.
   */
  readonly signal?: AbortSignal | undefined;
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
      /** Problems the rules make warnings: printed, and the run went on. */
      readonly warnings: readonly Issue[];
    }
  | {
      readonly ok: false;
      readonly issues: readonly Issue[];
      /** Problems the rules make warnings, found before the run stopped. */
      readonly warnings?: readonly Issue[] | undefined;
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

/**
 * `generate` for a watching run: the worker threads in `workers` stay loaded for the next run.
 *
 * @example
 * const result = await generateKeepingWorkers({ cwd }, keepWorkers());
 */
export async function generateKeepingWorkers(
  options: GenerateOptions,
  workers: KeptWorkers,
): Promise<GenerateResult> {
  return runGenerate(options, "write", workers);
}

async function runGenerate(
  options: GenerateOptions,
  mode: "write" | "check",
  workers?: KeptWorkers,
): Promise<GenerateResult> {
  const {
    cwd = process.cwd(),
    config,
    trustManifest,
    waitForLock,
    onProgress,
    signal,
    ...given
  } = options;
  const settled = await settleSettings(cwd, config, given, mode === "check" ? "read" : "write");
  if (!settled.ok) return settled;
  const { settings, configFile, outDir } = settled;
  const times = createStageTimes(onProgress);
  const renderOptions = {
    ...(await readRenderOptions(settings, cwd, times, trustManifest)),
    workers,
    signal,
  };
  // Before anything renders: a project whose rules make this an error stops here.
  const dependency = triageIssues(await checkRuntimeDependency(cwd, outDir), settings.rules);
  if (dependency.errors.length > 0) return { ok: false, issues: dependency.errors, settings };
  const ran: RunSoFar = { settings, configFile, times, warnings: dependency.warnings };
  // Trusted only: the committed manifest answers --check when it shows every input and file as recorded.
  const current =
    mode === "check" && trustManifest === true && renderOptions.cacheDir !== undefined
      ? await readCurrentOutput(renderOptions)
      : undefined;
  if (current) return answerFromManifest(current, ran);
  const result = await renderProject(renderOptions);
  const warnings = [...ran.warnings, ...(result.warnings ?? [])];
  if (!result.ok) return { ...result, settings, warnings };
  const place = { mode, outDir, cwd, waitForLock, signal };
  return writeRendered(result, { ...ran, warnings }, place);
}

/** What a run has settled before it renders, and the warnings it has so far. */
interface RunSoFar {
  readonly settings: GenerateSettings;
  readonly configFile: string | undefined;
  readonly times: StageTimes;
  readonly warnings: readonly Issue[];
}

/** The settings, from the config file (unless `config` is false) and `given`, and a usable output folder. */
async function settleSettings(
  cwd: string,
  config: string | false | undefined,
  given: Partial<GenerateSettings>,
  doing: "write" | "read",
): Promise<
  | { ok: true; settings: GenerateSettings; configFile: string | undefined; outDir: string }
  | Extract<GenerateResult, { ok: false }>
> {
  const loaded =
    config === false
      ? { ok: true as const, config: {}, file: undefined, root: cwd }
      : await loadConfig(cwd, config);
  if (!loaded.ok) return loaded;
  const resolved = resolveGenerateSettings(loaded, cwd, given);
  if (!resolved.ok) return resolved;
  const { settings } = resolved;
  const outDir = path.resolve(cwd, settings.out);
  const refused = await checkOutputPlace(outDir, settings.out, cwd, doing);
  if (refused !== undefined) return { ok: false, issues: [refused], settings };
  return { ok: true, settings, configFile: loaded.file, outDir };
}

async function readRenderOptions(
  settings: GenerateSettings,
  cwd: string,
  times: StageTimes,
  trustManifest: boolean | undefined,
): Promise<RenderOptions> {
  return {
    times,
    specs: settings.specs,
    out: settings.out,
    cwd,
    baseUrl: settings.baseUrl,
    validators: settings.validators,
    cacheDir: (await usableCacheDir(settings, cwd)) ?? undefined,
    failOnBreaking: settings.failOnBreaking,
    trustManifest,
    rules: settings.rules,
    moduleMarker: await needsModuleMarker(cwd, settings.out),
  };
}

/** `--check` answered by a trusted manifest that shows every file current: nothing to change. */
function answerFromManifest(
  current: { files: OutputFile[]; flowCount: number },
  ran: RunSoFar,
): GenerateResult {
  const diff: OutputDiff = {
    added: [],
    changed: [],
    removed: [],
    unchanged: current.files.length,
    previous: new Map(),
  };
  const { settings, configFile, warnings } = ran;
  const { files, flowCount } = current;
  return {
    ok: true,
    diff,
    files,
    flowCount,
    settings,
    configFile,
    stages: ran.times.totals(),
    warnings,
  };
}

/** Writes the rendered files, or with `check` compares them with the output folder. */
async function writeRendered(
  result: Extract<RenderResult, { ok: true }>,
  ran: RunSoFar,
  place: {
    mode: "write" | "check";
    outDir: string;
    cwd: string;
    waitForLock: number | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<GenerateResult> {
  const { settings, configFile, warnings } = ran;
  const { outDir, waitForLock, signal } = place;
  try {
    const diff = await ran.times.measure("write", () =>
      place.mode === "check"
        ? diffOutput(outDir, result.files, { waitForLock, signal })
        : writeOutput(outDir, result.files, { waitForLock, signal }),
    );
    const { files, flowCount, contract } = result;
    const stages = ran.times.totals();
    return { ok: true, diff, files, flowCount, settings, configFile, contract, stages, warnings };
  } catch (error) {
    if (signal?.aborted === true && error === signal.reason) throw error;
    const doing = place.mode === "check" ? "read" : "write";
    const issue = outputIssue(error, settings.out, place.cwd, doing);
    if (issue === undefined) throw error;
    return { ok: false, issues: [issue], settings, warnings };
  }
}
