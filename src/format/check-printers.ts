import { createHash } from "node:crypto";
import type * as Prettier from "prettier";
import { importPrettier, type PrettierRef } from "./project-prettier.js";

/** Set to `1` to have every hand-printed file checked against `prettier.format` (the test suite sets it). */
export const CHECK_PRINTERS_VARIABLE = "FLOWGEN_CHECK_PRINTERS";

/**
 * With `FLOWGEN_CHECK_PRINTERS=1`: formats `source` with prettier and throws when the fast
 * printer's `printed` differs, naming the file. The printers (`printTypes`, `printFlowModule`,
 * `printJson`) are an optimisation for the one prettier version and the options they are proven
 * against; this switch proves them on every file a run prints. `source` may be a function, so
 * that a run with the switch off never makes the text prettier would be given. Off, it costs nothing.
 *
 * @example
 * await checkHandPrinted("@acme/qa.ts", printed, emitted, options, formatter.prettier);
 */
export async function checkHandPrinted(
  file: string,
  printed: string,
  source: string | (() => string),
  options: Prettier.Options,
  ref: PrettierRef,
): Promise<void> {
  if (process.env[CHECK_PRINTERS_VARIABLE] !== "1") return;
  const expected = await formatOnce(
    typeof source === "string" ? source : source(),
    { ...options, filepath: options.filepath ?? file },
    ref,
  );
  if (expected === printed) return;
  const lines = [printed.split("\n"), expected.split("\n")] as const;
  const at = lines[0].findIndex((line, i) => line !== lines[1][i]);
  throw new Error(
    `flowgen's printer and prettier ${ref.version} format ${file} differently, first at line ${at + 1}:\n  printer:  ${JSON.stringify(lines[0][at])}\n  prettier: ${JSON.stringify(lines[1][at])}`,
  );
}

/** What prettier made of each input the check has formatted in this process, by input. */
const formatted = new Map<string, string>();
/** Inputs remembered at most: a test process prints the same few projects again and again. */
const REMEMBERED = 5000;

/**
 * `prettier.format`, once per distinct input (prettier version, options, text): the same text
 * with the same options formats the same, so a printer is still compared on every file it prints.
 */
async function formatOnce(
  text: string,
  options: Prettier.Options,
  ref: PrettierRef,
): Promise<string> {
  const key = createHash("sha256")
    .update(JSON.stringify([ref.url, ref.version, options]))
    .update("\0")
    .update(text)
    .digest("base64");
  const known = formatted.get(key);
  if (known !== undefined) return known;
  const prettier = await importPrettier(ref);
  const expected = await prettier.format(text, options);
  if (formatted.size >= REMEMBERED) formatted.clear();
  formatted.set(key, expected);
  return expected;
}
