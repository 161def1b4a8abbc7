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

/** The options `codeLayoutFor` reads itself; any other option set must be neutral. */
const LAYOUT_OPTIONS = new Set([
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

/**
 * The layout for `printTypes` and `printFlowModule` under these prettier options, or undefined
 * when they ask for something those do not print (plugins, `semi: false`, `quoteProps` other than
 * `as-needed`, `objectWrap: "collapse"`, another parser, pragmas, ranges, `endOfLine: "auto"`).
 */
export function codeLayoutFor(options: prettier.Options): CodeLayout | undefined {
  if (!setsOnlyLayoutOptions(options)) return undefined;
  if (!printsPlainTypeScript(options)) return undefined;
  if (!keepsFixedChoices(options)) return undefined;
  return layoutOf(options);
}

/** False when an option the layout does not read is set to something that may change the output. */
function setsOnlyLayoutOptions(options: prettier.Options): boolean {
  const values = options as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value === undefined || LAYOUT_OPTIONS.has(key) || NEUTRAL_OPTIONS.has(key)) continue;
    if ((key === "requirePragma" || key === "insertPragma") && value === false) continue;
    return false;
  }
  return true;
}

/** No plugins, and a TypeScript parser or none. */
function printsPlainTypeScript({ parser, plugins }: prettier.Options): boolean {
  if (plugins !== undefined && plugins.length > 0) return false;
  return parser === undefined || parser === "babel-ts" || parser === "typescript";
}

/** `semi`, `quoteProps` and `objectWrap` hold the one value each that the printers print. */
function keepsFixedChoices({
  semi = true,
  quoteProps = "as-needed",
  objectWrap = "preserve",
}: prettier.Options): boolean {
  return semi === true && quoteProps === "as-needed" && objectWrap === "preserve";
}

/** The options the printers follow, or undefined when one holds a value they do not print. */
function layoutOf(options: prettier.Options): CodeLayout | undefined {
  const {
    printWidth = 80,
    tabWidth = 2,
    useTabs = false,
    singleQuote = false,
    trailingComma = "all",
    bracketSpacing = true,
    experimentalOperatorPosition = "end",
    endOfLine = "lf",
  } = options;
  if (
    typeof printWidth !== "number" ||
    typeof tabWidth !== "number" ||
    typeof useTabs !== "boolean" ||
    typeof singleQuote !== "boolean" ||
    typeof bracketSpacing !== "boolean"
  )
    return undefined;
  if (trailingComma !== "all" && trailingComma !== "es5" && trailingComma !== "none")
    return undefined;
  if (experimentalOperatorPosition !== "end" && experimentalOperatorPosition !== "start")
    return undefined;
  if (endOfLine !== "lf" && endOfLine !== "crlf" && endOfLine !== "cr") return undefined;
  const operatorAtStart = experimentalOperatorPosition === "start";
  return {
    printWidth,
    tabWidth,
    useTabs,
    singleQuote,
    bracketSpacing,
    trailingComma,
    operatorAtStart,
    endOfLine,
  };
}
