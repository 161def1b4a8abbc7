import type { CheckResult, GenerateResult } from "../api/generate.js";
import { sortIssues, type Issue } from "../issues.js";

/**
 * `flowgen generate --json` (and `--check --json`): everything a CI step needs from a run, as one
 * JSON object on stdout. Paths are relative to the output folder, problems as the text report has
 * them; the shape is stable, so a step can read it with `jq`.
 */
export interface GenerateSummary {
  readonly command: "generate";
  readonly check: boolean;
  /** The exit code flowgen ends with: 0 success, 1 stale, 2 problems, 4 breaking, 130 or 143 stopped. */
  readonly exitCode: number;
  /** The signal that stopped the run (Ctrl-C: SIGINT), when one did. */
  readonly stoppedBy?: string | undefined;
  /** With `check`: whether the output folder is what the specs give. */
  readonly upToDate?: boolean;
  /** The output folder, relative to the working directory; absent when the settings were not read. */
  readonly out?: string;
  readonly flows?: number;
  /** What was (with `check`: would be) added, changed and removed; how many files were already right. */
  readonly files?: {
    readonly added: readonly string[];
    readonly changed: readonly string[];
    readonly removed: readonly string[];
    readonly unchanged: number;
  };
  readonly problems: readonly Issue[];
  readonly warnings: readonly Issue[];
  /** With a contract change: how many changes break callers, of how many. */
  readonly contract?: { readonly breaking: number; readonly changes: number };
  readonly seconds: number;
}

/**
 * The summary of a generate or check run that ended with `exitCode`.
 *
 * @example
 * io.out(JSON.stringify(summarizeGenerate(result, { check: true, exitCode, seconds, out })));
 */
export function summarizeGenerate(
  result: GenerateResult | CheckResult,
  run: {
    readonly check: boolean;
    readonly exitCode: number;
    readonly seconds: number;
    readonly out: string | undefined;
  },
): GenerateSummary {
  const contract =
    result.contract === undefined
      ? {}
      : {
          contract: {
            breaking: result.contract.breaking,
            changes: result.contract.changes.length,
          },
        };
  const common = {
    command: "generate" as const,
    check: run.check,
    exitCode: run.exitCode,
    ...(run.out === undefined ? {} : { out: run.out }),
  };
  const seconds = Math.round(run.seconds * 100) / 100;
  if (!result.ok)
    return {
      ...common,
      problems: sortIssues(result.issues),
      warnings: sortIssues(result.warnings ?? []),
      ...contract,
      seconds,
    };
  const { added, changed, removed, unchanged } = result.diff;
  return {
    ...common,
    ...("upToDate" in result ? { upToDate: result.upToDate } : {}),
    flows: result.flowCount,
    files: { added, changed, removed, unchanged },
    problems: [],
    warnings: sortIssues(result.warnings),
    ...contract,
    seconds,
  };
}
