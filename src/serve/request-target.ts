/**
 * The one reading of a request's target that the server routes on and authorizes from. Nothing
 * is decoded or normalized: `/v1/%40acme/qa`, `/v1/@acme/qa/` and `/v1/@acme/./qa` are paths of
 * their own, which match no flow, so a spelling can never reach a flow past the check that the
 * flow's own path gets.
 */

/** An absolute-form target (RFC 9112 §3.2.2), `http://host:port/path?query`: scheme and authority. */
const ABSOLUTE_FORM_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path of a request target, exactly as sent: the part before `?` of an origin-form target
 * (`/v1/@acme/qa?x=1` → `/v1/@acme/qa`), and the same part after the authority of an
 * absolute-form one (`http://x/v1/@acme/qa` → `/v1/@acme/qa`). Undefined for a target with no path
 * (`*`, `host:443`, `http://x`), which no route matches.
 *
 * @example
 * requestPath("/v1/@acme/qa?api_key=…"); // "/v1/@acme/qa"
 */
export function requestPath(target: string): string | undefined {
  let start = 0;
  if (target.charCodeAt(0) !== 0x2f /* / */) {
    const prefix = ABSOLUTE_FORM_PREFIX.exec(target);
    if (prefix === null || target.charCodeAt(prefix[0].length) !== 0x2f) return undefined;
    start = prefix[0].length;
  }
  const query = target.indexOf("?", start);
  return query === -1 ? (start === 0 ? target : target.slice(start)) : target.slice(start, query);
}
