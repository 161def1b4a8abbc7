// The options a client is made with, and the checks that turn a bad one into a clear TypeError
// before any request is sent.
import type { Middleware } from "openapi-fetch";
import { createKeySource, type ApiKey, type KeySource } from "./auth.js";
import type { FlowDefinition } from "./client.js";
import type { FlowEvent } from "./events.js";
import type { FlowTransport } from "./limits.js";
import type { Redact } from "./redact.js";
import type { RetryOptions } from "./retry.js";

export interface ClientOptions {
  /**
   * Sent as `Authorization: Bearer <apiKey>`: the key, or a function returning it (or a promise of
   * it), called before every attempt and called again once after a 401, for short-lived tokens
   * that your backend hands out. Default: the `FLOW_API_KEY` environment variable (never read in
   * browsers).
   */
  apiKey?: ApiKey | undefined;
  /**
   * false: send no Authorization header and need no key, for a backend on the page's own origin
   * that adds the key (a browser app then never holds one). Default true.
   */
  auth?: boolean | undefined;
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

/** What `createFlowClient` takes from its options once they are checked. */
export interface CheckedOptions {
  /** The key of each attempt. */
  readonly keys: KeySource;
  readonly baseUrl: string;
  /** Replaces the API keys in any text: every error and event passes through it. */
  readonly redact: Redact;
  readonly validate: "throw" | "warn" | false;
}

/**
 * Checks the options a client is made with, and the flow it is made for, before any request is
 * sent; throws a TypeError saying what to pass. No message quotes the API key.
 *
 * @example
 * const { keys, baseUrl, redact, validate } = checkOptions(flow, defaults.baseUrl, options);
 */
export function checkOptions(
  flow: FlowDefinition,
  defaultBaseUrl: string | undefined,
  options: ClientOptions,
): CheckedOptions {
  const { id: flowId, validators } = flow;
  if (options.auth === false && options.apiKey !== undefined)
    throw new TypeError(
      `${flowId}: pass either { auth: false } (a proxy adds the key) or { apiKey }, not both`,
    );
  const keys = createKeySource(
    flowId,
    options.auth === false ? false : (options.apiKey ?? env("FLOW_API_KEY")),
  );
  const { redact } = keys;
  checkFlowPath(flowId, flow.path, redact);
  const baseUrl = checkBaseUrl(
    flowId,
    options.baseUrl ?? env("FLOW_BASE_URL") ?? defaultBaseUrl,
    options.allowInsecureHttp,
    redact,
  );
  const validate = options.validate ?? (validators ? "throw" : false);
  if (validate && !validators)
    throw new TypeError(
      `${flowId}: validate is set but this client has no validators; run flowgen generate --validators`,
    );
  return { keys, baseUrl, redact, validate };
}

/**
 * The flow's path, checked: `/v1/@<org>/<flow-name>`, the route of the platform's contract. The
 * path is appended to the base URL as text, so anything else could leave `/v1/` (`/v1/../admin`)
 * or even the origin (`@other.example/x` right after `https://api.example.com` names another host).
 *
 * @example
 * checkFlowPath("@acme/qa", "/v1/@acme/qa", redact); // "/v1/@acme/qa"
 */
export function checkFlowPath(
  flowId: string,
  path: unknown,
  redact: Redact,
): string {
  if (typeof path === "string" && /^\/v1\/@[a-z0-9-]+\/[a-z0-9-]+$/.test(path))
    return path;
  throw new TypeError(
    `${flowId}: the flow's path must be "/v1/@<org>/<flow-name>", as flowgen generates it; got ${quote(path, redact)}`,
  );
}

/**
 * The base URL without trailing slashes, checked: absolute http(s) (or, in a page, a path such as
 * "/api" on the page's own origin), no query, fragment, credentials or API key, and `http://` only
 * to loopback unless `allowHttp`. Throws a TypeError saying what to pass, which quotes the value
 * without its credentials or the key.
 *
 * @example
 * checkBaseUrl("@acme/qa", "https://api.example.com/", false, redact); // "https://api.example.com"
 */
export function checkBaseUrl(
  flowId: string,
  baseUrl: string | undefined,
  allowHttp: boolean | undefined,
  redact: Redact,
): string {
  const page = pageOrigin(baseUrl);
  let url: URL | undefined;
  try {
    url = new URL(baseUrl!, page);
  } catch {
    // refused below with the other bad values
  }
  // A query or fragment would swallow the appended path; fetch refuses URLs with credentials;
  // the key belongs in the Authorization header, not in every proxy's log of URLs; over http://
  // it would cross the network in clear text, so only to loopback unless the caller insists.
  if (
    typeof baseUrl === "string" &&
    url &&
    redact(baseUrl) === baseUrl &&
    !/[?#]/.test(baseUrl) &&
    !url.username &&
    !url.password &&
    (page === undefined || url.origin === page) &&
    (url.protocol === "https:" ||
      (url.protocol === "http:" &&
        (allowHttp ||
          /^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname))))
  )
    // As the URL reads it: what it leaves out (spaces or a line break around it, a tab inside it)
    // would otherwise reach the path, and a backslash is a slash to it but not to a concatenation.
    return url.href.replace(/\/+$/, "");
  const shown =
    url && (url.username || url.password)
      ? `${quote(Object.assign(url, { username: "", password: "" }).href, redact)} (credentials left out)`
      : quote(baseUrl, redact);
  throw new TypeError(
    `${flowId}: pass { baseUrl } or set FLOW_BASE_URL: an https:// URL without query, credentials or API key, e.g. "https://api.example.com" (http:// only to localhost, unless { allowInsecureHttp: true }); got ${shown}`,
  );
}

/**
 * In a page, the origin a path such as "/api" resolves against (a same-origin proxy); undefined
 * for anything else, and outside pages.
 */
function pageOrigin(baseUrl: string | undefined): string | undefined {
  const page = (globalThis as { location?: { origin?: unknown } }).location
    ?.origin;
  return typeof page === "string" && baseUrl?.startsWith("/")
    ? page
    : undefined;
}

/** A bad option's value for a message: a string quoted without the key, else only its type. */
function quote(value: unknown, redact: Redact): string {
  return typeof value === "string"
    ? JSON.stringify(redact(value))
    : typeof value;
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
