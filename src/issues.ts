/**
 * Problems found in user input. Every stage reports problems as values so a run can show all
 * of them at once; only the CLI decides how they are printed and which exit code follows.
 */

/** Stable identifiers of everything flowgen can reject. Documented in docs/errors.md. */
export const ISSUE_CODES = {
  "no-specs": "The specs folder has no flow spec files.",
  "unreadable-file":
    "A file under the specs folder cannot be read, or a symlink there leads nowhere or in a loop.",
  "outside-project":
    "A spec, the specs folder, a config file or a folder flowgen writes leads out of the project.",
  "not-a-spec-file":
    "A file in a spec's place is not a flow spec or a JSON Schema; its content is not shown.",
  "not-utf8": "A spec file holds bytes that are not UTF-8 text (a Latin-1 or UTF-16 file).",
  "syntax-error": "A spec file is not valid JSON or YAML.",
  "duplicate-key": "A spec file has the same key twice in one object (or YAML mapping).",
  "too-deep": "A spec file nests values deeper than flowgen's limit (128 levels).",
  "not-json":
    "A spec file holds a value JSON cannot write: a number such as 1e400, YAML's .inf or .nan, or a YAML date, set, binary or ordered map.",
  "inexact-integer":
    "A spec file has an integer beyond ±2^53 that a JavaScript number cannot hold exactly: read, it would change.",
  "yaml-alias-limit": "A YAML spec file's aliases expand past flowgen's limit (an alias bomb).",
  "misplaced-file": "A spec file is not at specs/@<org>/<flow-name>.(json|yaml|yml).",
  "invalid-flow-name": "An org or flow name breaks the naming rule.",
  "duplicate-flow": "Two files describe the same flow (for example qa.json and qa.yaml).",
  "unknown-key": "A spec file has a top-level key flowgen does not know.",
  "missing-key": "A spec file lacks a required key (input or output).",
  "invalid-value": "A spec file key has a value of the wrong kind.",
  "id-mismatch": "The id in a spec file differs from the id its path gives.",
  "invalid-schema": "A schema breaks the JSON Schema 2020-12 meta-schema.",
  "unknown-keyword": "A schema uses a keyword JSON Schema and OpenAPI do not define.",
  "unsupported-keyword":
    "A schema uses a keyword flowgen cannot bundle ($id, $anchor, $dynamicRef).",
  "invalid-pattern":
    "A pattern or patternProperties key is not a valid ECMAScript regular expression.",
  "non-unicode-pattern":
    "A pattern compiles only without the u flag; flowgen uses it without (a warning by default).",
  "nonlinear-pattern":
    "flowgen serve: a pattern needs a back-reference or look-around, which serve's linear-time engine lacks; serve refuses the values it checks.",
  "not-an-object-schema": "An input or output schema does not describe a JSON object.",
  "ref-not-found": "A $ref points to a file or location that does not exist.",
  "ref-outside-specs": "A $ref points outside the specs folder.",
  "ref-not-relative": "A $ref is an absolute URL or path instead of a relative one.",
  "ref-to-flow-file": "A $ref points into another flow's spec file instead of a shared schema.",
  "ref-cycle":
    "A $ref cycle that never steps into the data (a → b → a through $ref, allOf, anyOf, …).",
  "invalid-example": "An example does not match its flow's input or output schema.",
  "invalid-schema-value":
    "An enum, const, default or examples value fails the schema it belongs to.",
  "invalid-schema-example":
    "An OpenAPI 3.0 example annotation fails the schema it belongs to (a warning by default).",
  "validator-unsupported":
    "With --validators: a schema the validator compiler cannot turn into code.",
  "not-an-output-folder": "The output folder holds files flowgen did not write, or is a symlink.",
  "output-locked": "Another flowgen run is writing the output folder.",
  "output-unwritable":
    "The machine refuses to write the output folder: permissions, a read-only or full disk, a file in the way.",
  "breaking-change": "With --fail-on-breaking: the new contract breaks callers of a flow.",
  "missing-dependency":
    "openapi-fetch, which generated clients import, is not a dependency of the project (a warning by default).",
  "invalid-config":
    "The config file cannot be loaded, has an unknown key, or a value of the wrong kind.",
  "invalid-option":
    "The command line has an unknown command or flag, or an option flowgen cannot use.",
  "overlapping-folders":
    "The output folder lies inside the specs folder, holds it, or is the same folder.",
  "unreadable-contract": "flowgen diff cannot read a version to compare (--base or --head).",
  "invalid-keys": "flowgen serve cannot use the keys of --keys-file or FLOWGEN_SERVE_KEYS.",
  "invalid-handler": "A handler module of flowgen serve cannot be loaded or exports no handler.",
  "invalid-tls": "flowgen serve cannot serve HTTPS with the TLS options it was given.",
  "cannot-listen":
    "flowgen serve cannot listen on its host and port (the port is in use, the host does not resolve or is not this machine's, or a low port needs privileges).",
  "no-api-key": "flowgen verify: FLOW_API_KEY is not set, or holds a key that cannot be sent.",
  "key-refused": "flowgen verify: the platform answered 401 to a call carrying FLOW_API_KEY.",
  "no-base-url":
    "flowgen verify: no base URL from --base-url, FLOW_BASE_URL or the config, or one it will not send a key to.",
  "unknown-flow": "flowgen verify: a flow id or pattern matches no flow with a spec.",
  "invalid-sample": "flowgen new --from-sample: a sample cannot be read or drafted from.",
} as const;

export type IssueCode = keyof typeof ISSUE_CODES;

/** What a problem does: stop the run, print and let it go on, or nothing. */
export type Severity = "error" | "warn" | "off";

/** Per code, the severity a project chose (the config file's `rules`). */
export type Rules = Readonly<Partial<Record<IssueCode, Severity>>>;

/**
 * The codes a project may give another severity, with their defaults, as ESLint and Redocly rules
 * have them: problems with values and annotations that upstream schemas often have and that do
 * not change what flowgen can build. Every other code is structural (a `$ref` that leads nowhere,
 * a root that is not an object, a file that does not parse): flowgen cannot build without fixing
 * it, so it is always an error.
 */
export const RULE_DEFAULTS = {
  "unknown-keyword": "error",
  "non-unicode-pattern": "warn",
  "invalid-example": "error",
  "invalid-schema-value": "error",
  "invalid-schema-example": "warn",
  "missing-dependency": "warn",
} as const satisfies Partial<Record<IssueCode, Severity>>;

export type RuleCode = keyof typeof RULE_DEFAULTS;

/**
 * How a problem with `code` counts under `rules`: the project's choice for a rule, else the
 * rule's default; structural codes are errors whatever `rules` says.
 *
 * @example
 * severityOf("invalid-schema-example", {}); // "warn"
 */
export function severityOf(code: IssueCode, rules: Rules = {}): Severity {
  if (!Object.hasOwn(RULE_DEFAULTS, code)) return "error";
  return rules[code] ?? RULE_DEFAULTS[code as RuleCode];
}

/**
 * Splits problems by severity: errors stop the run, warnings are printed, and problems whose rule
 * is off are dropped.
 *
 * @example
 * const { errors, warnings } = triageIssues(found, { "invalid-schema-value": "warn" });
 */
export function triageIssues<T extends { readonly code: IssueCode }>(
  found: readonly T[],
  rules: Rules = {},
): { errors: T[]; warnings: T[] } {
  const errors: T[] = [];
  const warnings: T[] = [];
  for (const item of found) {
    const severity = severityOf(item.code, rules);
    if (severity === "error") errors.push(item);
    else if (severity === "warn") warnings.push(item);
  }
  return { errors, warnings };
}

/** One problem in one place, with what to do about it. */
export interface Issue {
  readonly code: IssueCode;
  /** Path as the user wrote it, relative to the working directory, with forward slashes. */
  readonly file: string;
  /** JSON pointer inside the file ("" for the whole document). */
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

/** Stable order: by file, then position, then message, so reports do not depend on fs order. */
export function sortIssues(issues: readonly Issue[]): Issue[] {
  return [...issues].sort(
    (a, b) =>
      compareText(a.file, b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      compareText(a.pointer ?? "", b.pointer ?? "") ||
      compareText(a.message, b.message),
  );
}

/**
 * `specs/@acme/qa.json:12:17 #/input/properties/n/type: "nubmer" is not ... [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema`
 * The file:line:column prefix is what editors and terminals turn into a link.
 */
export function formatIssue(issue: Issue): string {
  const position = issue.line === undefined ? "" : `:${issue.line}:${issue.column ?? 1}`;
  const pointer = issue.pointer ? ` #${issue.pointer}` : "";
  return withCode(`${issue.file}${position}${pointer}: ${issue.message}`, issue.code);
}

/**
 * How every problem flowgen prints ends: its code, and the code's section in docs/errors.md, a
 * page the package ships (node_modules/flowgen-cli/docs/errors.md), whose anchors are the codes.
 *
 * @example
 * io.err(withCode(`flowgen serve: ${error.message}`, "invalid-tls"));
 */
export function withCode(message: string, code: IssueCode): string {
  return `${message} [${code}] flowgen-cli/docs/errors.md#${code}`;
}

/** Code-unit comparison: locale-independent, so output is the same on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
