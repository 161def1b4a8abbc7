import * as jsonc from "jsonc-parser";
import { joinPointer } from "../json-pointer.js";

/**
 * What is wrong with an integer literal that a JavaScript number (an IEEE 754 double) cannot hold:
 * read, it becomes the nearest double, and the contract would state that other number. The
 * message quotes nothing of the file.
 */
export const INEXACT_INTEGER =
  "this integer is too large for a JavaScript number to hold exactly (beyond ±2^53, 9007199254740992), so it would be read as another number and the contract would state that one; write it as a string, or as a number within ±2^53";

/**
 * Whether an integer literal (decimal, or YAML's `0x` and `0o` forms) was read as `value` without
 * change. Up to 2^53 every integer is a double; past it, the literal is compared with the double
 * digit for digit. An infinite value is another problem (not-json), and one that does not read as
 * an integer literal is none of this check's business: both pass here.
 *
 * @example
 * readsExactly("9007199254740993", 9007199254740992); // false
 */
export function readsExactly(literal: string, value: number): boolean {
  if (!Number.isFinite(value) || Math.abs(value) <= Number.MAX_SAFE_INTEGER) return true;
  try {
    return BigInt(literal.replace(/^\+/, "")) === BigInt(value);
  } catch {
    return true;
  }
}

/**
 * Every integer literal in JSON text that `JSON.parse` reads as another number, with its offset and
 * pointer. For text already known to hold a run of 16 digits outside its strings (`scanJson` says
 * so): shorter integers are always exact, so no other text pays for this walk.
 *
 * @example
 * findInexactJsonIntegers('{"const": 12345678901234567890}'); // [{ offset: 10, pointer: "/const" }]
 */
export function findInexactJsonIntegers(text: string): { offset: number; pointer: string }[] {
  const found: { offset: number; pointer: string }[] = [];
  jsonc.visit(
    text,
    {
      onLiteralValue: (value: unknown, offset, length, _line, _column, pathSupplier) => {
        if (typeof value !== "number") return;
        const literal = text.slice(offset, offset + length);
        if (/^-?\d+$/.test(literal) && !readsExactly(literal, value))
          found.push({ offset, pointer: joinPointer("", ...pathSupplier()) });
      },
    },
    { allowTrailingComma: false, disallowComments: true },
  );
  return found;
}
