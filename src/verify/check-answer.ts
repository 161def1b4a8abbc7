import type { ErrorObject, ValidateFunction } from "ajv";
import { safeParse as parseContentType } from "fast-content-type-parse";
import { findValueBeyondLimits } from "../json-limits.js";
import { jsonSyntaxError } from "../spec/parse-document.js";
import { escapePointerToken } from "../json-pointer.js";
import type { Answer } from "./send-request.js";
import { MAX_ANSWER_BYTES } from "./send-request.js";
import type { Violation } from "./verify-report.js";

/** What a case's answer must be. */
export type Expectation =
  | { readonly kind: "output"; readonly validate: ValidateFunction }
  | { readonly kind: "invalid-input"; readonly validate: ValidateFunction }
  | { readonly kind: "unauthorized"; readonly validate: ValidateFunction };

/** Nesting past this is reported, not validated: deep enough for any real answer, shallow enough for the stack. */
const MAX_ANSWER_DEPTH = 128;
/** Violations listed per answer; the rest are counted. */
const MAX_VIOLATIONS = 20;
/** Characters of a value or body shown in a report. */
const SHOWN_CHARS = 200;

/**
 * Every way `answer` breaks `expected`: its status, a 3xx (never followed), its media type,
 * JSON that does not parse, and each place its body breaks the schema, by JSON pointer.
 *
 * @example
 * checkAnswer(answer, { kind: "output", validate });
 * // [{ pointer: "/answer", expected: 'must be string (type: "string")', actual: "42" }]
 */
export function checkAnswer(
  answer: Answer,
  expected: Expectation,
  redact: (text: string) => string = (text) => text,
): Violation[] {
  // The key is taken out before any text is cut: a key cut in two would pass the redactor in halves.
  const see = (text: string) => show(text, redact);
  const wanted = STATUS_RULES[expected.kind];
  if (answer.status >= 300 && answer.status < 400) return [describeRedirect(answer)];
  if (!wanted.accepts(answer.status))
    return [{ pointer: "", expected: wanted.says, actual: describeStatus(answer, see) }];
  const mediaType = readMediaType(answer.headers, see);
  if (mediaType !== "application/json" && !mediaType?.endsWith("+json"))
    return [
      {
        pointer: "",
        expected: "a JSON body (Content-Type: application/json)",
        actual: `${mediaType ?? "no Content-Type"}: ${see(answer.text)}`,
      },
    ];
  if (answer.truncated)
    return [
      {
        pointer: "",
        expected: `an answer of at most ${MAX_ANSWER_BYTES} bytes`,
        actual: "a larger one",
      },
    ];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    // By position: JSON.parse's own message quotes the text around the error, part of a key too.
    const { line, column, problem } = jsonSyntaxError(answer.text);
    return [
      {
        pointer: "",
        expected: "JSON",
        actual: `text that is not JSON (${problem} at line ${line}, column ${column}): ${see(answer.text)}`,
      },
    ];
  }
  const deep = findValueBeyondLimits(body, { maxDepth: MAX_ANSWER_DEPTH });
  if (deep !== undefined)
    return [
      {
        pointer: deep.pointer,
        expected: `at most ${MAX_ANSWER_DEPTH} levels of nesting`,
        actual: "deeper nesting",
      },
    ];
  if (expected.validate(body)) return [];
  return listViolations(expected.validate.errors ?? [], see);
}

const STATUS_RULES: Record<
  Expectation["kind"],
  { accepts: (status: number) => boolean; says: string }
> = {
  output: { accepts: (status) => status >= 200 && status < 300, says: "a 2xx status" },
  "invalid-input": {
    accepts: (status) => status === 400 || status === 422,
    says: "400 (or 422) with the error body: the input breaks the flow's input schema",
  },
  unauthorized: {
    accepts: (status) => status === 401,
    says: "401 with the error body: the call carries no key",
  },
};

function listViolations(
  errors: readonly ErrorObject[],
  see: (text: string) => string,
): Violation[] {
  const violations = errors.slice(0, MAX_VIOLATIONS).map((error) => describeError(error, see));
  if (errors.length > MAX_VIOLATIONS)
    violations.push({
      pointer: "",
      expected: "the schema",
      actual: `${errors.length - MAX_VIOLATIONS} more violations`,
    });
  return violations;
}

/** One Ajv error (compiled with `verbose`) as pointer, what the schema says, and what came back. */
function describeError(error: ErrorObject, see: (text: string) => string): Violation {
  const showJson = (value: unknown) => see(JSON.stringify(value) ?? "undefined");
  const params = error.params as Record<string, unknown>;
  const says = `${error.message ?? "is invalid"} (${error.keyword}: ${showJson(error.schema)})`;
  if (typeof params.missingProperty === "string")
    return {
      pointer: `${error.instancePath}/${escapePointerToken(params.missingProperty)}`,
      expected: `required (${error.keyword}: ${showJson(error.schema)})`,
      actual: "absent",
    };
  if (typeof params.additionalProperty === "string") {
    const pointer = `${error.instancePath}/${escapePointerToken(params.additionalProperty)}`;
    const value = (error.data as Record<string, unknown> | undefined)?.[params.additionalProperty];
    return {
      pointer,
      expected: `no such property (additionalProperties: ${showJson(error.schema)})`,
      actual: showJson(value),
    };
  }
  return { pointer: error.instancePath, expected: says, actual: showJson(error.data) };
}

function describeRedirect(answer: Answer): Violation {
  const location = answer.headers.get("location");
  let target = "no Location";
  if (location !== null) {
    try {
      // Only the origin: the rest of a redirect target may carry tokens.
      target = new URL(location, "http://relative.invalid").origin;
      if (target === "http://relative.invalid") target = "a path on the same origin";
    } catch {
      target = "a Location that is not a URL";
    }
  }
  return {
    pointer: "",
    expected: "an answer from the base URL itself (flowgen verify follows no redirects)",
    actual: `${answer.status} redirecting to ${target}`,
  };
}

function describeStatus(answer: Answer, see: (text: string) => string): string {
  return answer.text === "" ? String(answer.status) : `${answer.status}: ${see(answer.text)}`;
}

function readMediaType(headers: Headers, see: (text: string) => string): string | undefined {
  const header = headers.get("content-type");
  if (header === null) return undefined;
  // safeParse gives an empty type for a header it cannot read.
  return parseContentType(header).type || see(header);
}

/**
 * Text cut to SHOWN_CHARS, with control characters written as `\uXXXX`: an answer's body lands in
 * a terminal or a CI log, where raw escape sequences would restyle or rewrite what people see.
 * `redact` takes the key out first, while the text is whole.
 */
export function show(text: string, redact: (text: string) => string = (whole) => whole): string {
  const whole = redact(text);
  const cut = whole.length > SHOWN_CHARS ? `${whole.slice(0, SHOWN_CHARS)}…` : whole;
  return cut.replace(
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A value as JSON, cut to SHOWN_CHARS. */
export function showJson(value: unknown): string {
  return show(JSON.stringify(value) ?? "undefined");
}
