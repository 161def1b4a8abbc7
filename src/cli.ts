import { createRequire } from "node:module";
import type { Argv, Options } from "yargs";
import {
  findBooleanValueMistakes,
  findExtraDashes,
  findMissingValues,
  findRepeatedValues,
  findShortFlagMistakes,
  findWordsAfterDashes,
} from "./cli/check-argv.js";
import {
  EXIT,
  EXIT_CODES_HELP,
  describeInternalError,
  readOwnPackage,
  type CliContext,
  type Command,
  type Io,
} from "./cli/command.js";
import type { Terminal } from "./cli/terminal.js";
import { diffCommand } from "./cli/diff-command.js";
import { generateCommand } from "./cli/generate-command.js";
import { initCommand } from "./cli/init-command.js";
import { newCommand } from "./cli/new-command.js";
import { serveCommand } from "./cli/serve-command.js";
import { verifyCommand } from "./cli/verify-command.js";
import { commandName, commandWord } from "./cli/command-word.js";
import { explainFailures } from "./cli/usage-failures.js";
import { refuseUsage } from "./cli/usage-refusal.js";

// yargs through require(): its CommonJS build is one file that lays help out with wrap-ansi. Its ES
// module build loads module by module, several times slower on every run (bench/NOTES.md), and
// breaks words where help lines wrap.
const yargs = createRequire(import.meta.url)("yargs") as Argv;

export { EXIT } from "./cli/command.js";

/** Every command, in the order `--help` lists them. A new command goes here. */
const COMMANDS: readonly Command[] = [
  generateCommand,
  serveCommand,
  diffCommand,
  verifyCommand,
  initCommand,
  newCommand,
];

/** Flags every command takes. */
const GLOBAL_OPTIONS = {
  config: {
    type: "string",
    describe:
      "Config file (default: flowgen.config.{ts,mts,js,mjs,json} found from the working directory)",
  },
} as const;

/** yargs' own flags, which every command takes too. */
const BUILT_IN_FLAGS = {
  help: { type: "boolean", alias: "h" },
  version: { type: "boolean", alias: "v" },
} as const;

/** What `main` runs with instead of the process's own: each defaults to the process's. */
export interface MainOptions {
  readonly cwd?: string;
  readonly io?: Io;
  readonly stopped?: (until?: AbortSignal) => Promise<string>;
  /** stderr as a terminal; default `process.stderr` unless `io` is given. */
  readonly terminal?: Terminal;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
}

/** What yargs made of the command line: its messages, the text it printed, the command it chose. */
interface ParseOutcome {
  readonly failures: string[];
  output: string;
  command: Command | undefined;
}

/**
 * The `flowgen` command. Returns the exit code instead of exiting, and takes its working directory
 * and output streams, so tests call it in-process.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  const context = createContext(options);
  const { io } = context;
  const outcome: ParseOutcome = { failures: [], output: "", command: undefined };
  const parser = createParser(outcome, argv);
  try {
    const mistakes = findWordMistakes(argv);
    if (mistakes.length > 0) return refuseUsage(io, argv, mistakes);
    const args = await parser.parseAsync(
      [...argv],
      {},
      (_error, _args, text) => void (outcome.output = text),
    );
    if (outcome.failures.length > 0)
      return refuseUsage(
        io,
        argv,
        explainFailures(outcome.failures, argv, COMMANDS, Object.keys(GLOBAL_OPTIONS)),
      );
    // Help or the version was asked for: yargs printed it, and no command runs.
    if (outcome.output !== "") io.out(outcome.output);
    const { command } = outcome;
    if (command === undefined || outcome.output !== "") return EXIT.ok;
    const flags = { ...GLOBAL_OPTIONS, ...command.options };
    const wrong = [...findMissingValues(args, flags, argv), ...findRepeatedValues(argv, flags)];
    if (wrong.length > 0) return refuseUsage(io, argv, wrong);
    return await command.run(args, context);
  } catch (error) {
    io.err(describeInternalError(error));
    return EXIT.internal;
  }
}

function createContext(options: MainOptions): CliContext {
  return {
    cwd: options.cwd ?? process.cwd(),
    io: options.io ?? defaultIo(),
    stopped: options.stopped ?? waitForSignal,
    terminal: options.terminal ?? (options.io === undefined ? process.stderr : undefined),
    env: options.env ?? process.env,
    now: options.now,
  };
}

/** The yargs parser of every command, which records into `outcome` instead of running or exiting. */
function createParser(outcome: ParseOutcome, argv: readonly string[]): Argv {
  const parser = yargs()
    .scriptName("flowgen")
    .usage("$0 <command> [options]")
    .options(GLOBAL_OPTIONS)
    .demandCommand(1, `Name a command: ${COMMANDS.map(commandName).join(", ")}`)
    .strict()
    .epilogue(EXIT_CODES_HELP)
    .help()
    .alias("help", "h")
    .version(readOwnPackage().version)
    .alias("version", "v")
    .fail((message, error) => {
      if (error) throw error;
      outcome.failures.push(message);
    })
    .exitProcess(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100));
  if (!asksForHelp(argv)) skipHelpCache(parser);
  // Only remember the choice (yargs builds the options of the command it chose): the command runs
  // after yargs has accepted the whole line.
  for (const command of COMMANDS) {
    parser.command(command.usage, command.describe, (y) => {
      outcome.command = command;
      return describeCommand(y, command);
    });
  }
  return parser;
}

/**
 * yargs renders the chosen command's whole help text after every parse (`cacheHelpMessage`), to
 * print it should the command fail later; laying it out is most of a parse's time. flowgen prints
 * its own failures, never that text, so a line that does not ask for help skips it. The hook is
 * yargs' own, not in its typings: without it, yargs renders the text as before.
 */
function skipHelpCache(parser: Argv): void {
  const internal = parser as unknown as {
    getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
  };
  const usage = internal.getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
}

/** Whether the command line asks for help, which yargs prints (`--help`, `-h`). */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/**
 * Words in `argv` that yargs would misread or drop, for the command it names: single-dash words it
 * would take for short flags (`-check`), words with three dashes (`---check`), boolean flags with
 * a value it would take for false (`--check=1`), and words after `--`, which no command reads.
 */
function findWordMistakes(argv: readonly string[]): string[] {
  const typed = COMMANDS.find((command) => commandName(command) === commandWord(argv));
  const flags = { ...GLOBAL_OPTIONS, ...typed?.options };
  return [
    ...findShortFlagMistakes(argv, flags, shortFlagsOf(flags)),
    ...findExtraDashes(argv, { ...BUILT_IN_FLAGS, ...flags }),
    ...findBooleanValueMistakes(argv, { ...BUILT_IN_FLAGS, ...flags }),
    ...findWordsAfterDashes(argv, typed === undefined ? undefined : commandName(typed)),
  ];
}

/** The one-letter flags: help and version, and the aliases a command declares (`-w`). */
function shortFlagsOf(flags: Readonly<Record<string, Options>>): string[] {
  const aliases = Object.values(flags).flatMap((flag): readonly string[] => {
    const alias: unknown = flag.alias;
    if (typeof alias === "string") return [alias];
    return Array.isArray(alias) ? alias.filter((name) => typeof name === "string") : [];
  });
  return ["h", "v", ...aliases.filter((alias) => alias.length === 1)];
}

function describeCommand(y: Argv, command: Command): Argv {
  let built = y.options(command.options).epilogue(command.epilogue ?? EXIT_CODES_HELP);
  for (const [name, positional] of Object.entries(command.positionals ?? {}))
    built = built.positional(name, positional);
  for (const [a, b] of Object.entries(command.conflicts ?? {})) built = built.conflicts(a, b);
  for (const [example, meaning] of command.examples ?? []) built = built.example(example, meaning);
  return built;
}

function waitForSignal(until?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      release();
      resolve(signal);
    };
    const release = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      until?.removeEventListener("abort", release);
    };
    if (until?.aborted === true) return;
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    until?.addEventListener("abort", release, { once: true });
  });
}

function defaultIo(): Io {
  return {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
}
