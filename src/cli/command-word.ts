import type { Command } from "./command.js";

/** Options every command takes that are followed by a value of their own, as yargs reads them. */
const GLOBAL_VALUE_OPTIONS = new Set(["--config"]);

/**
 * The word of `argv` that names the command: the first that is not a flag nor the value of a
 * global option before it (`flowgen --config c.json generate` names `generate`, as yargs reads
 * it); undefined when there is none before `--`.
 *
 * @example
 * commandWord(["--config", "flowgen.config.json", "generate", "--check"]); // "generate"
 */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? "";
    if (word === "--") return undefined;
    if (GLOBAL_VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith("-")) return word;
  }
  return undefined;
}

/** The command's name: the first word of its usage. */
export function commandName(command: Command): string {
  return command.usage.split(" ")[0] ?? "";
}
