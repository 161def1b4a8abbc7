// A flow answers; it never redirects. Following a redirect would send the call (and, after a 307
// or 308, its body) to an origin the caller did not name, maybe over http://, and pass that
// origin's answer off as the flow's output. So clients ask fetch not to follow (`redirect:
// "manual"`), and whatever comes back of a redirect becomes a `redirected` failure here.
import type { FlowErrorInit } from "./errors.js";

const ADVICE = "a flow never redirects: check baseUrl";

/**
 * True for the answer to a redirect: the 3xx itself (Node, Bun, Deno), an "opaqueredirect" with
 * status 0 (browsers, which hide the rest), or, from a custom `fetch` that followed it anyway,
 * the answer of wherever it led.
 *
 * @example
 * if (isRedirect(response)) return fail(context, describeRedirect(response));
 */
export function isRedirect(response: Response): boolean {
  const { status, type, redirected } = response;
  return (
    (status >= 300 && status < 400) || type === "opaqueredirect" || redirected
  );
}

/**
 * The failure a redirect amounts to. It names the status and the target's origin, never the
 * target's path or query, which may hold credentials.
 *
 * @example
 * describeRedirect(response).message; // "HTTP 307 redirects to https://other.example (not called); …"
 */
export function describeRedirect(
  response: Response,
): Omit<FlowErrorInit, "flowId"> {
  const { status, url } = response;
  const location = response.headers.get("location");
  const message = response.redirected
    ? `a custom fetch followed a redirect to ${originOf(url)} (its answer is not used); ${ADVICE} and fetch`
    : status === 0
      ? `a redirect that the browser hides; ${ADVICE}`
      : location === null
        ? `HTTP ${status} without a Location; ${ADVICE}`
        : `HTTP ${status} redirects to ${originOf(location, url)} (not called); ${ADVICE}`;
  return { kind: "redirected", code: "redirected", message, status, response };
}

/** The origin of a URL (relative to `base`), or what stands in for one that has none. */
function originOf(target: string, base?: string): string {
  let url: URL;
  try {
    url = new URL(target, base || undefined);
  } catch {
    return "an unreadable Location";
  }
  return url.origin === "null" ? `a ${url.protocol} URL` : url.origin;
}
