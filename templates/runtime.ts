// Shared runtime for flowgen clients. Copied verbatim next to the generated flow modules; it uses
// only what browsers and Node both have. It calls `fetch(url, init)` itself rather than through
// openapi-fetch, whose per-call `Request` object costs a fifth more time and 2.9 KB of bundle;
// `withMiddleware` runs openapi-fetch middleware (its type is all this file imports from it).
import type { Middleware } from "openapi-fetch";

/** Where a flow lives on the platform, and its validators when generated with `--validators`. */
export interface FlowDefinition {
  readonly id: string;
  readonly path: string;
  readonly validators?: FlowValidators;
}

/** Checks a value against one of the flow's JSON Schemas: one detail per violation, none if valid. */
export type Validate = (value: unknown) => FlowErrorDetail[];

export interface FlowValidators {
  readonly input: Validate;
  readonly output: Validate;
}

export interface RetryOptions {
  /** Attempts after the first one. Default 2; 0 turns retrying off. */
  maxRetries?: number;
  /** The first backoff step in ms, doubled at each retry, with full jitter. Default 500. */
  baseDelayMs?: number;
  /** The longest wait between attempts in ms; a server that asks for longer is not retried. Default 30000. */
  maxDelayMs?: number;
}

/** What `onEvent` sees: one `request` per attempt, then its `response` or `error`, then maybe a `retry`. */
export type FlowEvent =
  | { type: "request"; flowId: string; attempt: number }
  | {
      type: "response";
      flowId: string;
      attempt: number;
      status: number;
      durationMs: number;
      requestId: string | undefined;
    }
  | {
      type: "error";
      flowId: string;
      attempt: number;
      durationMs: number;
      error: FlowFailure;
    }
  | {
      type: "retry";
      flowId: string;
      attempt: number;
      delayMs: number;
      error: FlowFailure;
    };

/** What the client calls to send a request: `fetch` itself, or anything with its signature. */
export type FetchLike = (
  input: string | Request,
  init?: RequestInit,
) => Promise<Response>;

export interface ClientOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. Default: the `FLOW_API_KEY` environment variable (never read in browsers). */
  apiKey?: string;
  /** e.g. "https://api.example.com". Default: `FLOW_BASE_URL`, else the base URL given at generation. */
  baseUrl?: string;
  /** Allow `http://` to hosts other than loopback (127.0.0.1, ::1, localhost). Default false. */
  allowInsecureHttp?: boolean;
  /** Deadline for a whole call in ms, retries and waits included. Default 60000. */
  timeoutMs?: number;
  /** Retry policy, or false for a single attempt. */
  retry?: RetryOptions | false;
  /** At most this many requests in flight; further calls queue. Clients made from one options object share it. */
  maxConcurrency?: number;
  /** Custom fetch (tests, proxies, `withMiddleware(...)`), called like `fetch(url, init)`. */
  fetch?: FetchLike;
  /** Extra headers sent on every call. */
  headers?: Record<string, string>;
  /** Observability: sees every attempt, its status and duration, and retry decisions. A hook that throws fails the call. */
  onEvent?: (event: FlowEvent) => void;
  /** Check input before sending and output after receiving (needs `flowgen generate --validators`). Default "throw" when generated with validators. */
  validate?: "throw" | "warn" | false;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Deadline for this call in ms, over the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Extra headers for this call only; they override `ClientOptions.headers`. */
  headers?: Record<string, string>;
  /** The call may run twice safely: retry server errors, timeouts and dropped connections too. */
  idempotent?: boolean;
  /** Sent as `Idempotency-Key`, the same on every attempt; implies `idempotent`. */
  idempotencyKey?: string;
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

/** The last rate-limit figures a server sent (`RateLimit-*` or `X-RateLimit-*` headers). */
export interface RateLimit {
  limit: number | undefined;
  remaining: number | undefined;
  /** When the window resets, in ms since the epoch. */
  resetAt: number | undefined;
}

/**
 * What went wrong, for narrowing: `auth` (401/403), `not_found` (404), `invalid_input` (400/422,
 * or refused by the input validator before sending), `rate_limited` (429), `server` (5xx), `http`
 * (any other status), `timeout`, `aborted`, `connection` (no response), `invalid_response` (a
 * success whose body is not JSON or not valid against the output schema).
 */
export type FlowErrorKind =
  | "auth"
  | "not_found"
  | "invalid_input"
  | "rate_limited"
  | "server"
  | "http"
  | "timeout"
  | "aborted"
  | "connection"
  | "invalid_response";

/** Marks FlowErrors across copies of this runtime; see `isFlowError`. */
const BRAND = Symbol.for("flowgen.FlowError");

/**
 * Any failure of a flow call. `kind` says what happened; `code` is the platform's own code when it
 * sent an error body. Message, `toString()`, stack and JSON never contain the API key.
 * Narrow with `isFlowError(error)` and then `error.kind`: see `FlowFailure`.
 *
 * @example
 * try {
 *   await qa.run({ question: "Why?" });
 * } catch (error) {
 *   if (isFlowError(error) && error.kind === "rate_limited") later(error.retryAfterMs);
 *   else throw error;
 * }
 */
export class FlowError extends Error {
  static {
    // On the prototype rather than a field so the stack, captured in super(), already says FlowError.
    this.prototype.name = "FlowError";
    (this.prototype as unknown as Record<symbol, boolean>)[BRAND] = true;
  }
  readonly kind: FlowErrorKind;
  readonly flowId: string;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  /** The platform's error code (`invalid_input`, `rate_limited`…), else `http_<status>`, `timeout`, `aborted`, `network_error`, `invalid_response`. */
  readonly code: string;
  readonly body: FlowErrorBody | undefined;
  /** Problems with the request body (from the server or the input validator) or with the output. */
  readonly details: FlowErrorDetail[];
  readonly requestId: string | undefined;
  /** How long the server asked to wait (`Retry-After` or the rate-limit reset), in ms. */
  readonly retryAfterMs: number | undefined;
  /** Attempts made, retries included. */
  attempts = 1;
  readonly response: Response | undefined;

  constructor(init: FlowErrorInit) {
    super(
      init.message,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.kind = init.kind;
    this.flowId = init.flowId;
    this.status = init.status ?? 0;
    this.code = init.code;
    this.body = init.body;
    this.details = init.details ?? init.body?.details ?? [];
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.response = init.response;
  }

  /** The response headers, when a response arrived. */
  get headers(): Headers | undefined {
    return this.response?.headers;
  }

  /** A log-safe summary: leaves out `response` and `cause`, which are not plain data. */
  toJSON(): Record<string, unknown> {
    const {
      kind,
      flowId,
      status,
      code,
      message,
      requestId,
      details,
      attempts,
    } = this;
    return {
      kind,
      flowId,
      status,
      code,
      message,
      requestId,
      details,
      attempts,
    };
  }
}

export interface FlowErrorInit {
  kind: FlowErrorKind;
  flowId: string;
  code: string;
  message: string;
  status?: number | undefined;
  body?: FlowErrorBody | undefined;
  details?: FlowErrorDetail[] | undefined;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
  response?: Response | undefined;
  cause?: unknown;
}

type Answered<K extends FlowErrorKind, S extends number> = FlowError & {
  kind: K;
  status: S;
  response: Response;
  headers: Headers;
};
type Unanswered<K extends FlowErrorKind> = FlowError & {
  kind: K;
  status: 0;
  response: undefined;
};

/** A `FlowError` narrowed by `kind`: after `error.kind === "auth"`, `error.status` is 401 | 403 and `error.response` is set. */
export type FlowFailure =
  | Answered<"auth", 401 | 403>
  | Answered<"not_found", 404>
  | Answered<"invalid_input", 400 | 422>
  | Unanswered<"invalid_input">
  | Answered<"rate_limited", 429>
  | Answered<"server", number>
  | Answered<"http", number>
  | Unanswered<"timeout" | "aborted" | "connection">
  | Answered<"invalid_response", number>;

/**
 * True for errors thrown by flow clients, narrowed so that `error.kind` tells the rest. Unlike
 * `instanceof FlowError`, it also holds for errors from another copy of this runtime (two
 * generated folders, or two bundles).
 */
export function isFlowError(value: unknown): value is FlowFailure {
  return typeof value === "object" && value !== null && BRAND in value;
}

export type FlowResult<Output> =
  | {
      data: Output;
      error: undefined;
      response: Response;
      requestId: string | undefined;
    }
  | {
      data: undefined;
      error: FlowFailure;
      response: Response | undefined;
      requestId: string | undefined;
    };

export interface FlowClient<Input, Output> {
  readonly flowId: string;
  /** The last rate-limit figures seen by any client made from the same options object. */
  readonly rateLimit: RateLimit | undefined;
  /** Resolves with the output, throws a `FlowFailure` on any failure. */
  run(input: Input, options?: RunOptions): Promise<Output>;
  /** Never throws for HTTP, network or validation failures: returns `{ data, error, response, requestId }`. */
  call(input: Input, options?: RunOptions): Promise<FlowResult<Output>>;
}

/** State that clients made from one options object share: the concurrency queue and rate limits. */
interface Shared {
  active: number;
  queue: (() => void)[];
  rateLimit: RateLimit | undefined;
}
const sharedState = new WeakMap<object, Shared>();

/**
 * Creates a client for one flow: `POST {baseUrl}{flow.path}` with a JSON body and the API key.
 * Generated modules call this; you normally call their `create…Client` wrappers instead.
 * Throws a TypeError right away when the API key or base URL is missing or malformed.
 *
 * @example
 * const qa = createFlowClient<QaInput, QaOutput>(
 *   { id: "@acme/qa", path: "/v1/@acme/qa" },
 *   { baseUrl: "https://api.example.com" },
 *   { apiKey: process.env.FLOW_API_KEY },
 * );
 * const { answer } = await qa.run({ question: "Why?" });
 */
export function createFlowClient<Input, Output>(
  flow: FlowDefinition,
  defaults: { readonly baseUrl?: string },
  options: ClientOptions = {},
): FlowClient<Input, Output> {
  const flowId = flow.id;
  const apiKey = checkApiKey(flowId, options.apiKey ?? env("FLOW_API_KEY"));
  const baseUrl = checkBaseUrl(
    flowId,
    options.baseUrl ?? env("FLOW_BASE_URL") ?? defaults.baseUrl,
    options.allowInsecureHttp,
  );
  const validators = flow.validators;
  const validate = options.validate ?? (validators ? "throw" : false);
  if (validate && !validators) {
    throw new TypeError(
      `${flowId}: validate is set but this client has no validators; run flowgen generate --validators`,
    );
  }
  const retry =
    options.retry === false ? { maxRetries: 0 } : (options.retry ?? {});
  const maxRetries = retry.maxRetries ?? 2;
  const baseDelayMs = retry.baseDelayMs ?? 500;
  const maxDelayMs = retry.maxDelayMs ?? 30_000;
  const maxConcurrency = options.maxConcurrency ?? Infinity;
  const onEvent = options.onEvent;
  let shared = sharedState.get(options);
  if (!shared)
    sharedState.set(
      options,
      (shared = { active: 0, queue: [], rateLimit: undefined }),
    );
  const state = shared;

  const url = baseUrl + flow.path;
  const fetchImpl = options.fetch;
  // Header names are case-insensitive: lower-case them so a later one replaces an earlier one.
  const clientHeaders = lowerKeys(options.headers);

  function fail(init: Omit<FlowErrorInit, "flowId">): FlowFailure {
    const message = `${flowId}: ${redact(init.message, apiKey)}`;
    return new FlowError({ ...init, flowId, message }) as FlowFailure;
  }

  /** Checks a value with a generated validator: a failure in "throw" mode, a warning in "warn" mode. */
  function check(
    which: "input" | "output",
    value: unknown,
    response?: Response,
  ) {
    const details = validate && validators ? validators[which](value) : [];
    if (details.length === 0) return undefined;
    const lines = details
      .map((d) => `\n  ${d.pointer || "(root)"}: ${d.message}`)
      .join("");
    const message = `the ${which} does not match the flow's ${which} schema${lines}`;
    if (validate === "warn") {
      console.warn(`${flowId}: ${message}`);
      return undefined;
    }
    const kind = which === "input" ? "invalid_input" : "invalid_response";
    return fail({
      kind,
      code: `invalid_${which}`,
      message,
      details,
      status: response?.status,
      response,
    });
  }

  async function call(
    input: Input,
    runOptions: RunOptions = {},
  ): Promise<FlowResult<Output>> {
    const invalid = check("input", input);
    if (invalid) return failure(invalid);
    const { signal, idempotencyKey } = runOptions;
    const timeoutMs = runOptions.timeoutMs ?? options.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    // One controller for the whole call: the caller's signal and the deadline both abort it.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort);
    const stopped = (cause: unknown) =>
      timedOut
        ? fail({
            kind: "timeout",
            code: "timeout",
            message: `no answer within ${timeoutMs} ms`,
            cause,
          })
        : fail({
            kind: "aborted",
            code: "aborted",
            message: "the call was aborted",
            cause,
          });
    const headers = { ...clientHeaders, ...lowerKeys(runOptions.headers) };
    headers["content-type"] = "application/json";
    if (idempotencyKey !== undefined)
      headers["idempotency-key"] = idempotencyKey;
    // Set last so a stray "authorization" header in options cannot replace the key.
    headers["authorization"] = `Bearer ${apiKey}`;
    const idempotent = runOptions.idempotent || idempotencyKey !== undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const result = await attemptOnce(
          input,
          headers,
          controller.signal,
          attempt,
          stopped,
        );
        const { error } = result;
        if (!error) return result;
        error.attempts = attempt;
        const delayMs =
          attempt > maxRetries ||
          controller.signal.aborted ||
          !retryable(error, idempotent)
            ? undefined
            : waitBefore(error, attempt);
        if (delayMs === undefined || Date.now() + delayMs >= deadline)
          return result;
        onEvent?.({ type: "retry", flowId, attempt, delayMs, error });
        if (!(await sleep(delayMs, controller.signal))) {
          const error = stopped(controller.signal.reason);
          error.attempts = attempt;
          return failure(error);
        }
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  function waitBefore(error: FlowFailure, attempt: number): number | undefined {
    const backoff =
      Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    const asked = error.retryAfterMs;
    if (asked === undefined) return backoff;
    return asked > maxDelayMs ? undefined : Math.max(asked, backoff);
  }

  async function attemptOnce(
    input: Input,
    headers: Record<string, string>,
    signal: AbortSignal,
    attempt: number,
    stopped: (cause: unknown) => FlowFailure,
  ): Promise<FlowResult<Output>> {
    const failed = (
      error: FlowFailure,
      started: number,
    ): FlowResult<Output> => {
      onEvent?.({
        type: "error",
        flowId,
        attempt,
        durationMs: now() - started,
        error,
      });
      return failure(error);
    };
    if (!(await acquire(signal))) return failed(stopped(signal.reason), now());
    onEvent?.({ type: "request", flowId, attempt });
    const started = now();
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = {
        method: "POST",
        headers,
        body: JSON.stringify(input),
        signal,
      };
      response = await (fetchImpl ?? fetch)(url, init);
      text = await response.text();
    } catch (cause) {
      return failed(
        signal.aborted ? stopped(cause) : networkError(cause),
        started,
      );
    } finally {
      release();
    }
    const { status } = response;
    const requestId = response.headers.get("x-request-id") ?? undefined;
    updateRateLimit(state, response.headers);
    onEvent?.({
      type: "response",
      flowId,
      attempt,
      status,
      durationMs: now() - started,
      requestId,
    });
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (cause) {
      // An error body that is not JSON is quoted as text; a success must be JSON.
      if (!response.ok) return failedHttp(response, text, requestId);
      const message = `HTTP ${status} but the body is not JSON`;
      const error = fail({
        kind: "invalid_response",
        code: "invalid_response",
        message,
        status,
        requestId,
        response,
        cause,
      });
      return failure(error, response, requestId);
    }
    if (!response.ok) return failedHttp(response, data, requestId);
    const invalid = check("output", data, response);
    if (invalid) return failure(invalid, response, requestId);
    return { data: data as Output, error: undefined, response, requestId };
  }

  function failedHttp(
    response: Response,
    body: unknown,
    requestId: string | undefined,
  ): FlowResult<Output> {
    const error = httpError(response, body, requestId);
    return failure(error, response, error.requestId);
  }

  function networkError(cause: unknown): FlowFailure {
    const message = `network error: ${describe(cause)}`;
    return fail({ kind: "connection", code: "network_error", message, cause });
  }

  function httpError(
    response: Response,
    raw: unknown,
    headerRequestId: string | undefined,
  ) {
    const { status } = response;
    const clean = redactDeep(raw, apiKey);
    const body = toErrorBody(clean);
    const requestId = body?.requestId ?? headerRequestId;
    const retryAfterMs = retryAfter(response.headers, status);
    const suffix = requestId === undefined ? "" : ` (request id ${requestId})`;
    const kind = kindOf(status);
    if (body === undefined) {
      const snippet =
        typeof clean === "string" && clean !== ""
          ? `: ${JSON.stringify(clean.slice(0, 200))}`
          : "";
      const http = `HTTP ${status} ${response.statusText}`.trim();
      const message = `${http} without a JSON error body${snippet}${suffix}`;
      return fail({
        kind,
        code: `http_${status}`,
        message,
        status,
        requestId,
        retryAfterMs,
        response,
      });
    }
    const lines = (body.details ?? []).map(
      (d) => `\n  ${d.pointer || "(input)"}: ${d.message}`,
    );
    const message = `${body.message} [HTTP ${status} ${body.code}]${suffix}${lines.join("")}`;
    return fail({
      kind,
      code: body.code,
      message,
      status,
      body,
      requestId,
      retryAfterMs,
      response,
    });
  }

  /** Waits for a free slot under `maxConcurrency`; false when the call was aborted meanwhile. */
  function acquire(signal: AbortSignal): boolean | Promise<boolean> {
    if (signal.aborted) return false;
    if (state.active < maxConcurrency) return !!++state.active;
    return new Promise((resolve) => {
      const next = () => {
        signal.removeEventListener("abort", leave);
        state.active++;
        resolve(true);
      };
      const leave = () => {
        state.queue.splice(state.queue.indexOf(next), 1);
        resolve(false);
      };
      state.queue.push(next);
      signal.addEventListener("abort", leave, { once: true });
    });
  }

  function release() {
    state.active--;
    state.queue.shift()?.();
  }

  return {
    flowId,
    get rateLimit() {
      return state.rateLimit;
    },
    call,
    async run(input, runOptions) {
      const result = await call(input, runOptions);
      if (result.error) throw result.error;
      return result.data;
    },
  };
}

/**
 * A `fetch` that runs openapi-fetch middleware around each request, for the `fetch` option: every
 * attempt passes through `onRequest` (which may replace the request or answer it), then `onError`
 * if the network fails, then `onResponse`, in openapi-fetch's order. Kept out of the client so
 * that bundles without middleware do not carry it.
 *
 * @example
 * const qa = createQaClient({ apiKey, fetch: withMiddleware([logging, tracing]) });
 */
export function withMiddleware(
  middleware: Middleware[],
  base: FetchLike = (input, init) => fetch(input, init),
): FetchLike {
  return async (input, init) => {
    let request = new Request(input, init);
    const context = {
      schemaPath: new URL(request.url).pathname,
      params: {},
      options: { baseUrl: new URL(request.url).origin, parseAs: "json" },
      id: Math.random().toString(36).slice(2),
    } as unknown as Parameters<NonNullable<Middleware["onRequest"]>>[0];
    let response: Response | undefined;
    for (const m of middleware) {
      const result = await m.onRequest?.({ ...context, request });
      if (result instanceof Response) {
        response = result;
        break;
      }
      if (result) request = result;
    }
    if (!response) {
      try {
        response = await base(request);
      } catch (error) {
        let failure: unknown = error;
        for (const m of [...middleware].reverse()) {
          const result = await m.onError?.({
            ...context,
            request,
            error: failure,
          });
          if (result instanceof Response) {
            response = result;
            break;
          }
          if (result) failure = result;
        }
        if (!response) throw failure;
      }
    }
    for (const m of [...middleware].reverse()) {
      response =
        (await m.onResponse?.({ ...context, request, response })) ?? response;
    }
    return response;
  };
}

function failure<Output>(
  error: FlowFailure,
  response?: Response,
  requestId?: string,
): FlowResult<Output> {
  return { data: undefined, error, response, requestId };
}

function lowerKeys(
  headers: Record<string, string> | undefined,
): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  return lower;
}

const now = () => performance.now();

function kindOf(status: number): FlowErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 400 || status === 422) return "invalid_input";
  if (status === 429) return "rate_limited";
  return status >= 500 ? "server" : "http";
}

/**
 * Safe to send again? 429 and 503 say the server did not run the flow; a refused connection never
 * reached it. Anything else may have run it once already: only when the caller says that is fine.
 */
function retryable(
  error: FlowFailure,
  idempotent: boolean | undefined,
): boolean {
  if (error.status === 429 || error.status === 503 || neverSent(error.cause))
    return true;
  return (
    !!idempotent && (error.kind === "server" || error.kind === "connection")
  );
}

/** Connection errors that happen before a request is written: refused, unknown host, unreachable. */
function neverSent(cause: unknown): boolean {
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause
    ?.code;
  return (
    typeof code === "string" &&
    /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_CONNECT_TIMEOUT)$/.test(
      code,
    )
  );
}

/** The wait a server asked for, in ms: `Retry-After` (seconds or HTTP date), else the rate-limit reset on 429. */
function retryAfter(headers: Headers, status: number): number | undefined {
  const value = headers.get("retry-after");
  if (value !== null) {
    const ms = /^\d+$/.test(value.trim())
      ? Number(value) * 1000
      : Date.parse(value) - Date.now();
    return Number.isNaN(ms) ? undefined : Math.max(0, ms);
  }
  const resetAt = status === 429 ? readRateLimit(headers)?.resetAt : undefined;
  return resetAt === undefined ? undefined : Math.max(0, resetAt - Date.now());
}

function readRateLimit(headers: Headers): RateLimit | undefined {
  const read = (name: string) => {
    const value =
      headers.get(`ratelimit-${name}`) ?? headers.get(`x-ratelimit-${name}`);
    const number = value === null ? NaN : Number(value);
    return Number.isFinite(number) ? number : undefined;
  };
  const limit = read("limit");
  const remaining = read("remaining");
  const reset = read("reset");
  if (limit === undefined && remaining === undefined && reset === undefined)
    return undefined;
  // Reset is seconds from now (RateLimit-Reset) or, as some servers send it, epoch seconds.
  const resetAt =
    reset === undefined
      ? undefined
      : reset > 1e9
        ? reset * 1000
        : Date.now() + reset * 1000;
  return { limit, remaining, resetAt };
}

function updateRateLimit(state: Shared, headers: Headers) {
  state.rateLimit = readRateLimit(headers) ?? state.rateLimit;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      resolve(ok);
    };
    const stop = () => done(false);
    const timer = setTimeout(done, ms, true);
    signal.addEventListener("abort", stop);
  });
}

/** An environment variable, where there is an environment (Node, Bun, Deno); never in browsers. */
function env(name: string): string | undefined {
  if (typeof document !== "undefined") return undefined;
  const process = (
    globalThis as { process?: { env?: Record<string, string | undefined> } }
  ).process;
  return process?.env?.[name] || undefined;
}

function checkApiKey(flowId: string, apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    const got = typeof apiKey === "string" ? "a blank string" : "nothing";
    throw new TypeError(
      `${flowId}: no API key; pass { apiKey } or set the FLOW_API_KEY environment variable (got ${got})`,
    );
  }
  // Fail here instead of inside fetch, whose header error would quote the key.
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    const problem = "apiKey has spaces, line breaks or non-ASCII characters";
    throw new TypeError(
      `${flowId}: ${problem}; pass the key exactly as issued`,
    );
  }
  return apiKey;
}

function checkBaseUrl(
  flowId: string,
  baseUrl: string | undefined,
  allowHttp?: boolean,
): string {
  if (baseUrl === undefined) {
    const example = `(e.g. "https://api.example.com")`;
    throw new TypeError(
      `${flowId}: no base URL; pass { baseUrl } ${example} or set FLOW_BASE_URL; this client was generated without a default`,
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
  // The key would cross the network in clear text: only loopback, unless the caller insists.
  if (
    url.protocol === "http:" &&
    !allowHttp &&
    !/^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname)
  ) {
    throw new TypeError(
      `${flowId}: baseUrl ${JSON.stringify(baseUrl)} uses http:// and would send the API key unencrypted; use https://, or pass { allowInsecureHttp: true }`,
    );
  }
  // Strip every trailing slash so the path never starts with "//".
  return baseUrl.replace(/\/+$/, "");
}

function toErrorBody(value: unknown): FlowErrorBody | undefined {
  if (
    !isRecord(value) ||
    typeof value["code"] !== "string" ||
    typeof value["message"] !== "string"
  )
    return undefined;
  // Keep extra fields the platform may add, but only well-formed details and request ids.
  const { details, requestId, ...rest } = value;
  const body: FlowErrorBody = {
    ...rest,
    code: value["code"],
    message: value["message"],
  };
  if (Array.isArray(details)) {
    body.details = details.filter(
      (d): d is FlowErrorDetail =>
        isRecord(d) &&
        typeof d["pointer"] === "string" &&
        typeof d["message"] === "string",
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
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, redactDeep(v, secret)]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
