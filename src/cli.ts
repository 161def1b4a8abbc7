import { readFileSync } from "node:fs";
import yargs, { type Argv } from "yargs";
import { distance } from "fastest-levenshtein";
import { EXIT, EXIT_CODES_HELP, type CliContext, type Command, type Io } from "./cli/command.js";
import { withCode } from "./issues.js";
import { diffCommand } from "./cli/diff-command.js";
import { generateCommand } from "./cli/generate-command.js";
import { initCommand } from "./cli/init-command.js";
import { newCommand } from "./cli/new-command.js";
import { serveCommand } from "./cli/serve-command.js";
import { verifyCommand } from "./cli/verify-command.js";

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

/**
 * The `flowgen` command. Returns the exit code instead of exiting, and takes its working directory
 * and output streams, so tests call it in-process.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(
  argv: readonly string[],
  options: {
    readonly cwd?: string;
    readonly io?: Io;
    readonly stopped?: () => Promise<string>;
  } = {},
): Promise<number> {
  const context: CliContext = {
    cwd: options.cwd ?? process.cwd(),
    io: options.io ?? defaultIo(),
    stopped: options.stopped ?? waitForSignal,
  };
  const { io } = context;
  const failures: string[] = [];
  let chosen: { command: Command; args: Record<string, unknown> } | undefined;
  const parser = yargs()
    .scriptName("flowgen")
    .usage("$0 <command> [options]")
    .options(GLOBAL_OPTIONS)
    .demandCommand(
      1,
      `Name a command: ${COMMANDS.map((command) => command.usage.split(" ")[0]).join(", ")}`,
    )
    .strict()
    .epilogue(EXIT_CODES_HELP)
    .help()
    .alias("help", "h")
    .version(readOwnVersion())
    .alias("version", "v")
    .fail((message, error) => {
      if (error) throw error;
      failures.push(message);
    })
    .exitProcess(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100));
  for (const command of COMMANDS) {
    parser.command(
      command.usage,
      command.describe,
      (y) => describeCommand(y, command),
      // Only remember the choice: the command runs after yargs has accepted the whole line.
      (args) => void (chosen = { command, args }),
    );
  }
  let output = "";
  try {
    await parser.parseAsync([...argv], {}, (_error, _args, text) => void (output = text));
    if (failures.length > 0) {
      for (const line of explainFailures(failures, argv)) io.err(withCode(line, "invalid-option"));
      io.err("Run flowgen --help for usage.");
      return EXIT.invalid;
    }
    if (output !== "") io.out(output);
    return chosen === undefined ? EXIT.ok : await chosen.command.run(chosen.args, context);
  } catch (error) {
    io.err(
      `flowgen: internal error (a bug in flowgen; please report it with this output):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return EXIT.internal;
  }
}

function describeCommand(y: Argv, command: Command): Argv {
  let built = y.options(command.options).epilogue(command.epilogue ?? EXIT_CODES_HELP);
  for (const [name, positional] of Object.entries(command.positionals ?? {}))
    built = built.positional(name, positional);
  for (const [a, b] of Object.entries(command.conflicts ?? {})) built = built.conflicts(a, b);
  for (const [example, meaning] of command.examples ?? []) built = built.example(example, meaning);
  return built;
}

/** yargs' messages, with the nearest known flag after each unknown one. */
function explainFailures(failures: readonly string[], argv: readonly string[]): string[] {
  const names = COMMANDS.map((candidate) => candidate.usage.split(" ")[0] ?? "");
  const command = COMMANDS.find((_candidate, i) => names[i] === argv[0]);
  const first = argv[0];
  if (command === undefined && first !== undefined && !first.startsWith("-")) {
    const near = nearestCommand(first, names);
    return [
      `flowgen: ${JSON.stringify(first)} is not a command${near === undefined ? "." : `; did you mean ${near}?`} The commands are: ${names.join(", ")}.`,
    ];
  }
  const known = [
    ...Object.keys(GLOBAL_OPTIONS),
    "help",
    "version",
    ...Object.keys(command?.options ?? {}),
  ];
  return failures.map((message) => {
    const unknown = /^Unknown arguments?: (.+)$/.exec(message)?.[1]?.split(", ");
    if (unknown === undefined || command === undefined) return `flowgen: ${message}`;
    const hints = unknown.flatMap((name) => {
      const near = known
        .filter((flag) => distance(flag, name) <= Math.max(2, Math.floor(name.length / 3)))
        .sort((a, b) => distance(a, name) - distance(b, name));
      return near[0] === undefined ? [] : [`--${name}: did you mean --${near[0]}?`];
    });
    return [`flowgen: ${message}`, ...hints].join("\n");
  });
}

/** The command a mistyped one most likely meant: one it begins (`gen` → generate), else the closest by edit distance. */
function nearestCommand(typed: string, names: readonly string[]): string | undefined {
  const prefixed = names.find((name) => name.startsWith(typed) || typed.startsWith(name));
  if (prefixed !== undefined) return prefixed;
  const near = names
    .filter((name) => distance(name, typed) <= Math.max(2, Math.floor(typed.length / 3)))
    .sort((a, b) => distance(a, typed) - distance(b, typed));
  return near[0];
}

/** flowgen's own version: yargs alone would read the package.json of the project flowgen is installed in. */
function readOwnVersion(): string {
  return (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
}

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

function defaultIo(): Io {
  return {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
}
