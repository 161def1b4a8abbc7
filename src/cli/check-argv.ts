import type { Options } from "yargs";

/**
 * One flag a command (or every command) takes, as yargs declares it, and a value to show in a
 * usage message when its `defaultDescription` is prose rather than a value (`random, printed`).
 * `repeatable`: the flag may be given more than once, each time with a value of its own
 * (`--from-sample a.json --from-sample b.json`); every other flag that takes a value, once.
 */
export interface FlagTable {
  readonly [name: string]: Options & { readonly example?: string; readonly repeatable?: boolean };
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
  for (const arg of beforeDashes(argv)) {
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
 * Words with more than two dashes (`---check`): yargs reads `---check` as the unknown flags
 * `-check` and `check`, and the hint then offered `--check: did you mean --check?`. Said as it is:
 * the dashes are too many, and, when the rest names a flag, the flag to write.
 *
 * @example
 * findExtraDashes(["generate", "---check"], { check: { type: "boolean" } }); // ["---check has 3 dashes; write --check"]
 */
export function findExtraDashes(argv: readonly string[], flags: FlagTable): string[] {
  return beforeDashes(argv).flatMap((arg) => {
    const match = /^(-{3,})([A-Za-z][^=]*)(=.*)?$/s.exec(arg);
    if (match === null) return [];
    const [, dashes = "", name = "", value = ""] = match;
    const word = `${dashes}${name}`;
    const known = Object.keys(flags).some(
      (flag) => name === flag || name === camelCase(flag) || name === `no-${flag}`,
    );
    return [
      known
        ? `${word} has ${dashes.length} dashes; write --${name}${value}`
        : `${word} has ${dashes.length} dashes, and --${name} is not an option either; long options take two dashes (--help lists them)`,
    ];
  });
}

/**
 * Boolean flags given a value other than `true` or `false` (`--check=1`, `--check=yes`, `-w=on`):
 * yargs reads every such value as false, so `generate --check=1` would write instead of checking
 * and a CI step with it would pass, as the `-check` typo would. `--no-check` takes no value at all.
 * Names are matched as yargs matches them: kebab-case, camelCase, or a one-letter alias.
 *
 * @example
 * findBooleanValueMistakes(["generate", "--check=1"], { check: { type: "boolean" } }); // ['--check is on or off, not "1": …']
 */
export function findBooleanValueMistakes(argv: readonly string[], flags: FlagTable): string[] {
  const mistakes: string[] = [];
  for (const arg of beforeDashes(argv)) {
    const match = /^(--?)([^=]+)=(.*)$/s.exec(arg);
    if (match === null) continue;
    const [, dashes = "", typed = "", value = ""] = match;
    // `-wq=1` gives the value to its last letter, as yargs does.
    const written = dashes === "-" ? typed.slice(-1) : typed;
    const negated = dashes === "--" && written.startsWith("no-");
    const name = findBooleanFlag(negated ? written.slice(3) : written, flags);
    if (name === undefined) continue;
    if (negated)
      mistakes.push(
        `--no-${name} takes no value, not ${JSON.stringify(value)}: write --no-${name} (or --${name}=false) to turn --${name} off`,
      );
    else if (value !== "true" && value !== "false")
      mistakes.push(
        `--${name} is on or off, not ${JSON.stringify(value)}: write --${name} (or --${name}=true) to turn it on, --no-${name} (or --${name}=false) to turn it off`,
      );
  }
  return mistakes;
}

/**
 * Words after `--`. By convention `--` ends the flags, but no command reads what follows it (yargs
 * gives those words to no flag and no positional): `generate -- --check` would write instead of
 * checking, and `generate --check -- x` pass, without a word about them. `command` names the
 * command in the message; undefined when the line names none.
 *
 * @example
 * findWordsAfterDashes(["generate", "--", "--check"], "generate"); // ['"--check" comes after --, where flowgen generate reads nothing; …']
 */
export function findWordsAfterDashes(
  argv: readonly string[],
  command: string | undefined,
): string[] {
  const after = argv.slice(beforeDashes(argv).length + 1);
  if (after.length === 0) return [];
  const words = after.map((word) => JSON.stringify(word)).join(", ");
  const one = after.length === 1;
  return [
    `${words} ${one ? "comes" : "come"} after --, where flowgen${command === undefined ? "" : ` ${command}`} reads nothing; move ${one ? "it" : "them"} before the --, or leave the -- out`,
  ];
}

/** The boolean flag a word names: its own name, its camelCase form, or an alias. */
function findBooleanFlag(word: string, flags: FlagTable): string | undefined {
  return Object.keys(flags).find((name) => {
    const flag = flags[name];
    if (flag?.type !== "boolean") return false;
    const aliases: unknown[] = [flag.alias ?? []].flat();
    return name === word || camelCase(name) === word || aliases.includes(word);
  });
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase());
}

/** The words before `--`: those after it are not flags. */
function beforeDashes(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf("--");
  return end === -1 ? argv : argv.slice(0, end);
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
 * Flags that take one value but were given several (`--out a --out b`): yargs makes their value a
 * list, which no command reads as a folder, port or ref. Which one was meant is unclear, so the
 * line is refused; flags that are `repeatable` or `array` take several on purpose. Counted from the
 * words typed, every spelling (`--base-url`, `--baseUrl`) together: yargs' list of three numbers
 * can come out as one string.
 *
 * @example
 * findRepeatedValues(["generate", "--out", "a", "--out", "b"], { out: { type: "string" } }); // ['--out is given twice ("a", "b"); give it once']
 */
export function findRepeatedValues(argv: readonly string[], flags: FlagTable): string[] {
  return Object.entries(flags).flatMap(([name, flag]) => {
    if (flag.type === "boolean" || flag.repeatable === true || flag.array === true) return [];
    const typed = typedValues(argv, name);
    if (typed.length < 2) return [];
    const times = typed.length === 2 ? "twice" : `${typed.length} times`;
    const values = typed.map((value) => JSON.stringify(value ?? "")).join(", ");
    return [`--${name} is given ${times} (${values}); give it once`];
  });
}

/**
 * The words typed as values of `--name` (or its camelCase form, which yargs takes too), one per
 * time it is given (`--name value`, `--name=value`); undefined for a time it is given no value:
 * last on the line, or followed by another flag.
 */
function typedValues(argv: readonly string[], name: string): (string | undefined)[] {
  const found: (string | undefined)[] = [];
  const words = beforeDashes(argv);
  const spellings = [...new Set([name, camelCase(name)])];
  words.forEach((arg, i) => {
    const given = spellings.find((spelling) => arg.startsWith(`--${spelling}=`));
    if (given !== undefined) {
      const value = arg.slice(given.length + 3);
      found.push(value === "" ? undefined : value);
    } else if (spellings.some((spelling) => arg === `--${spelling}`)) {
      const next = words[i + 1];
      found.push(next === undefined || /^--?[A-Za-z]/.test(next) ? undefined : next);
    }
  });
  return found;
}
