// One flow's client: an openapi-fetch client with the key added by a middleware, and around its
// `POST` the loop that gives every call a deadline and retries (attempt.ts makes each attempt).
import createClient, { type Client, type Middleware } from "openapi-fetch";
import {
  attemptOnce,
  check,
  fail,
  failure,
  type AttemptContext,
  type PostInit,
  type Poster,
} from "./attempt.js";
import {
  checkApiKey,
  checkBaseUrl,
  env,
  type ClientOptions,
} from "./config.js";
import type { FlowFailure } from "./errors.js";
import { createFlowTransport, type RateLimit } from "./limits.js";
import {
  backoffDelay,
  retryable,
  retryPolicy,
  sleep,
  type RetryPolicy,
} from "./retry.js";
import type { FlowValidators } from "./validate.js";

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
  const { validators } = flow;
  const validate = options.validate ?? (validators ? "throw" : false);
  if (validate && !validators) {
    throw new TypeError(
      `${flowId}: validate is set but this client has no validators; run flowgen generate --validators`,
    );
  }
  const client = createClient<Paths>({
    baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.headers && { headers: options.headers }),
  });
  client.use(authMiddleware(apiKey));
  if (options.middleware) client.use(...options.middleware);
  const transport =
    options.transport ??
    createFlowTransport({ maxConcurrency: options.maxConcurrency });
  const context: AttemptContext = {
    flowId,
    path: flow.path,
    apiKey,
    poster: client as unknown as Poster,
    transport,
    onEvent: options.onEvent,
    validators,
    validate,
  };
  const policy = retryPolicy(options.retry);
  const call = (input: Input, runOptions: RunOptions = {}) =>
    callFlow<Output>(context, policy, input, {
      ...runOptions,
      timeoutMs: runOptions.timeoutMs ?? options.timeoutMs ?? 60_000,
    });
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

/**
 * Sends the key. It sets the header on the Request itself, after openapi-fetch merged every other
 * header, so a stray "authorization" header in the options cannot replace it; middleware added
 * after it sees the request as it will be sent.
 */
function authMiddleware(apiKey: string): Middleware {
  const bearer = `Bearer ${apiKey}`;
  return {
    onRequest({ request }) {
      request.headers.set("authorization", bearer);
    },
  };
}

/** A whole call: the input check, then attempts and waits until one succeeds or may not be retried. */
async function callFlow<Output>(
  context: AttemptContext,
  policy: RetryPolicy,
  input: unknown,
  runOptions: RunOptions & { timeoutMs: number },
): Promise<FlowResult<Output>> {
  const invalid = check(context, "input", input);
  if (invalid) return failure(invalid);
  const { idempotencyKey, timeoutMs } = runOptions;
  const deadline = startDeadline(timeoutMs, runOptions.signal);
  const { signal } = deadline;
  const stopped = (cause: unknown) =>
    deadline.timedOut()
      ? fail(context, {
          kind: "timeout",
          code: "timeout",
          message: `no answer within ${timeoutMs} ms`,
          cause,
        })
      : fail(context, {
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
  const init: PostInit = { body: input, signal, headers, parseAs: "text" };
  try {
    for (let attempt = 1; ; attempt++) {
      const result = await attemptOnce<Output>(context, init, attempt, stopped);
      const { error } = result;
      if (!error) return result;
      error.attempts = attempt;
      const delayMs =
        attempt > policy.maxRetries ||
        signal.aborted ||
        !retryable(error, idempotent)
          ? undefined
          : backoffDelay(policy, attempt, error.retryAfterMs);
      if (delayMs === undefined || Date.now() + delayMs >= deadline.endsAt)
        return result;
      context.onEvent?.({
        type: "retry",
        flowId: context.flowId,
        attempt,
        delayMs,
        error,
      });
      if (!(await sleep(delayMs, signal))) {
        const error = stopped(signal.reason);
        error.attempts = attempt;
        return failure(error);
      }
    }
  } finally {
    deadline.stop();
  }
}

/** One signal for a whole call, aborted by the caller's signal or when `timeoutMs` has passed. */
function startDeadline(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  callerSignal?.addEventListener("abort", onAbort);
  return {
    signal: controller.signal,
    endsAt: Date.now() + timeoutMs,
    timedOut: () => timedOut,
    stop() {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onAbort);
    },
  };
}
