// The options a client is made with, and the checks that turn a bad one into a clear TypeError
// before any request is sent.
import type { Middleware } from "openapi-fetch";
import type { FlowEvent } from "./events.js";
import type { FlowTransport } from "./limits.js";
import type { RetryOptions } from "./retry.js";

export interface ClientOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. Default: the `FLOW_API_KEY` environment variable (never read in browsers). */
  apiKey?: string | undefined;
  /** e.g. "https://api.example.com". Default: `FLOW_BASE_URL`, else the base URL given at generation. */
  baseUrl?: string | undefined;
  /** Allow `http://` to hosts other than loopback (127.0.0.1, ::1, localhost). Default false. */
  allowInsecureHttp?: boolean | undefined;
  /** Deadline for a whole call in ms, retries and waits included. Default 60000. */
  timeoutMs?: number | undefined;
  /** Retry policy, or false for a single attempt. */
  retry?: RetryOptions | false | undefined;
  /** Shared concurrency cap and rate-limit figures (`createFlowTransport`). Default: figures of its own, no cap. */
  transport?: FlowTransport | undefined;
  /** Custom fetch for openapi-fetch (tests, proxies), called with a `Request` on every attempt. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Extra headers sent on every call. */
  headers?: Record<string, string> | undefined;
  /** openapi-fetch middleware run on every attempt, after the client's own auth middleware. */
  middleware?: Middleware[] | undefined;
  /** Observability: sees every attempt, its status and duration, and retry decisions. A hook that throws fails the call. */
  onEvent?: ((event: FlowEvent) => void) | undefined;
  /** Check input before sending and output after receiving (needs `flowgen generate --validators`). Default "throw" when generated with validators. */
  validate?: "throw" | "warn" | false | undefined;
}

/**
 * The API key to send: the option, else `FLOW_API_KEY`. Throws a TypeError that says what to pass
 * when it is missing or could not be sent as a header (whose error would quote it).
 *
 * @example
 * const apiKey = checkApiKey("@acme/qa", options.apiKey ?? env("FLOW_API_KEY"));
 */
export function checkApiKey(flowId: string, apiKey: unknown): string {
  if (typeof apiKey === "string" && /^[\x21-\x7e]+$/.test(apiKey))
    return apiKey;
  throw new TypeError(
    `${flowId}: pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters`,
  );
}

/**
 * The base URL without trailing slashes, checked: absolute http(s), no query, fragment or
 * credentials, and `http://` only to loopback unless `allowHttp`. Throws one TypeError for every
 * way it can be wrong, saying what to pass.
 *
 * @example
 * checkBaseUrl("@acme/qa", "https://api.example.com/"); // "https://api.example.com"
 */
export function checkBaseUrl(
  flowId: string,
  baseUrl: string | undefined,
  allowHttp?: boolean,
): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl!);
  } catch {
    // refused below with the other bad values
  }
  // A query or fragment would swallow the appended path; fetch refuses URLs with credentials;
  // over http:// the key would cross the network in clear text, so only to loopback unless the
  // caller insists.
  if (
    url &&
    !/[?#]/.test(baseUrl!) &&
    !url.username &&
    !url.password &&
    (url.protocol === "https:" ||
      (url.protocol === "http:" &&
        (allowHttp ||
          /^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname))))
  )
    return baseUrl!.replace(/\/+$/, "");
  throw new TypeError(
    `${flowId}: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query or credentials, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got ${JSON.stringify(baseUrl)}`,
  );
}

/**
 * An environment variable, where there is an environment (Node, Bun, Deno); never in browsers,
 * where a bundler's `process.env` shim would put the key in the page.
 *
 * @example
 * env("FLOW_BASE_URL"); // "https://api.example.com", or undefined
 */
export function env(name: string): string | undefined {
  const global = globalThis as {
    document?: unknown;
    process?: { env?: Record<string, string | undefined> };
  };
  if (global.document !== undefined) return undefined;
  return global.process?.env?.[name] || undefined;
}
