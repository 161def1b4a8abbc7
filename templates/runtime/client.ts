// One flow's client: an openapi-fetch client with the key added by a middleware, and around its
// `POST` the loop that gives every call a deadline, retries, a place in the shared queue, typed
// errors and events.
import createClient, { type Client } from "openapi-fetch";
import {
  checkApiKey,
  checkBaseUrl,
  env,
  type ClientOptions,
} from "./config.js";
import {
  describeHttpError,
  FlowError,
  kindOf,
  toErrorBody,
  type FlowErrorBody,
  type FlowErrorDetail,
  type FlowErrorInit,
  type FlowFailure,
} from "./errors.js";
import { createFlowTransport, type RateLimit } from "./limits.js";
import { redact, redactDeep, redactResponse } from "./redact.js";
import {
  backoffDelay,
  retryAfter,
  retryable,
  retryPolicy,
  sleep,
} from "./retry.js";
import { describeViolations, type FlowValidators } from "./validate.js";

/** Where a flow lives on the platform, and its validators when generated with `--validators`. */
export interface FlowDefinition {
  readonly id: string;
  readonly path: string;
  readonly validators?: FlowValidators | undefined;
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /** Deadline for this call in ms, over the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Extra headers for this call only; they override `ClientOptions.headers`. */
  headers?: Record<string, string> | undefined;
  /** The call may run twice safely: retry server errors, timeouts and dropped connections too. */
  idempotent?: boolean | undefined;
  /** Sent as `Idempotency-Key`, the same on every attempt; implies `idempotent`. */
  idempotencyKey?: string | undefined;
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

export interface FlowClient<Input, Output, Paths extends {} = {}> {
  readonly flowId: string;
  /** The openapi-fetch client every call goes through, typed with this flow's `paths`: `client.use(middleware)` adds to every attempt. */
  readonly client: Client<Paths>;
  /** The last rate-limit figures seen by any client of the same transport. */
  readonly rateLimit: RateLimit | undefined;
  /** Resolves with the output, throws a `FlowFailure` on any failure. */
  run(input: Input, options?: RunOptions): Promise<Output>;
  /** Never throws for HTTP, network or validation failures: returns `{ data, error, response, requestId }`. */
  call(input: Input, options?: RunOptions): Promise<FlowResult<Output>>;
}

/** `client.POST` as this file calls it: the path and body are checked by the generated module's types. */
interface Poster {
  POST(
    path: string,
    init: {
      body: unknown;
      signal: AbortSignal;
      headers: Record<string, string> | undefined;
      parseAs: "text";
    },
  ): Promise<{ data?: string; error?: unknown; response: Response }>;
}

/**
 * Creates a client for one flow: `client.POST(flow.path, { body })` on an openapi-fetch client
 * typed with `Paths`, with the API key sent by a middleware. Generated modules call this; you
 * normally call their `create…Client` wrappers instead. Throws a TypeError right away when the
 * API key or base URL is missing or malformed.
 *
 * @example
 * const qa = createFlowClient<QaInput, QaOutput, paths>(
 *   { id: "@acme/qa", path: "/v1/@acme/qa" },
 *   { baseUrl: "https://api.example.com" },
 *   { apiKey: process.env.FLOW_API_KEY },
 * );
 * const { answer } = await qa.run({ question: "Why?" });
 */
export function createFlowClient<Input, Output, Paths extends {} = {}>(
  flow: FlowDefinition,
  defaults: { readonly baseUrl?: string | undefined },
  options: ClientOptions = {},
): FlowClient<Input, Output, Paths> {
  const flowId = flow.id;
  const apiKey = checkApiKey(flowId, options.apiKey ?? env("FLOW_API_KEY"));
  const baseUrl = checkBaseUrl(
    flowId,
    options.baseUrl ?? env("FLOW_BASE_URL") ?? defaults.baseUrl,
    options.allowInsecureHttp,
  );
  const { validators, path } = flow;
  const validate = options.validate ?? (validators ? "throw" : false);
  if (validate && !validators) {
    throw new TypeError(
      `${flowId}: validate is set but this client has no validators; run flowgen generate --validators`,
    );
  }
  const policy = retryPolicy(options.retry);
  const onEvent = options.onEvent;
  const transport =
    options.transport ??
    createFlowTransport({ maxConcurrency: options.maxConcurrency });
  const client = createClient<Paths>({
    baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.headers && { headers: options.headers }),
  });
  const bearer = `Bearer ${apiKey}`;
  // Set on the Request itself, after openapi-fetch merged every header: a stray "authorization"
  // header in the options cannot replace the key.
  client.use({
    onRequest({ request }) {
      request.headers.set("authorization", bearer);
    },
  });
  if (options.middleware) client.use(...options.middleware);
  const poster = client as unknown as Poster;

  /** A FlowError with the key scrubbed from every field a server could have echoed it into. */
  function fail(init: Omit<FlowErrorInit, "flowId">): FlowFailure {
    const { requestId, response } = init;
    return new FlowError({
      ...init,
      flowId,
      message: redact(`${flowId}: ${init.message}`, apiKey),
      code: redact(init.code, apiKey),
      requestId: requestId && redact(requestId, apiKey),
      body: redactDeep(init.body, apiKey) as FlowErrorBody | undefined,
      details: redactDeep(init.details, apiKey) as
        FlowErrorDetail[] | undefined,
      response: response && redactResponse(response, apiKey),
    }) as FlowFailure;
  }

  /** Checks a value with a generated validator: a failure in "throw" mode, a warning in "warn" mode. */
  function check(
    which: "input" | "output",
    value: unknown,
    response?: Response,
  ) {
    const details = validate && validators ? validators[which](value) : [];
    if (details.length === 0) return undefined;
    const message = describeViolations(which, details);
    if (validate === "warn") {
      console.warn(redact(`${flowId}: ${message}`, apiKey));
      return undefined;
    }
    const kind = which === "input" ? "invalid_input" : "invalid_response";
    const status = response?.status;
    return fail({
      kind,
      code: `invalid_${which}`,
      message,
      details,
      status,
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
    const headers =
      idempotencyKey === undefined
        ? runOptions.headers
        : { ...runOptions.headers, "idempotency-key": idempotencyKey };
    const idempotent = !!runOptions.idempotent || idempotencyKey !== undefined;
    const send = {
      body: input,
      signal: controller.signal,
      headers,
      parseAs: "text",
    } as const;
    try {
      for (let attempt = 1; ; attempt++) {
        const result = await attemptOnce(send, attempt, stopped);
        const { error } = result;
        if (!error) return result;
        error.attempts = attempt;
        const delayMs =
          attempt > policy.maxRetries ||
          controller.signal.aborted ||
          !retryable(error, idempotent)
            ? undefined
            : backoffDelay(policy, attempt, error.retryAfterMs);
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

  async function attemptOnce(
    send: Parameters<Poster["POST"]>[1],
    attempt: number,
    stopped: (cause: unknown) => FlowFailure,
  ): Promise<FlowResult<Output>> {
    const { signal } = send;
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
    const slot = transport.acquire(signal);
    if (slot !== true && !(await slot))
      return failed(stopped(signal.reason), now());
    onEvent?.({ type: "request", flowId, attempt });
    const started = now();
    let answer: Awaited<ReturnType<Poster["POST"]>>;
    try {
      answer = await poster.POST(path, send);
    } catch (cause) {
      return failed(
        signal.aborted ? stopped(cause) : networkError(cause),
        started,
      );
    } finally {
      transport.release();
    }
    const { response } = answer;
    const { status, headers } = response;
    const header = headers.get("x-request-id");
    const requestId = header === null ? undefined : redact(header, apiKey);
    transport.observe(headers);
    onEvent?.({
      type: "response",
      flowId,
      attempt,
      status,
      durationMs: now() - started,
      requestId,
    });
    if (!response.ok) {
      const error = httpError(response, answer.error, requestId);
      return failure(error, error.response, error.requestId);
    }
    let data: unknown;
    try {
      data = JSON.parse(answer.data as string);
    } catch (cause) {
      const error = fail({
        kind: "invalid_response",
        code: "invalid_response",
        message: `HTTP ${status} but the body is not JSON`,
        status,
        requestId,
        response,
        // JSON.parse quotes the body in its message, and the body may hold an echoed key.
        cause: new SyntaxError(
          redact(String((cause as Error).message), apiKey),
        ),
      });
      return failure(error, error.response, requestId);
    }
    const invalid = check("output", data, response);
    if (invalid) return failure(invalid, invalid.response, requestId);
    return { data: data as Output, error: undefined, response, requestId };
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
    const body = toErrorBody(raw);
    const requestId = body?.requestId ?? headerRequestId;
    return fail({
      kind: kindOf(status),
      code: body?.code ?? `http_${status}`,
      message: describeHttpError(response, raw, body, requestId),
      status,
      body,
      requestId,
      retryAfterMs: retryAfter(response.headers, status),
      response,
    });
  }

  return {
    flowId,
    client,
    get rateLimit() {
      return transport.rateLimit;
    },
    call,
    async run(input, runOptions) {
      const result = await call(input, runOptions);
      if (result.error) throw result.error;
      return result.data;
    },
  };
}

function failure<Output>(
  error: FlowFailure,
  response?: Response,
  requestId?: string,
): FlowResult<Output> {
  return { data: undefined, error, response, requestId };
}

const now = () => performance.now();

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, DNS, TLS) is on its cause.
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
  return `${cause.message}${inner}`;
}
