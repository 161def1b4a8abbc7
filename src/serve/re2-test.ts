import { RE2JS } from "re2js";

/** A check on a string: true when it has the format. */
export type StringTest = (value: string) => boolean;

/**
 * ECMAScript's `\s` as the inside of an RE2 character class: RE2's `\s` is `[\t\n\f\r ]` only.
 *
 * @example
 * compileTest(`^[^${JS_SPACE}]+$`, "u");
 */
export const JS_SPACE =
  "\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";

/**
 * A JavaScript regular expression's source and flags as a test run by RE2, in time linear in the
 * value: `i` and `m` become RE2's flags, `g` is moot (each test starts afresh). Without `u`,
 * ECMAScript's `i` folds case within ASCII only, where RE2 also folds ſ (U+017F) to s and K
 * (U+212A) to k: RE2 gets U+0080 in their place, which no ASCII letter matches either. A source
 * with `\s` or `\S` throws, since RE2 reads them as ASCII spaces: spell them with `JS_SPACE`.
 *
 * @example
 * compileTest("^[a-z]+$", "i")("Abc"); // true
 */
export function compileTest(source: string, flags: string): StringTest {
  if (source.includes("\\s") || source.includes("\\S"))
    throw new Error(`/${source}/: RE2 reads \\s as ASCII; spell it with JS_SPACE`);
  const re2 = RE2JS.compile(
    RE2JS.translateRegExp(source),
    (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) |
      (flags.includes("m") ? RE2JS.MULTILINE : 0),
  );
  if (!flags.includes("i") || flags.includes("u")) return (value) => re2.test(value);
  return (value) => re2.test(value.replaceAll("\u017f", "\u0080").replaceAll("\u212a", "\u0080"));
}
