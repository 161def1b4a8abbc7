// Shared runtime for flowgen clients. Copied verbatim next to the generated flow modules, so it
// imports nothing but openapi-fetch and uses only what browsers and Node both have.
import createClient from "openapi-fetch";

/** Where a flow lives on the platform, e.g. `{ id: "@acme/qa", path: "/v1/@acme/qa" }`. */
export interface FlowDefinition {
  readonly id: string;
  readonly path: string;
}

export interface ClientOptions {
  /** API key sent as `Authorization: Bearer <apiKey>`. It always wins over a header of that name. */
  apiKey: string;
  /** e.g. "https://api.example.com"; falls back to the default baked in at generation; error if neither. */
  baseUrl?: string;
  /** Custom fetch (tests, proxies, retries); defaults to `globalThis.fetch`. */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers sent on every call. */
  headers?: Record<string, string>;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Extra headers for this call only; they override `ClientOptions.headers`. */
  headers?: Record<string, string>;
}

export interface FlowErrorDetail {
  pointer: string;
  message: string;
}

/** The platform's error body. */
export interface FlowErrorBody {
  code: string;
  message: string;
  details?: FlowErrorDetail[];
  requestId?: string;
}

export interface FlowErrorInit {
  flowId: string;
  status: number;
  code: string;
  message: string;
  body?: FlowErrorBody | undefined;
  requestId?: string | undefined;
  response?: Response | undefined;
  cause?: unknown;
}

/**
 * Any failure of a flow call: an HTTP error (`status` and the platform's `code`), `network_error`
 * and `aborted` (`status` 0, see `cause`) or `invalid_response` (a 2xx whose body is not JSON).
 * Its message, `toString()`, stack and JSON never contain the API key.
 *
 * @example
 * try {
 *   await qa.run({ question: "Why?" });
 * } catch (error) {
 *   if (error instanceof FlowError && error.code === "rate_limited") retryLater(error.requestId);
 *   else throw error;
 * }
 */
export class FlowError extends Error {
  static {
    // On the prototype rather than a field so the stack, captured in super(), already says FlowError.
    this.prototype.name = "FlowError";
  }
  readonly flowId: string;
  /** HTTP status, or 0 when no response arrived (network failure, abort). */
  readonly status: number;
  readonly code: string;
  readonly body: FlowErrorBody | undefined;
  readonly requestId: string | undefined;
  readonly response: Response | undefined;

  constructor(init: FlowErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.flowId = init.flowId;
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.requestId = init.requestId;
    this.response = init.response;
  }

  /** A log-safe summary: leaves out `response` and `cause`, which are not plain data. */
  toJSON(): Record<string, unknown> {
    const { flowId, status, code, message, requestId } = this;
    return { flowId, status, code, message, requestId, details: this.body?.details };
  }
}

export type FlowResult<Output> =
  | { data: Output; error: undefined; response: Response }
  | { data: undefined; error: FlowError; response: Response | undefined };

export interface FlowClient<Input, Output> {
  readonly flowId: string;
  /** Resolves with the output, throws FlowError on any failure. */
  run(input: Input, options?: RunOptions): Promise<Output>;
  /** Never throws for HTTP/network failures: returns { data, error, response }. */
  call(input: Input, options?: RunOptions): Promise<FlowResult<Output>>;
}

/**
 * Creates a client for one flow: `POST {baseUrl}{flow.path}` with a JSON body and the API key.
 * Generated modules call this; you normally call their `create…Client` wrappers instead.
 * Throws a TypeError right away when `apiKey` or `baseUrl` is missing or malformed.
 *
 * @example
 * const qa = createFlowClient<QaInput, QaOutput>(
 *   { id: "@acme/qa", path: "/v1/@acme/qa" },
 *   { baseUrl: "https://api.example.com" },
 *   { apiKey: process.env.FLOW_API_KEY ?? "" },
 * );
 * const { answer } = await qa.run({ question: "Why?" });
 */
export function createFlowClient<Input, Output>(
  flow: FlowDefinition,
  defaults: { readonly baseUrl?: string },
  options: ClientOptions,
): FlowClient<Input, Output> {
  const apiKey = checkApiKey(flow.id, options.apiKey);
  const baseUrl = checkBaseUrl(flow.id, options.baseUrl ?? defaults.baseUrl);
  const client = createClient<AnyFlowPaths>({
    baseUrl,
    headers: options.headers ?? {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  function fail(code: string, message: string, init: Partial<FlowErrorInit> = {}): FlowError {
    const safe = `${flow.id}: ${redact(message, apiKey)}`;
    return new FlowError({ status: 0, ...init, flowId: flow.id, code, message: safe });
  }

  async function call(input: Input, runOptions: RunOptions = {}): Promise<FlowResult<Output>> {
    const { signal } = runOptions;
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      result = await client.POST(flow.path, {
        body: input,
        // Text, not json: openapi-fetch would throw a bare SyntaxError on a non-JSON 2xx body.
        parseAs: "text",
        // Set last so a stray "authorization" header in options cannot replace the key.
        headers: { ...runOptions.headers, Authorization: `Bearer ${apiKey}` },
        ...(signal ? { signal } : {}),
      });
    } catch (cause) {
      // Check our signal first: abort(reason) rejects with the reason, which need not be an AbortError.
      const aborted =
        signal?.aborted === true || (cause instanceof Error && cause.name === "AbortError");
      const error = aborted
        ? fail("aborted", "the call was aborted", { cause })
        : fail("network_error", `network error: ${describe(cause)}`, { cause });
      return { data: undefined, error, response: undefined };
    }
    const { response } = result;
    if (!response.ok) {
      return { data: undefined, error: httpError(response, result.error), response };
    }
    try {
      // An empty body (204 or Content-Length: 0) comes back as undefined and is not JSON either.
      return { data: JSON.parse(result.data as string) as Output, error: undefined, response };
    } catch (cause) {
      const { status } = response;
      const init = { status, response, cause };
      const error = fail("invalid_response", `HTTP ${status} but the body is not JSON`, init);
      return { data: undefined, error, response };
    }
  }

  function httpError(response: Response, raw: unknown): FlowError {
    const { status } = response;
    const clean = redactDeep(raw, apiKey);
    const body = toErrorBody(clean);
    const requestId = body?.requestId ?? response.headers.get("X-Request-Id") ?? undefined;
    const suffix = requestId === undefined ? "" : ` (request id ${requestId})`;
    if (body === undefined) {
      const snippet =
        typeof clean === "string" && clean !== "" ? `: ${JSON.stringify(clean.slice(0, 200))}` : "";
      const http = `HTTP ${status} ${response.statusText}`.trim();
      const message = `${http} without a JSON error body${snippet}${suffix}`;
      return fail(`http_${status}`, message, { status, requestId, response });
    }
    const lines = (body.details ?? []).map((d) => `\n  ${d.pointer || "(input)"}: ${d.message}`);
    const message = `${body.message} [HTTP ${status} ${body.code}]${suffix}${lines.join("")}`;
    return fail(body.code, message, { status, body, requestId, response });
  }

  return {
    flowId: flow.id,
    call,
    async run(input, runOptions) {
      const result = await call(input, runOptions);
      if (result.error) throw result.error;
      return result.data;
    },
  };
}

// The runtime is generic over flows: Input/Output typing comes from the generated module.
type AnyFlowPaths = Record<
  string,
  { post: { requestBody: { content: { "application/json": unknown } } } }
>;

function checkApiKey(flowId: string, apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    const got = typeof apiKey === "string" ? "a blank string" : typeof apiKey;
    throw new TypeError(
      `${flowId}: pass { apiKey } (the API key from your account dashboard); got ${got}`,
    );
  }
  // Fail here instead of inside fetch, whose header error would quote the key.
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    const problem = "apiKey has spaces, line breaks or non-ASCII characters";
    throw new TypeError(`${flowId}: ${problem}; pass the key exactly as issued`);
  }
  return apiKey;
}

function checkBaseUrl(flowId: string, baseUrl: string | undefined): string {
  if (baseUrl === undefined) {
    const example = `(e.g. "https://api.example.com")`;
    throw new TypeError(
      `${flowId}: pass { baseUrl } ${example}; this client was generated without a default`,
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // reported below with the other malformed values
  }
  // A query or fragment would swallow the appended path; fetch refuses URLs with credentials.
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    /[?#]/.test(baseUrl) ||
    url.username ||
    url.password
  ) {
    const hint = `is not an absolute http(s) URL without query or credentials`;
    throw new TypeError(
      `${flowId}: baseUrl ${JSON.stringify(baseUrl)} ${hint}; pass e.g. "https://api.example.com"`,
    );
  }
  // openapi-fetch strips only one trailing slash; strip them all so the path never starts with "//".
  return baseUrl.replace(/\/+$/, "");
}

function toErrorBody(value: unknown): FlowErrorBody | undefined {
  if (!isRecord(value) || typeof value["code"] !== "string" || typeof value["message"] !== "string")
    return undefined;
  // Keep extra fields the platform may add, but only well-formed details and request ids.
  const { details, requestId, ...rest } = value;
  const body: FlowErrorBody = { ...rest, code: value["code"], message: value["message"] };
  if (Array.isArray(details)) {
    body.details = details.filter(
      (d): d is FlowErrorDetail =>
        isRecord(d) && typeof d["pointer"] === "string" && typeof d["message"] === "string",
    );
  }
  if (typeof requestId === "string") body.requestId = requestId;
  return body;
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, DNS, TLS) is on its cause.
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
  return `${cause.message}${inner}`;
}

// Short keys are skipped: replacing "k" would garble every message, and real keys are long.
function redact(text: string, secret: string): string {
  return secret.length < 8 ? text : text.replaceAll(secret, "[redacted]");
}

// Servers sometimes echo the Authorization header back; scrub it from everything we keep.
function redactDeep(value: unknown, secret: string): unknown {
  if (typeof value === "string") return redact(value, secret);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secret));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, secret)]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
