// Servers sometimes echo the Authorization header back, in a body, a header or a request id.
// Everything a client keeps from a response passes through here first, so the key cannot reach
// an error, a log line or an event. Keys of any length are replaced: a short test key garbles the
// text it happens to match, which is the lesser harm.

const MASK = "[redacted]";

/**
 * `text` with every occurrence of `secret` replaced.
 *
 * @example
 * redact("Bearer sk_123 is revoked", "sk_123"); // "Bearer [redacted] is revoked"
 */
export function redact(text: string, secret: string): string {
  return text.includes(secret) ? text.replaceAll(secret, MASK) : text;
}

/**
 * A copy of a JSON value with `secret` replaced in every string, object keys included.
 *
 * @example
 * redactDeep({ [key]: key }, key); // { "[redacted]": "[redacted]" }
 */
export function redactDeep(value: unknown, secret: string): unknown {
  if (typeof value === "string") return redact(value, secret);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secret));
  return typeof value === "object" && value
    ? Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          redact(k, secret),
          redactDeep(v, secret),
        ]),
      )
    : value;
}

/**
 * The response itself when no header or status text holds `secret`; else a body-less copy with
 * it replaced (and headers named after it left out), so `error.response` and `error.headers` stay
 * safe to print.
 *
 * @example
 * const safe = redactResponse(response, apiKey);
 */
export function redactResponse(response: Response, secret: string): Response {
  const { status, statusText } = response;
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  // A comma in the key can only make this find a leak that is not there: a needless copy.
  if (!`${statusText} ${headers.join(" ")}`.includes(secret)) return response;
  return new Response(null, {
    status,
    statusText: redact(statusText, secret),
    // A header whose name holds the key is left out: "[redacted]" is not a valid header name.
    headers: headers
      .filter(([name]) => !name.includes(secret))
      .map(([name, value]): [string, string] => [name, redact(value, secret)]),
  });
}
