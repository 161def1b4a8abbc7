import { isUtf8 } from "node:buffer";
import type { FastifyInstance } from "fastify";
import { findValueBeyondLimits } from "../json-limits.js";
import { jsonSyntaxError } from "../spec/parse-document.js";
import { HttpError, type ErrorDetail } from "./error-body.js";
import { checkJsonContentType } from "./json-content-type.js";

/**
 * Reads `application/json` bodies for the flow routes, and no other media type (415). A body is
 * refused unless it is UTF-8 (415 for another declared charset, or a Content-Type that does not
 * parse cleanly: json-content-type.ts; 400 for bytes that are not UTF-8), parses as JSON (400
 * `invalid_json`, with JSON.parse's words and position), nests at most `maxDepth` arrays and
 * objects, and holds only finite numbers (400 with the pointer: `1e400` would be Infinity). A
 * `__proto__` or `constructor` key is data like any other: the input schema decides, as the spec
 * checks and generated validators do (see `parseText`).
 *
 * @example
 * useJsonBody(app, { maxDepth: 64 });
 */
export function useJsonBody(app: FastifyInstance, options: { readonly maxDepth: number }): void {
  // JSON only: Fastify's text/plain parser would hand a flow a string.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    try {
      done(null, readJsonBody(request.headers["content-type"], body as Buffer, options.maxDepth));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

function readJsonBody(contentType: string | undefined, body: Buffer, maxDepth: number): unknown {
  const unsupported = checkJsonContentType(contentType);
  if (unsupported !== undefined) throw unsupported;
  if (body.length === 0)
    throw new HttpError(400, "The body is empty; send the flow's input as JSON.", {
      code: "invalid_json",
    });
  if (!isUtf8(body))
    throw new HttpError(400, "The body is not valid UTF-8; send the flow's input as UTF-8 JSON.", {
      code: "invalid_json",
    });
  const value = parseText(body.toString("utf8"));
  const problem = findDepthOrNumberProblem(value, maxDepth);
  if (problem !== undefined) {
    const where = problem.pointer === "" ? "The body" : `The body at ${problem.pointer}`;
    throw new HttpError(400, `${where} ${problem.message}.`, { details: [problem] });
  }
  return value;
}

/**
 * JSON.parse makes every key an own data property (ECMA-262 JSON.parse, CreateDataProperty): a
 * `"__proto__"` key is a property named `__proto__`, never the object's prototype, so nothing is
 * polluted. Serve never merges a body into another object (Object.assign or a `[[Set]]` loop would
 * call the `__proto__` setter); the checks read own properties only.
 */
function parseText(text: string): unknown {
  // A byte order mark is allowed to be ignored (RFC 8259 §8.1); JSON.parse would not.
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    // Said by position: JSON.parse's own message quotes the text, which may hold part of a key.
    const { line, column, problem } = jsonSyntaxError(json);
    throw new HttpError(
      400,
      `The body is not valid JSON: ${problem} at line ${line}, column ${column}; send the flow's input as JSON.`,
      { code: "invalid_json" },
    );
  }
}

/**
 * The first array or object nested deeper than `maxDepth`, or the first number that is not finite,
 * as a detail with its pointer (json-limits.ts finds it).
 */
export function findDepthOrNumberProblem(
  value: unknown,
  maxDepth: number,
): ErrorDetail | undefined {
  const found = findValueBeyondLimits(value, { maxDepth, finiteNumbers: true });
  if (found === undefined) return undefined;
  const message =
    found.kind === "not-finite"
      ? "is a number too large to represent: JSON numbers must be finite (at most about 1.8e308)"
      : `nests arrays and objects deeper than ${maxDepth} levels, the most this server accepts (--max-depth)`;
  return { pointer: found.pointer, message };
}
