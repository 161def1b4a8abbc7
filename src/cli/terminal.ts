/** The stream progress and colour go to: stderr, or a stand-in a test gives. */
export interface Terminal {
  readonly isTTY: boolean;
  /** Width in columns, when known. */
  readonly columns?: number | undefined;
  write(text: string): void;
}

/** Colours for words in messages; each returns the text as it is when colour is off. */
export interface Paint {
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly dim: (text: string) => string;
}

const PLAIN: Paint = { red: (text) => text, yellow: (text) => text, dim: (text) => text };

/**
 * Colour only for a person at a terminal: never when the stream is not a TTY (a pipe, a CI log
 * file), and never when `NO_COLOR` is set to anything non-empty (no-color.org).
 *
 * @example
 * const paint = choosePaint(process.stderr, process.env);
 * io.err(`${paint.yellow("warning")} …`);
 */
export function choosePaint(
  terminal: Terminal | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Paint {
  const noColor = env["NO_COLOR"];
  if (terminal?.isTTY !== true || (noColor !== undefined && noColor !== "")) return PLAIN;
  const wrap = (open: number, close: number) => (text: string) =>
    `\u001b[${open}m${text}\u001b[${close}m`;
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22) };
}

/**
 * Whether a run may show its progress on `terminal`: a person is watching (a TTY), this is not a
 * CI job (`CI` set, as GitHub Actions, GitLab and most others set it), and `--quiet` was not given.
 */
export function showsProgress(
  terminal: Terminal | undefined,
  env: Readonly<Record<string, string | undefined>>,
  quiet: boolean,
): terminal is Terminal {
  const ci = env["CI"];
  return terminal?.isTTY === true && !quiet && (ci === undefined || ci === "" || ci === "false");
}
