import { formatIssue, type Issue } from "../issues.js";
import { EXIT, type Io } from "./command.js";
import { commandWord } from "./command-word.js";
import { summarizeGenerate } from "./generate-summary.js";

/**
 * Refuses a command line, before anything ran: each mistake as an `invalid-option` problem, then
 * where help is; exit 2. `generate --json` promises one JSON object on stdout and nothing on
 * stderr, so there the mistakes are that summary's problems, as a config or spec problem would
 * be: a CI step reading it (`jq '.problems'`) sees the mistyped flag instead of an empty file.
 *
 * @example
 * return refuseUsage(io, argv, ["--specs needs a value, such as --specs specs"]);
 */
export function refuseUsage(io: Io, argv: readonly string[], mistakes: readonly string[]): number {
  // "flowgen" in the place of a file: the line reads "flowgen: <mistake>", in text and in JSON.
  const problems = mistakes.map((message): Issue => ({
    code: "invalid-option",
    file: "flowgen",
    message,
  }));
  if (commandWord(argv) === "generate" && isOn(argv, "json")) {
    const run = { check: isOn(argv, "check"), exitCode: EXIT.invalid, seconds: 0, out: undefined };
    io.out(JSON.stringify(summarizeGenerate({ ok: false, issues: problems }, run), null, 2));
    return EXIT.invalid;
  }
  for (const problem of problems) io.err(formatIssue(problem));
  io.err("Run flowgen --help for usage.");
  return EXIT.invalid;
}

/**
 * Whether the line turns a boolean flag on, read from its words as typed: the line may be one
 * yargs refused. The last of `--name`, `--name=value` and `--no-name` before `--` counts; any value
 * but `false` asks for it (`--json=1` is refused, as JSON, since JSON was what it asked for).
 */
function isOn(argv: readonly string[], name: string): boolean {
  const end = argv.indexOf("--");
  const words = end === -1 ? argv : argv.slice(0, end);
  const last = words
    .filter(
      (word) => word === `--${name}` || word.startsWith(`--${name}=`) || word === `--no-${name}`,
    )
    .at(-1);
  return last !== undefined && last !== `--no-${name}` && last !== `--${name}=false`;
}
