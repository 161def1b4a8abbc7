/**
 * How a `pattern` compiles. JSON Schema 2020-12 (Validation §6.3.3) asks for ECMA-262 regular
 * expressions, and validators compile them with the `u` flag; OpenAPI 3.0 descriptions were
 * mostly written for engines without it, where `\-`, `\:` or a lone `{` mean themselves. A pattern
 * that compiles only without `u` is used without it everywhere flowgen compiles one (the spec
 * checks, `flowgen serve`, generated validators): the meaning its authors tested.
 */
export type PatternSupport =
  | { readonly kind: "unicode" }
  | { readonly kind: "without-unicode"; readonly reason: string }
  | { readonly kind: "invalid"; readonly reason: string };

/**
 * @example
 * patternSupport("^[a-z]+$"); // { kind: "unicode" }
 * patternSupport("^\\:[a-z]+$"); // { kind: "without-unicode", reason: "Invalid escape" }
 */
export function patternSupport(source: string): PatternSupport {
  const unicode = compileProblem(source, "u");
  if (unicode === undefined) return { kind: "unicode" };
  const plain = compileProblem(source, "");
  return plain === undefined
    ? { kind: "without-unicode", reason: unicode }
    : { kind: "invalid", reason: unicode };
}

/**
 * The flags a pattern is compiled with: `flags` as asked (Ajv asks for `u`), less `u` when the
 * pattern compiles only without it.
 *
 * @example
 * new RegExp(source, patternFlags(source, "u"));
 */
export function patternFlags(source: string, flags: string): string {
  return flags.includes("u") && patternSupport(source).kind === "without-unicode"
    ? flags.replace("u", "")
    : flags;
}

/**
 * Ajv's `code.regExp` engine: `new RegExp` with `u` when the pattern takes it, else without.
 * A pattern that compiles neither way throws as before (the spec checks refuse it first).
 *
 * @example
 * new Ajv2020({ code: { regExp: compilePattern } });
 */
export function compilePattern(source: string, flags: string): RegExp {
  return new RegExp(source, patternFlags(source, flags));
}

function compileProblem(source: string, flags: string): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (error) {
    // V8 says "Invalid regular expression: /<source>/u: <reason>"; the source is quoted already.
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  }
}
