import type { Options } from "yargs";

/**
 * One flag a command (or every command) takes, as yargs declares it, and a value to show in a
 * usage message when its `defaultDescription` is prose rather than a value (`random, printed`).
 */
export interface FlagTable {
  readonly [name: string]: Options & { readonly example?: string };
}

/**
 * Single-dash words yargs would read as a bundle of short flags: `-check` is `-c -h -e -c -k`,
 * and the `-h` in it prints help and exits 0, so a CI step with that typo would pass without
 * checking anything. A bundle is accepted only when every letter in it is a short flag the command
 * knows (`-h`, `-v`, `-w`); anything else is refused, naming the word and, when it is a long flag
 * written with one dash, the flag meant. Arguments after `--` are not flags; a value such as
 * `-1` is not a word.
 *
 * @example
 * findShortFlagMistakes(["generate", "-check"], flags, ["h", "v"]); // ['-check is not an option; did you mean --check?']
 */
export function findShortFlagMistakes(
  argv: readonly string[],
  flags: FlagTable,
  shortNames: readonly string[],
): string[] {
  const mistakes: string[] = [];
  for (const arg of argv) {
    if (arg === "--") break;
    const word = /^-([A-Za-z][^=]*)(=.*)?$/.exec(arg)?.[1];
    if (word === undefined) continue;
    if ([...word].every((letter) => shortNames.includes(letter))) continue;
    const long = Object.keys(flags).find((name) => name === word);
    mistakes.push(
      long === undefined
        ? `-${word} is not an option (short options are ${shortNames.map((name) => `-${name}`).join(", ")}); write long options with two dashes`
        : `-${word} is not an option; did you mean --${long}?`,
    );
  }
  return mistakes;
}

/**
 * Flags that take a value but were given none (`--specs` last on the line, or followed by another
 * flag: yargs reads an empty string, and an empty specs folder is the whole project), and number
 * flags whose value is not a number (`--port abc`: yargs reads NaN). `args` is what yargs parsed;
 * `argv` the words typed, to quote the value.
 *
 * @example
 * findMissingValues({ specs: "" }, { specs: { type: "string" } }, ["generate", "--specs"]); // ["--specs needs a value …"]
 */
export function findMissingValues(
  args: Readonly<Record<string, unknown>>,
  flags: FlagTable,
  argv: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [name, flag] of Object.entries(flags)) {
    if (flag.type === "boolean" || (flag.type === undefined && flag.choices === undefined))
      continue;
    const value = args[name];
    const values: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
    const shown = flag.example ?? flag.defaultDescription;
    const example = shown === undefined ? "" : `, such as --${name} ${shown}`;
    const typed = typedValues(argv, name);
    if (typed.includes(undefined) || values.some((item) => item === "")) {
      problems.push(`--${name} needs a value${example}`);
      continue;
    }
    if (flag.type === "number" && values.some((item) => Number.isNaN(item))) {
      const word = typed.find((item) => item !== undefined && Number.isNaN(Number(item)));
      problems.push(`--${name} must be a number, not ${JSON.stringify(word ?? "")}${example}`);
    }
  }
  return problems;
}

/**
 * The words typed as values of `--name`, one per time it is given (`--name value`, `--name=value`);
 * undefined for a time it is given no value: last on the line, or followed by another flag.
 */
function typedValues(argv: readonly string[], name: string): (string | undefined)[] {
  const found: (string | undefined)[] = [];
  const end = argv.indexOf("--");
  const words = end === -1 ? argv : argv.slice(0, end);
  words.forEach((arg, i) => {
    if (arg.startsWith(`--${name}=`)) {
      const value = arg.slice(name.length + 3);
      found.push(value === "" ? undefined : value);
    } else if (arg === `--${name}`) {
      const next = words[i + 1];
      found.push(next === undefined || /^--?[A-Za-z]/.test(next) ? undefined : next);
    }
  });
  return found;
}
