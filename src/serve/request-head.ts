import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { HttpError } from "./error-body.js";

/**
 * Checks of a request's head that Node's parsed `headers` cannot make, read from the raw header
 * lines once. Node keeps the first of several Authorization, Host or Content-Type fields and drops
 * the others, so a request could show one value to a proxy in front and another to the server:
 * such a request is refused, not read.
 */

/** Lower-case names of the fields a request may carry at most once, and how messages spell them. */
const SINGLE_FIELDS: ReadonlyMap<string, string> = new Map([
  ["authorization", "Authorization"],
  ["host", "Host"],
  ["content-type", "Content-Type"],
]);
const SINGLE_FIELD_LENGTHS = new Set([...SINGLE_FIELDS.keys()].map((name) => name.length));

/**
 * The refusal a request's head gets before anything else is decided, or undefined: a field of
 * SINGLE_FIELDS sent twice (400), or an HTTP/1.1 request without Host (400, RFC 9112 §3.2). Neither
 * tells a caller anything about keys or flows, and neither request can be read one way only, so
 * they come before auth.
 *
 * @example
 * const refused = checkRequestHead(request.raw); // HttpError(400) for two Authorization headers
 */
export function checkRequestHead(raw: IncomingMessage): HttpError | undefined {
  const counts = countSingleFields(raw.rawHeaders);
  for (const [name, spelled] of SINGLE_FIELDS) {
    if ((counts.get(name) ?? 0) > 1)
      return new HttpError(400, `The request has more than one ${spelled} header; send it once.`);
  }
  if (raw.httpVersion === "1.1" && !counts.has("host"))
    return new HttpError(400, "The request has no Host header; HTTP/1.1 requests must send one.");
  return undefined;
}

/**
 * The 417 for an `Expect` other than `100-continue` (RFC 9110 §10.1.1), or undefined. Admission
 * asks only once a call may be answered at all (a good key, or a path that needs none), so a caller
 * without a good key gets its 401 whatever it expects, and a 417 to a key carries its RateLimit
 * headers and counts like any other answer to it.
 *
 * @example
 * const unmet = checkExpectation(request.raw); // HttpError(417) for Expect: foo
 */
export function checkExpectation(raw: IncomingMessage): HttpError | undefined {
  const expectation = raw.headers.expect;
  if (expectation === undefined || raw.httpVersion !== "1.1" || isContinue(expectation))
    return undefined;
  return new HttpError(
    417,
    "The only expectation this server meets is Expect: 100-continue; send the request without the other.",
  );
}

/**
 * Whether the client waits for `100 Continue` before it sends the body. Node leaves that answer to
 * the server (app.ts), which sends it only once the call is admitted: a caller without a good key
 * gets its 401 and never an invitation to send the body.
 */
export function wantsContinue(raw: IncomingMessage): boolean {
  const expectation = raw.headers.expect;
  return expectation !== undefined && raw.httpVersion === "1.1" && isContinue(expectation);
}

/**
 * The 415 for a body sent in a coding this server does not decode (a Content-Encoding other than
 * identity, a Transfer-Encoding other than chunked), or undefined. Read as it is, a gzip body would
 * be refused as broken JSON at best, and checked as something it is not at worst.
 */
export function checkBodyCoding(headers: IncomingHttpHeaders): HttpError | undefined {
  const content = headers["content-encoding"]?.trim().toLowerCase();
  const transfer = headers["transfer-encoding"]?.trim().toLowerCase();
  const contentOk = content === undefined || content === "" || content === "identity";
  if (contentOk && (transfer === undefined || transfer === "chunked")) return undefined;
  return new HttpError(
    415,
    "The body must be sent as it is: this server decodes no Content-Encoding (such as gzip) and no Transfer-Encoding but chunked; send the JSON uncompressed.",
    { headers: { "accept-encoding": "identity" } },
  );
}

function countSingleFields(rawHeaders: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? "";
    if (!SINGLE_FIELD_LENGTHS.has(name.length)) continue;
    const lower = name.toLowerCase();
    if (SINGLE_FIELDS.has(lower)) counts.set(lower, (counts.get(lower) ?? 0) + 1);
  }
  return counts;
}

function isContinue(expectation: string): boolean {
  return expectation.trim().toLowerCase() === "100-continue";
}
