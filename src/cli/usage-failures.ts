// What flowgen says of a command line yargs refused: its messages, with the flag or command
// most likely meant.
import { distance } from "fastest-levenshtein";
import type { Command } from "./command.js";
import { commandName, commandWord } from "./command-word.js";

/**
 * yargs' messages, with the nearest known flag after each unknown one, or the command meant.
 * `globalOptions`: the names of the flags every command takes besides help and version.
 *
 * @example
 * explainFailures(["Unknown argument: chek"], ["generate", "--chek"], COMMANDS, ["config"]);
 */
export function explainFailures(
  failures: readonly string[],
  argv: readonly string[],
  commands: readonly Command[],
  globalOptions: readonly string[],
): string[] {
  const names = commands.map((candidate) => commandName(candidate));
  const first = commandWord(argv);
  const command = commands.find((_candidate, i) => names[i] === first);
  if (command === undefined && first !== undefined) {
    const near = nearestCommand(first, names);
    return [
      `${JSON.stringify(first)} is not a command${near === undefined ? "." : `; did you mean ${near}?`} The commands are: ${names.join(", ")}.`,
    ];
  }
  const known = [...globalOptions, "help", "version", ...Object.keys(command?.options ?? {})];
  return withoutPositionalFailures(failures, command).map((message) => {
    // yargs says "Invalid values:\n  Argument: format, Given: "xml", Choices: "text", …" on two lines.
    const invalid = /^Invalid values:\s+Argument: ([\w-]+), Given: (.+), Choices: (.+)$/.exec(
      message,
    );
    if (invalid !== null) return `--${invalid[1]} must be one of ${invalid[3]}, not ${invalid[2]}`;
    const unknown = /^Unknown arguments?: (.+)$/.exec(message)?.[1]?.split(", ");
    if (unknown === undefined || command === undefined) return message;
    const hints = unknown.flatMap((name) => {
      const near = known
        .filter((flag) => distance(flag, name) <= Math.max(2, Math.floor(name.length / 3)))
        .sort((a, b) => distance(a, name) - distance(b, name));
      return near[0] === undefined ? [] : [`--${name}: did you mean --${near[0]}?`];
    });
    return [message, ...hints].join("\n");
  });
}

/**
 * A positional left out: yargs says so twice ("Not enough non-option arguments", "Missing required
 * argument: flow"); one line says it, with what to give.
 */
function withoutPositionalFailures(
  failures: readonly string[],
  command: Command | undefined,
): string[] {
  const positionals = Object.entries(command?.positionals ?? {});
  const counted = failures.some((message) => message.startsWith("Not enough non-option arguments"));
  if (command === undefined || positionals.length === 0 || !counted) return [...failures];
  const theirs = (message: string) =>
    message.startsWith("Not enough non-option arguments") ||
    positionals.some(([name]) => message === `Missing required argument: ${name}`);
  const needs = positionals.map(([name, positional]) => {
    const what = positional.describe ?? "";
    return `<${name}> (${what.charAt(0).toLowerCase()}${what.slice(1)})`;
  });
  return [
    `${commandName(command)} needs ${needs.join(" and ")}: flowgen ${command.usage}`,
    ...failures.filter((message) => !theirs(message)),
  ];
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
