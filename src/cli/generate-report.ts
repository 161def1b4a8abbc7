import path from "node:path";
import { countChanges, type CheckResult, type GenerateResult } from "../api/generate.js";
import type { DiffReport } from "../diff/contract-diff.js";
import { formatDiffReport } from "../diff/diff-report.js";
import { withCode } from "../issues.js";
import type { OutputFile } from "../output-file.js";
import { WRITING_MARKER, type OutputDiff } from "../write/write-output.js";
import { describeLineEnds, readLineEnds } from "./line-ends.js";
import { EXIT, plural, reportIssues, reportWarnings, whereIssues, type Io } from "./command.js";
import type { Paint } from "./terminal.js";

/** How a finished generate or check run is told. */
export interface ReportOptions {
  readonly check: boolean;
  readonly cwd: string;
  readonly paint: Paint;
  /** `--quiet`: problems and a stale folder only; no warnings, no success line. */
  readonly quiet: boolean;
  /** `--verbose`: also the time each stage took. */
  readonly verbose: boolean;
  readonly seconds: number;
}

/**
 * The exit code of a run: 4 when a breaking change refused it, 2 for problems, 1 when `--check`
 * found the folder stale, else 0.
 *
 * @example
 * return exitCodeOf(await check(options));
 */
export function exitCodeOf(result: GenerateResult | CheckResult): number {
  if (!result.ok) return result.contract ? EXIT.breaking : EXIT.invalid;
  return "upToDate" in result && !result.upToDate ? EXIT.stale : EXIT.ok;
}

/**
 * Prints what a generate or check run did, for people: warnings, then the problems or the result.
 *
 * @example
 * await reportRun(io, result, { check: false, cwd, paint, quiet: false, verbose: false, seconds });
 */
export async function reportRun(
  io: Io,
  result: GenerateResult | CheckResult,
  options: ReportOptions,
): Promise<void> {
  const { cwd, paint } = options;
  if (!options.quiet) reportWarnings(io, result.warnings ?? [], paint);
  if (!result.ok && result.contract) {
    reportBreaking(io, result.contract);
    return;
  }
  const nothing = options.check ? "nothing was checked" : "nothing was written";
  if (!result.ok) {
    reportIssues(
      io,
      result.issues,
      (count) =>
        `flowgen: ${count}${whereIssues(result.issues, result.settings?.specs)}; ${nothing}.`,
      paint,
    );
    return;
  }
  if (!options.check && !options.quiet && result.contract && result.contract.changes.length > 0)
    io.out(formatDiffReport(result.contract, "text").trimEnd());
  if (options.verbose) reportStages(io, result.stages);
  const outDisplay = displayPath(cwd, result.settings.out);
  if ("upToDate" in result && !result.upToDate) {
    await reportStale(result.diff, outDisplay, result.files, io);
    return;
  }
  if (options.quiet) return;
  io.out(
    options.check
      ? `flowgen: ${outDisplay} is up to date (${plural(result.files.length, "file")}, ${plural(result.flowCount, "flow")}).`
      : describeWrite(cwd, result, options.seconds),
  );
}

/**
 * `flowgen: 2 flows → generated: 1 added, 0 changed, 0 removed, 14 unchanged (0.41s)`
 *
 * @example
 * io.out(describeWrite(cwd, result, 0.41));
 */
export function describeWrite(
  cwd: string,
  result: Extract<GenerateResult, { ok: true }>,
  seconds: number,
): string {
  const { diff } = result;
  return `flowgen: ${plural(result.flowCount, "flow")} → ${displayPath(cwd, result.settings.out)}: ${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged (${seconds.toFixed(2)}s)`;
}

/**
 * A path relative to the working directory, with forward slashes.
 *
 * @example
 * displayPath("/app", "generated"); // "generated"
 */
export function displayPath(cwd: string, relative: string): string {
  return path.relative(cwd, path.resolve(cwd, relative)).split(path.sep).join("/") || ".";
}

/** `--verbose`: one line per stage that ran, with the time during which it was running. */
export function reportStages(io: Io, stages: readonly (readonly [string, number])[]): void {
  for (const [stage, ms] of stages)
    io.err(`flowgen: ${stage.padEnd(9)} ${(ms / 1000).toFixed(3)}s`);
}

/** `--fail-on-breaking` refused: the contract report. */
function reportBreaking(io: Io, contract: DiffReport): void {
  io.err(formatDiffReport(contract, "text").trimEnd());
  io.err(
    withCode(
      `flowgen: ${plural(contract.breaking, "change")} would break callers; nothing was written (--fail-on-breaking).`,
      "breaking-change",
    ),
  );
}

async function reportStale(
  diff: OutputDiff,
  outDisplay: string,
  files: readonly OutputFile[],
  io: Io,
): Promise<void> {
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  const committed = new Map(diff.changed.map((p) => [p, readLineEnds(diff.previous.get(p) ?? "")]));
  // CRLF alone is no change of content: said once, and left out of the short diffs.
  const lineEndsOnly = new Set(
    diff.changed.filter((p) => committed.get(p)?.text === byPath.get(p)),
  );
  const count = countChanges(diff);
  const differ = `${plural(count, "file")} ${count === 1 ? "differs" : "differ"} from the specs`;
  io.err(
    lineEndsOnly.size === count
      ? `flowgen: ${outDisplay} is stale: ${differ}, in their line ends only.`
      : `flowgen: ${outDisplay} is stale: ${differ}. Run flowgen generate and commit the result.`,
  );
  for (const p of diff.added) io.err(`  missing  ${outDisplay}/${p}`);
  for (const p of diff.changed)
    io.err(`  changed  ${outDisplay}/${p}${lineEndsOnly.has(p) ? " (line ends only)" : ""}`);
  for (const p of diff.removed) io.err(`  extra    ${outDisplay}/${p}`);
  if (diff.removed.includes(WRITING_MARKER))
    io.err(
      `flowgen: a flowgen run was stopped (killed, or the machine went down) while it replaced files in ${outDisplay}; flowgen generate finishes the job and removes ${WRITING_MARKER}.`,
    );
  const crlf = diff.changed.filter((p) => committed.get(p)?.crlf === true).length;
  if (crlf > 0) io.err(describeLineEnds(outDisplay, crlf, lineEndsOnly.size));
  // Loaded here: a run that finds nothing stale never needs the diff library.
  const { shortDiff } = await import("../write/short-diff.js");
  for (const p of diff.changed.filter((changed) => !lineEndsOnly.has(changed)).slice(0, 3))
    io.err(shortDiff(`${outDisplay}/${p}`, committed.get(p)?.text ?? "", byPath.get(p) ?? ""));
}
