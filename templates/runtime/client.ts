// One flow's client: an openapi-fetch client with the key added by a middleware, and around its
// `POST` the loop that gives every call a deadline and retries (attempt.ts reads each answer).
import createClient, { type Client } from "openapi-fetch";
import {
  check,
  fail,
  readAnswer,
  type Answer,
  type AttemptContext,
} from "./attempt.js";
import { checkOptions, type ClientOptions } from "./config.js";
import type { FlowFailure } from "./errors.js";
import type { RateLimit } from "./limits.js";
import { backoffDelay, retryable, retryPolicy, sleep } from "./retry.js";
import type { FlowValidators } from "./validate.js";

/** How late a call may give up after its deadline, so that calls can share deadline timers. */
const DEADLINE_STEP_MS = 10;

/** The calls whose deadlines end by `until`: one signal, one timer. */
interface DeadlineWindow {
  readonly until: number;
  readonly signal: AbortSignal;
  readonly timer: ReturnType<typeof setTimeout>;
  calls: number;
}

/** Where a flow lives on the platform, and its validators when generated with `--validators`. */
export interface FlowDefinition {
  readonly id: string;
  /** `/v1/@<org>/<flow-name>`: any other path is refused, since it could leave the base URL. */
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

// `{}` is the bound openapi-fetch's `Client<Paths>` takes.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
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
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function createFlowClient<Input, Output, Paths extends {} = {}>(
  flow: FlowDefinition,
  defaults: { readonly baseUrl?: string | undefined },
  options: ClientOptions = {},
): FlowClient<Input, Output, Paths> {
  const { id: flowId, path, validators } = flow;
  const { apiKey, baseUrl, redact, validate } = checkOptions(
    flow,
    defaults.baseUrl,
    options,
  );
  const { fetch: customFetch, onEvent } = options;
  // Options left out rather than set to undefined: projects may use exactOptionalPropertyTypes.
  // A redirect is never followed (see redirect.ts), whatever fetch the Request reaches.
  const client = createClient<Paths>({
    baseUrl,
    redirect: "manual",
    ...(customFetch === undefined ? {} : { fetch: customFetch }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  const bearer = `Bearer ${apiKey}`;
  client.use(
    {
      // On the Request itself, after openapi-fetch merged every other header: a stray
      // "authorization" header in the options cannot replace it, and middleware added after this
      // one sees the request as it will be sent.
      onRequest({ request }) {
        request.headers.set("authorization", bearer);
      },
    },
    ...(options.middleware ?? []),
  );
  const transport = options.transport ?? { rateLimit: undefined };
  const context: AttemptContext = {
    flowId,
    redact,
    transport,
    onEvent,
    validators,
    validate,
  };
  const policy = retryPolicy(options.retry);
  // Calls whose deadlines fall in the same DEADLINE_STEP_MS window share one signal, aborted by
  // one timer when the window ends: a call gives up at most DEADLINE_STEP_MS after its deadline,
  // never before, and most calls make no AbortController or timer of their own. A window other
  // than the newest is stopped when its last call ends, so few timers wait at any time.
  let newest: DeadlineWindow | undefined;
  const enterWindow = (endsAt: number): DeadlineWindow => {
    const until = Math.ceil(endsAt / DEADLINE_STEP_MS) * DEADLINE_STEP_MS;
    if (newest?.until !== until || newest.signal.aborted) {
      if (newest && !newest.calls) clearTimeout(newest.timer);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), until - Date.now());
      // Never what keeps a process alive: an attempt in flight or a wait between attempts does.
      (timer as { unref?: () => void }).unref?.();
      newest = { until, signal: controller.signal, timer, calls: 0 };
    }
    newest.calls++;
    return newest;
  };
  const leaveWindow = (window: DeadlineWindow) => {
    if (!--window.calls && window !== newest) clearTimeout(window.timer);
  };
  const post = client.POST as unknown as (
    path: string,
    init: object,
  ) => Promise<Answer>;

  /** A whole call: the input check, then attempts and waits until one succeeds or may not be retried. */
  const call = async (
    input: Input,
    runOptions: RunOptions = {},
  ): Promise<FlowResult<Output>> => {
    const invalid = check(context, "input", input);
    if (invalid) return invalid;
    const { signal: callerSignal, idempotencyKey } = runOptions;
    const timeoutMs = runOptions.timeoutMs ?? options.timeoutMs ?? 60_000;
    const endsAt = Date.now() + timeoutMs;
    const deadline = enterWindow(endsAt);
    const timeout = deadline.signal;
    const signal = callerSignal
      ? AbortSignal.any([timeout, callerSignal])
      : timeout;
    const stopped = (cause: unknown) =>
      fail(
        context,
        timeout.aborted && signal.reason === timeout.reason
          ? {
              kind: "timeout",
              code: "timeout",
              message: `no answer within ${timeoutMs} ms`,
              cause,
            }
          : {
              kind: "aborted",
              code: "aborted",
              message: "the call was aborted",
              cause,
            },
      );
    const idempotent = !!runOptions.idempotent || idempotencyKey !== undefined;
    const init = {
      body: input,
      headers:
        idempotencyKey === undefined
          ? runOptions.headers
          : { ...runOptions.headers, "idempotency-key": idempotencyKey },
      parseAs: "text",
      // The signal goes to fetch itself rather than into the Request openapi-fetch builds, which
      // would have to follow it too; a custom fetch gets it on that Request. "manual" again in
      // case a middleware replaced the Request with one that follows redirects.
      ...(customFetch
        ? { signal }
        : {
            fetch: (request: Request) =>
              fetch(request, { signal, redirect: "manual" }),
          }),
    };
    try {
      for (let attempt = 1; ; attempt++) {
        const started = onEvent && performance.now();
        let answer: Answer | undefined;
        let result: FlowResult<Output> | undefined;
        const slot = transport.acquire?.(signal);
        if (slot !== undefined && !(await slot))
          result = stopped(signal.reason);
        else {
          onEvent?.({ type: "request", flowId, attempt });
          try {
            answer = await post(path, init);
          } catch (cause) {
            result = signal.aborted
              ? stopped(cause)
              : fail(context, {
                  kind: "connection",
                  code: "network_error",
                  message: `network error: ${describe(cause)}`,
                  cause,
                });
          } finally {
            transport.release?.();
          }
        }
        if (answer) result = readAnswer(context, answer, attempt, started);
        const { error } = result!;
        if (!answer)
          onEvent?.({
            type: "error",
            flowId,
            attempt,
            durationMs: performance.now() - started!,
            error: error!,
          });
        if (!error) return result!;
        error.attempts = attempt;
        const delayMs =
          attempt > policy.maxRetries ||
          signal.aborted ||
          !retryable(error, idempotent)
            ? undefined
            : backoffDelay(policy, attempt, error.retryAfterMs);
        if (delayMs === undefined || Date.now() + delayMs >= endsAt)
          return result!;
        onEvent?.({ type: "retry", flowId, attempt, delayMs, error });
        if (!(await sleep(delayMs, signal))) {
          result = stopped(signal.reason);
          result.error.attempts = attempt;
          return result;
        }
      }
    } finally {
      leaveWindow(deadline);
    }
  };
  return {
    flowId,
    client,
    get rateLimit() {
      return transport.rateLimit;
    },
    call,
    async run(input, runOptions) {
      const { data, error } = await call(input, runOptions);
      if (error) throw error;
      return data;
    },
  };
}

/** The message of a failed fetch; Node's says only "fetch failed", the reason (ECONNREFUSED, DNS, TLS) is on its cause. */
function describe(cause: unknown): string {
  const inner = (cause as Error)?.cause;
  return `${(cause as Error)?.message ?? cause}${inner instanceof Error ? ` (${inner.message})` : ""}`;
}
