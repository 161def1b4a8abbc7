import path from "node:path";
import { closest, distance } from "fastest-levenshtein";
import { ISSUE_CODES, RULE_DEFAULTS, type Issue } from "../issues.js";

/** How a config value is checked. */
type Kind = "string" | "boolean" | "url" | "port" | "positive" | "integer" | "rules";

/**
 * Every key a config file may hold, with its kind. A new key goes here, in `FlowgenConfig`, and in
 * the flag table of its command (`src/cli/`), where the flag's value, when given, wins.
 */
export const GENERATE_KEYS = {
  specs: "string",
  out: "string",
  baseUrl: "url",
  validators: "boolean",
  cache: "boolean",
  cacheDir: "string",
  failOnBreaking: "boolean",
  rules: "rules",
} as const satisfies Record<string, Kind>;

export const SERVE_KEYS = {
  port: "port",
  host: "string",
  handlers: "string",
  watch: "boolean",
  keysFile: "string",
  rate: "positive",
  burst: "positive",
  bodyLimit: "positive",
  maxDepth: "positive",
  headersTimeout: "positive",
  requestTimeout: "positive",
  seed: "integer",
  cors: "string",
  docs: "boolean",
} as const satisfies Record<string, Kind>;

/**
 * Checks a loaded config value against the key tables: every unknown key (with the nearest known
 * one) and every value of the wrong kind, all at once.
 *
 * @example
 * checkConfigValue({ specz: "x" }, "flowgen.config.json") // [{ code: "invalid-config", pointer: "/specz", … }]
 */
export function checkConfigValue(value: unknown, file: string): Issue[] {
  if (!isRecord(value))
    return [{ code: "invalid-config", file, pointer: "", message: notAnObject(file) }];
  const issues = checkKeys(value, { ...GENERATE_KEYS, serve: undefined }, "", file);
  const serve = value["serve"];
  if (serve !== undefined) {
    if (isRecord(serve)) issues.push(...checkKeys(serve, SERVE_KEYS, "/serve", file));
    else
      issues.push({
        code: "invalid-config",
        file,
        pointer: "/serve",
        message: "must be an object of serve settings: { port, host, handlers, … }",
      });
  }
  return issues;
}

/**
 * The one problem for a config file with nothing in it (or only blanks): as `[]` or `{` would be,
 * it is refused rather than read as no settings, so a file truncated or left unsaved is not
 * silently traded for the defaults. `named`: the file was named with `--config`, not found.
 *
 * @example
 * emptyConfigIssue("flowgen.config.json", false); // { code: "invalid-config", message: "is empty; write a JSON object …" }
 */
export function emptyConfigIssue(file: string, named: boolean): Issue {
  const write = file.endsWith(".json")
    ? 'write a JSON object of settings, such as { "specs": "specs", "out": "generated" }'
    : 'export the settings, such as export default defineConfig({ specs: "specs", out: "generated" })';
  return {
    code: "invalid-config",
    file,
    pointer: "",
    message: `is empty; ${write}, or ${named ? "leave out --config" : "remove the file"} to use the defaults`,
  };
}

/** What a config file of `file`'s kind must hold, when it holds no object. */
function notAnObject(file: string): string {
  if (path.basename(file) === "package.json")
    return 'has no "flowgen" object; put the settings under "flowgen", or in flowgen.config.json';
  if (file.endsWith(".json"))
    return 'must hold a JSON object of settings, such as { "specs": "specs", "out": "generated" }';
  return "the default export must be an object: export default defineConfig({ … })";
}

/**
 * Whether a value has a config's shape: an object that holds a config key, or whose keys are all
 * config keys or near misses of them; then its unknown keys are reported by name. A JSON file of
 * another shape gets `notAConfigIssue`, which quotes nothing of it.
 *
 * @example
 * looksLikeConfig({ specz: "x" }); // true: a typo of "specs"
 */
export function looksLikeConfig(value: unknown): boolean {
  if (!isRecord(value)) return true;
  const known = [...Object.keys(GENERATE_KEYS), "serve"];
  if (known.some((key) => Object.hasOwn(value, key))) return true;
  return Object.keys(value).every(
    (key) => known.includes(key) || (key.length >= 4 && distance(key, closest(key, known)) <= 2),
  );
}

/**
 * The one problem for a JSON config file that is not shaped like one.
 *
 * @example
 * notAConfigIssue("flowgen.config.json");
 */
export function notAConfigIssue(file: string): Issue {
  return {
    code: "invalid-config",
    file,
    message: `is not a flowgen config: its keys must be ${[...Object.keys(GENERATE_KEYS), "serve"].join(", ")}; flowgen shows nothing of a file that is not one. Fix the keys, or remove the file`,
  };
}

function checkKeys(
  value: Record<string, unknown>,
  keys: Record<string, Kind | undefined>,
  base: string,
  file: string,
): Issue[] {
  const issues: Issue[] = [];
  const known = Object.keys(keys);
  for (const [key, item] of Object.entries(value)) {
    const pointer = `${base}/${key}`;
    // Own keys only: `in` would take "toString" or "__proto__" for settings every object has.
    if (!Object.hasOwn(keys, key)) {
      issues.push({
        code: "invalid-config",
        file,
        pointer,
        message: `unknown key "${key}" (did you mean "${closest(key, known)}"?); allowed keys: ${known.join(", ")}`,
      });
      continue;
    }
    const kind = keys[key];
    if (kind === "rules" && isRecord(item)) {
      issues.push(...checkRules(item, pointer, file));
      continue;
    }
    const problem =
      kind === undefined || item === undefined ? undefined : describeWrongValue(item, kind);
    if (problem !== undefined)
      issues.push({ code: "invalid-config", file, pointer, message: problem });
  }
  return issues;
}

/**
 * Why `value` is not of `kind`, or undefined when it is. Also used for flag values (`--base-url`).
 *
 * @example
 * describeWrongValue("api.example.com", "url") // '"api.example.com" is not an http(s) URL; …'
 */
export function describeWrongValue(value: unknown, kind: Kind): string | undefined {
  switch (kind) {
    case "string":
      return typeof value === "string" && value !== ""
        ? undefined
        : `must be a non-empty string, not ${JSON.stringify(value)}`;
    case "boolean":
      return typeof value === "boolean"
        ? undefined
        : `must be true or false, not ${JSON.stringify(value)}`;
    case "url":
      return isHttpUrl(value)
        ? undefined
        : `${JSON.stringify(value)} is not an http(s) URL; give one such as "https://api.example.com"`;
    case "port":
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535
        ? undefined
        : `must be a port number from 0 to 65535, not ${JSON.stringify(value)}`;
    case "positive":
      return typeof value === "number" && Number.isFinite(value) && value > 0
        ? undefined
        : `must be a number above 0, not ${JSON.stringify(value)}`;
    case "integer":
      return Number.isInteger(value)
        ? undefined
        : `must be an integer, not ${JSON.stringify(value)}`;
    case "rules":
      return isRecord(value)
        ? undefined
        : `must be an object of problem codes and severities, such as { "invalid-schema-value": "warn" }, not ${JSON.stringify(value)}`;
  }
}

const SEVERITIES = ["error", "warn", "off"];

/**
 * `rules: { "<code>": "error" | "warn" | "off" }`: each key a code that may change severity, each
 * value a severity. A structural code is named as such: it cannot be turned into a warning.
 */
function checkRules(rules: Record<string, unknown>, base: string, file: string): Issue[] {
  const codes = Object.keys(RULE_DEFAULTS);
  return Object.entries(rules).flatMap(([code, severity]): Issue[] => {
    const pointer = `${base}/${code}`;
    if (!codes.includes(code)) {
      const known = Object.hasOwn(ISSUE_CODES, code);
      const message = known
        ? `"${code}" is a structural problem: flowgen cannot build with it, so it is always an error and cannot be given a severity; the codes that can are ${codes.join(", ")}`
        : `"${code}" is not a problem code (did you mean "${closest(code, codes)}"?); the codes that take a severity are ${codes.join(", ")}`;
      return [{ code: "invalid-config", file, pointer, message }];
    }
    if (typeof severity === "string" && SEVERITIES.includes(severity)) return [];
    return [
      {
        code: "invalid-config",
        file,
        pointer,
        message: `must be "error", "warn" or "off", not ${JSON.stringify(severity)}`,
      },
    ];
  });
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
