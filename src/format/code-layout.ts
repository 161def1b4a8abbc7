import type * as prettier from "prettier";

// Kept apart from the printers, which load TypeScript: deciding the layout must not.

/** The prettier options `printTypes` and `printFlowModule` follow; any other option set (or another value) means prettier formats the file. */
export interface CodeLayout {
  readonly printWidth: number;
  readonly tabWidth: number;
  readonly useTabs: boolean;
  readonly singleQuote: boolean;
  readonly bracketSpacing: boolean;
  readonly trailingComma: "all" | "es5" | "none";
  readonly operatorAtStart: boolean;
  readonly endOfLine: "lf" | "crlf" | "cr";
}

/**
 * Prettier options for syntax flowgen's output does not contain (JSX, HTML, Markdown, embedded
 * languages, ternaries): they change none of its files.
 */
export const OTHER_SYNTAX_OPTIONS = [
  "bracketSameLine",
  "jsxSingleQuote",
  "singleAttributePerLine",
  "proseWrap",
  "htmlWhitespaceSensitivity",
  "vueIndentScriptAndStyle",
  "embeddedLanguageFormatting",
  "experimentalTernaries",
] as const;

/** Options that do not change how prettier prints the types files and flow modules. */
const NEUTRAL_OPTIONS = new Set(["filepath", "arrowParens", ...OTHER_SYNTAX_OPTIONS]);

/**
 * The layout for `printTypes` and `printFlowModule` under these prettier options, or undefined
 * when they ask for something those do not print (plugins, `semi: false`, `quoteProps` other than
 * `as-needed`, `objectWrap: "collapse"`, another parser, pragmas, ranges, `endOfLine: "auto"`).
 */
export function codeLayoutFor(options: prettier.Options): CodeLayout | undefined {
  const {
    printWidth = 80,
    tabWidth = 2,
    useTabs = false,
    semi = true,
    singleQuote = false,
    quoteProps = "as-needed",
    trailingComma = "all",
    bracketSpacing = true,
    objectWrap = "preserve",
    experimentalOperatorPosition = "end",
    endOfLine = "lf",
    parser,
    plugins,
  } = options;
  const known = new Set([
    "printWidth",
    "tabWidth",
    "useTabs",
    "semi",
    "singleQuote",
    "quoteProps",
    "trailingComma",
    "bracketSpacing",
    "objectWrap",
    "experimentalOperatorPosition",
    "endOfLine",
    "parser",
    "plugins",
  ]);
  const optionsSet = Object.entries(options).filter(([, value]) => value !== undefined);
  if (
    optionsSet.some(
      ([key, value]) =>
        !known.has(key) &&
        !(
          NEUTRAL_OPTIONS.has(key) ||
          ((key === "requirePragma" || key === "insertPragma") && value === false)
        ),
    )
  )
    return undefined;
  if (plugins !== undefined && plugins.length > 0) return undefined;
  if (parser !== undefined && parser !== "babel-ts" && parser !== "typescript") return undefined;
  if (
    typeof printWidth !== "number" ||
    typeof tabWidth !== "number" ||
    typeof useTabs !== "boolean" ||
    typeof singleQuote !== "boolean" ||
    typeof bracketSpacing !== "boolean"
  )
    return undefined;
  if (semi !== true || quoteProps !== "as-needed" || objectWrap !== "preserve") return undefined;
  if (trailingComma !== "all" && trailingComma !== "es5" && trailingComma !== "none")
    return undefined;
  if (experimentalOperatorPosition !== "end" && experimentalOperatorPosition !== "start")
    return undefined;
  if (endOfLine !== "lf" && endOfLine !== "crlf" && endOfLine !== "cr") return undefined;
  return {
    printWidth,
    tabWidth,
    useTabs,
    singleQuote,
    bracketSpacing,
    trailingComma,
    operatorAtStart: experimentalOperatorPosition === "start",
    endOfLine,
  };
}
