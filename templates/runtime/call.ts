// One whole call: the input check, then attempts and the waits between them, until one succeeds,
// may not be retried, or the deadline passes. Each attempt's answer is read by attempt.ts.
import {
  check,
  fail,
  readAnswer,
  type Answer,
  type AttemptContext,
  type Failed,
} from "./attempt.js";
import type { KeySource } from "./auth.js";
import type { FlowResult, RunOptions } from "./client.js";
import { startDeadline, untilStopped, type Deadline } from "./deadline.js";
import type { FlowFailure } from "./errors.js";
import { backoffDelay, retryable, sleep, type RetryPolicy } from "./retry.js";

/** What every call of one client needs: made once by `createFlowClient`. */
export interface CallContext extends AttemptContext {
  /** The flow's path, checked. */
  readonly path: string;
  /** `client.POST`, reading the body as text. */
  readonly post: (path: string, init: object) => Promise<Answer>;
  readonly keys: KeySource;
  /** The key each attempt asked for, by the attempt's fetch (read by the auth middleware). */
  readonly attemptKeys: WeakMap<object, string>;
  readonly customFetch: ((request: Request) => Promise<Response>) | undefined;
  readonly policy: RetryPolicy;
  /** The client's deadline for a call, in ms. */
  readonly timeoutMs: number;
}

/**
 * Runs one call to its end. Never throws for HTTP, network or validation failures; a throwing
 * `onEvent` hook or `apiKey` function fails it with their error.
 *
 * @example
 * const { data, error } = await runCall<QaOutput>(context, { question: "Why?" }, {});
 */
export async function runCall<Output>(
  context: CallContext,
  input: unknown,
  options: RunOptions,
): Promise<FlowResult<Output>> {
  const invalid = check(context, "input", input);
  if (invalid) return invalid;
  const deadline = startDeadline(
    context,
    options.timeoutMs ?? context.timeoutMs,
    options.signal,
  );
  const init = requestInit(context, input, options, deadline.signal);
  const idempotent =
    !!options.idempotent || options.idempotencyKey !== undefined;
  let refreshed = false;
  for (let attempt = 1; ; attempt++) {
    const result = await sendAttempt<Output>(context, init, deadline, attempt);
    const { error } = result;
    if (!error) return result;
    error.attempts = attempt;
    // A key from a function may have expired: ask for a new one once, at once.
    const refresh: boolean =
      !refreshed && context.keys.refreshable && error.status === 401;
    refreshed ||= refresh;
    const delayMs = refresh
      ? 0
      : retryDelay(context, error, attempt - +refreshed, idempotent, deadline);
    if (delayMs === undefined) return result;
    context.onEvent?.({
      type: "retry",
      flowId: context.flowId,
      attempt,
      delayMs,
      error,
    });
    if (!(await sleep(delayMs, deadline.signal))) {
      const stopped = deadline.stopped(deadline.signal.reason);
      stopped.error.attempts = attempt;
      return stopped;
    }
  }
}

/** What every attempt of a call sends: the body, its headers, and how the body is read. */
function requestInit(
  context: CallContext,
  input: unknown,
  options: RunOptions,
  signal: AbortSignal,
): object {
  const { idempotencyKey } = options;
  return {
    body: input,
    headers:
      idempotencyKey === undefined
        ? options.headers
        : { ...options.headers, "idempotency-key": idempotencyKey },
    parseAs: "text",
    // A custom fetch gets the signal on the Request openapi-fetch builds; the built-in fetch gets
    // it directly (see attemptFetch).
    ...(context.customFetch && { signal }),
  };
}

/**
 * The fetch of one attempt, which the auth middleware knows by its `options.fetch`, and which
 * marks `sending` when the request goes out: the signal
 * goes to fetch itself rather than into the Request openapi-fetch builds, which would have to
 * follow it too; "manual" again in case a middleware replaced the Request with one that follows
 * redirects (see redirect.ts).
 */
function attemptFetch(
  context: CallContext,
  signal: AbortSignal,
  key: string | undefined,
  sending: { fetched: boolean },
): (request: Request) => Promise<Response> {
  const { customFetch } = context;
  const fetchOnce = (request: Request) => {
    sending.fetched = true;
    return customFetch
      ? customFetch(request)
      : fetch(request, { signal, redirect: "manual" });
  };
  if (key !== undefined) context.attemptKeys.set(fetchOnce, key);
  return fetchOnce;
}

/** One attempt: its key, a transport slot, the request, and what its answer amounts to. */
async function sendAttempt<Output>(
  context: CallContext,
  init: object,
  deadline: Deadline,
  attempt: number,
): Promise<FlowResult<Output>> {
  const { flowId, onEvent, transport } = context;
  const started = onEvent && performance.now();
  const keyed = await untilStopped(context.keys.key(), deadline.signal);
  if ("reason" in keyed)
    return reportUnanswered(
      context,
      deadline.stopped(keyed.reason),
      attempt,
      started,
    );
  const key = keyed.value;
  // Before a transport slot is taken: a throwing hook fails the call with its own error, as with
  // every event, and must not keep the slot from the calls after it.
  onEvent?.({ type: "request", flowId, attempt });
  const slot = transport.acquire?.(deadline.signal);
  let answer: Answer;
  if (slot !== undefined && !(await slot))
    return reportUnanswered(
      context,
      deadline.stopped(deadline.signal.reason),
      attempt,
      started,
    );
  const sending = { fetched: false };
  try {
    const fetch = attemptFetch(context, deadline.signal, key, sending);
    answer = await context.post(context.path, { ...init, fetch });
  } catch (cause) {
    const failed = deadline.signal.aborted
      ? deadline.stopped(cause)
      : sending.fetched
        ? fail(context, {
            kind: "connection",
            code: "network_error",
            message: `network error: ${describe(cause)}`,
            cause,
          })
        : unsent(context, cause);
    return reportUnanswered(context, failed, attempt, started);
  } finally {
    transport.release?.();
  }
  return readAnswer(context, answer, attempt, started);
}

/**
 * A request that failed before it reached the client's fetch: a body JSON cannot hold (a BigInt,
 * a cycle), a header value HTTP cannot carry, a middleware that threw. Making it again would fail
 * the same way, so it is not retried (`retryable`).
 */
function unsent(context: CallContext, cause: unknown): Failed {
  return fail(context, {
    kind: "invalid_input",
    code: "invalid_request",
    message: `the request could not be made: ${describe(cause)}`,
    cause,
  });
}

/** Tells `onEvent` about an attempt that got no answer, and returns its failure. */
function reportUnanswered(
  context: CallContext,
  failed: Failed,
  attempt: number,
  started: number | undefined,
): Failed {
  context.onEvent?.({
    type: "error",
    flowId: context.flowId,
    attempt,
    durationMs: performance.now() - started!,
    error: failed.error,
  });
  return failed;
}

/** The wait before the next attempt in ms, or undefined when the call ends with this failure. */
function retryDelay(
  context: CallContext,
  error: FlowFailure,
  retries: number,
  idempotent: boolean,
  deadline: Deadline,
): number | undefined {
  const { policy } = context;
  const delayMs =
    retries > policy.maxRetries ||
    deadline.signal.aborted ||
    !retryable(error, idempotent)
      ? undefined
      : backoffDelay(policy, retries, error.retryAfterMs);
  return delayMs === undefined || Date.now() + delayMs >= deadline.endsAt
    ? undefined
    : delayMs;
}

/** The message of a failed fetch; Node's says only "fetch failed", the reason (ECONNREFUSED, DNS, TLS) is on its cause. */
function describe(cause: unknown): string {
  const inner = (cause as { cause?: unknown } | undefined)?.cause;
  return `${(cause as Error)?.message ?? cause}${inner instanceof Error ? ` (${inner.message})` : ""}`;
}
