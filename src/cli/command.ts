import { readFileSync } from "node:fs";
import type { PositionalOptions } from "yargs";
import type { Issue, IssueCode } from "../issues.js";
import { formatIssue, sortIssues } from "../issues.js";
import type { Paint, Terminal } from "./terminal.js";
import type { FlagTable } from "./check-argv.js";

/** Exit codes, as documented in docs/cli.md. */
export const EXIT = { ok: 0, stale: 1, invalid: 2, internal: 3, breaking: 4 } as const;

export const EXIT_CODES_HELP =
  "Exit codes: 0 success (or up to date), 1 --check found stale output, 2 invalid specs, config or usage, 3 internal error (a bug: please report it with the stack), 4 --fail-on-breaking found a change that breaks callers.";

export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** What a command runs with: never `process.cwd()` or `process.stdout` directly, so tests run it in-process. */
export interface CliContext {
  readonly cwd: string;
  readonly io: Io;
  /**
   * Resolves with the signal's name when the command should stop (SIGINT, SIGTERM): serve and
   * --watch wait for it, a one-shot generate listens while it runs. Once `until` aborts, the signals
   * are no longer caught and the promise never settles.
   */
  readonly stopped: (until?: AbortSignal) => Promise<string>;
  /** stderr as a terminal, when it is one: where a progress line goes, and whether colour may. */
  readonly terminal?: Terminal | undefined;
  /** The environment (`CI`, `NO_COLOR`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since a fixed point, for the progress line; tests inject a clock. */
  readonly now?: (() => number) | undefined;
}

/**
 * One `flowgen` command. `main` registers it with yargs, which only parses: `run` starts after the
 * whole command line was accepted, so a mistyped flag stops everything before anything runs.
 * A new command is a file exporting one of these, added to `COMMANDS` in `src/cli.ts`.
 */
export interface Command {
  /** yargs command string: "generate", "new <flow>". */
  readonly usage: string;
  readonly describe: string;
  readonly positionals?: Readonly<Record<string, PositionalOptions>>;
  /** Flags, kebab-case. No `default`: a flag not given leaves the config file's value in place (show it with `defaultDescription`). */
  readonly options: FlagTable;
  readonly examples?: readonly (readonly [string, string])[];
  /** Text under the command's --help; default EXIT_CODES_HELP (a command whose exit codes differ says so here). */
  readonly epilogue?: string;
  readonly conflicts?: Readonly<Record<string, string | string[]>>;
  run(args: Readonly<Record<string, unknown>>, context: CliContext): Promise<number>;
}

/**
 * Prints the issues in a stable order and the summary line; returns the exit code for them.
 *
 * @example
 * return reportIssues(io, result.issues, (count) => `flowgen: ${count}; nothing was written.`);
 */
export function reportIssues(
  io: Io,
  issues: readonly Issue[],
  summary: (count: string) => string,
  paint?: Paint,
): number {
  const sorted = sortIssues(issues);
  for (const issue of sorted) io.err(paintIssue(formatIssue(issue), paint?.red));
  io.err(summary(plural(sorted.length, "problem")));
  return EXIT.invalid;
}

/**
 * Prints problems the rules make warnings, each marked as one; they do not change the exit code.
 *
 * @example
 * reportWarnings(io, result.warnings, paint);
 */
export function reportWarnings(io: Io, warnings: readonly Issue[], paint?: Paint): void {
  for (const warning of sortIssues(warnings))
    io.err(`${paint?.yellow("warning") ?? "warning"}: ${formatIssue(warning)}`);
}

/** The `[code]` before the link that ends an issue's line, in colour. */
function paintIssue(line: string, colour: ((text: string) => string) | undefined): string {
  if (colour === undefined) return line;
  return line.replace(/\[[a-z-]+\](?= \S+$)/, (code) => colour(code));
}

/** Problems with the config, the options, the output folder or the project, not the specs. */
const NOT_ABOUT_SPECS = new Set<IssueCode>([
  "invalid-config",
  "invalid-option",
  "overlapping-folders",
  "not-an-output-folder",
  "output-locked",
  "output-unwritable",
  "outside-project",
  "missing-dependency",
]);

/**
 * " in specs" when some issue is about the specs, else "": config and option problems are not.
 *
 * @example
 * `flowgen: 2 problems${whereIssues(issues, "specs")}; nothing was written.`
 */
export function whereIssues(issues: readonly Issue[], specs: string | undefined): string {
  const aboutSpecs = issues.some((issue) => !NOT_ABOUT_SPECS.has(issue.code));
  return aboutSpecs && specs !== undefined ? ` in ${specs}` : "";
}

/**
 * The flags given, under their camelCase names (yargs adds those: `--base-url` is `baseUrl`), typed
 * as the settings they set; yargs has checked each value's type. A flag not given is absent, so the
 * config file's value shows through.
 *
 * @example
 * const given = pickFlags<GenerateOptions>(args, ["specs", "out", "baseUrl"]);
 */
export function pickFlags<T extends object>(
  args: Readonly<Record<string, unknown>>,
  keys: readonly (keyof T & string)[],
): Partial<T> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (args[key] !== undefined) picked[key] = args[key];
  return picked as Partial<T>;
}

/**
 * A count and its noun, singular for one: "1 flow", "2 flows".
 *
 * @example
 * plural(1, "file"); // "1 file"
 */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** flowgen's own package.json: yargs alone would read the package.json of the project flowgen is installed in. */
export function readOwnPackage(): { readonly version: string; readonly bugs: string } {
  const manifest = JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  ) as { version: string; bugs?: { url?: string } };
  return { version: manifest.version, bugs: manifest.bugs?.url ?? "flowgen's issue tracker" };
}

/**
 * The report of an exception that is a bug in flowgen, not a mistake in the input: where to report
 * it, and the stack.
 *
 * @example
 * io.err(describeInternalError(error));
 */
export function describeInternalError(error: unknown, after = ""): string {
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `flowgen: internal error (a bug in flowgen; please report it at ${readOwnPackage().bugs} with this output)${after}:\n${stack}`;
}
