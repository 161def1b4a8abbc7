import { parse as parseContentType } from "fast-content-type-parse";
import { HttpError } from "./error-body.js";

/** Charsets that name UTF-8 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8). */
const UTF8_CHARSETS = new Set(["utf-8", "utf8"]);

const SEMICOLON = 0x3b;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * The 415 for a Content-Type this server does not read as UTF-8 JSON, or undefined. Fastify picks
 * the JSON parser by a lenient reading of the header (its media type, then whatever parameters a
 * pattern finds, the last of a repeated one winning), so the header is read again here, strictly
 * (RFC 9110 §8.3.1, in one pass): one that does not parse whole, names another media type, names
 * `charset` twice, or names a charset other than UTF-8 is refused. A header two readers could take
 * two ways is never guessed at: `charset=utf-16=` would otherwise pass as no charset at all, and
 * `charset=utf-8; charset=latin1` as either.
 *
 * @example
 * checkJsonContentType("application/json; charset=utf-8; charset=latin1"); // HttpError(415)
 */
export function checkJsonContentType(contentType: string | undefined): HttpError | undefined {
  if (contentType === "application/json") return undefined;
  let parsed: ReturnType<typeof parseContentType>;
  try {
    parsed = parseContentType(contentType ?? "");
  } catch {
    return unsupported("the header sent is not a well-formed media type");
  }
  if (parsed.type !== "application/json") return unsupported("the header sent names another type");
  if (countCharsetParameters(contentType ?? "") > 1)
    return unsupported("the header sent names charset more than once");
  const charset = parsed.parameters["charset"]?.toLowerCase();
  if (charset !== undefined && !UTF8_CHARSETS.has(charset))
    return unsupported(`got charset=${charset}`);
  return undefined;
}

function unsupported(why: string): HttpError {
  return new HttpError(
    415,
    `The body must be UTF-8 JSON: send Content-Type: application/json (${why}).`,
  );
}

/**
 * How many parameters of a header that parsed are named `charset`, any case: the parser keeps the
 * first of them only. In a header that parsed, a parameter's name follows a `;` outside quotes and
 * optional spaces, and ends at its `=`; a `;` inside a quoted value starts nothing.
 */
function countCharsetParameters(header: string): number {
  let count = 0;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const code = header.charCodeAt(i);
    if (quoted) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) quoted = false;
    } else if (code === QUOTE) quoted = true;
    else if (code === SEMICOLON) {
      let name = i + 1;
      while (header.charCodeAt(name) === SPACE || header.charCodeAt(name) === TAB) name++;
      if (header.slice(name, name + 8).toLowerCase() === "charset=") count++;
    }
  }
  return count;
}
