// One attempt of a flow call: a place in the queue, `client.POST`, and what the answer means,
// as a result that never throws. Every FlowError is made here, with the key scrubbed.
import type { FlowResult } from "./client.js";
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
import type { FlowEvent } from "./events.js";
import type { FlowTransport } from "./limits.js";
import { redact, redactDeep, redactResponse } from "./redact.js";
import { retryAfter } from "./retry.js";
import { describeViolations, type FlowValidators } from "./validate.js";

/** The options of one `client.POST`, the same on every attempt of a call. */
export interface PostInit {
  body: unknown;
  signal: AbortSignal;
  headers: Record<string, string> | undefined;
  parseAs: "text";
}

/** `client.POST` as the runtime calls it: the path and body are checked by the generated module's types. */
export interface Poster {
  POST(
    path: string,
    init: PostInit,
  ): Promise<{ data?: string; error?: unknown; response: Response }>;
}

/** What every attempt of one client needs: made once by `createFlowClient`. */
export interface AttemptContext {
  readonly flowId: string;
  readonly path: string;
  readonly apiKey: string;
  readonly poster: Poster;
  readonly transport: FlowTransport;
  readonly onEvent: ((event: FlowEvent) => void) | undefined;
  readonly validators: FlowValidators | undefined;
  readonly validate: "throw" | "warn" | false;
}

/**
 * Sends one attempt and reads its answer: the output, or the failure it amounts to. `stopped`
 * makes the failure for an aborted signal (timeout or caller).
 *
 * @example
 * const result = await attemptOnce(context, init, 1, stopped);
 */
export async function attemptOnce<Output>(
  context: AttemptContext,
  init: PostInit,
  attempt: number,
  stopped: (cause: unknown) => FlowFailure,
): Promise<FlowResult<Output>> {
  const { flowId, onEvent, transport, apiKey } = context;
  const { signal } = init;
  const failed = (error: FlowFailure, started: number) => {
    onEvent?.({
      type: "error",
      flowId,
      attempt,
      durationMs: now() - started,
      error,
    });
    return failure<Output>(error);
  };
  const slot = transport.acquire(signal);
  if (slot !== true && !(await slot))
    return failed(stopped(signal.reason), now());
  onEvent?.({ type: "request", flowId, attempt });
  const started = now();
  let answer: Awaited<ReturnType<Poster["POST"]>>;
  try {
    answer = await context.poster.POST(context.path, init);
  } catch (cause) {
    return failed(
      signal.aborted ? stopped(cause) : networkError(context, cause),
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
    const error = httpError(context, response, answer.error, requestId);
    return failure(error, error.response, error.requestId);
  }
  return readOutput(context, response, answer.data, requestId);
}

/** A success's body: JSON, and valid against the output schema when the client validates. */
function readOutput<Output>(
  context: AttemptContext,
  response: Response,
  text: string | undefined,
  requestId: string | undefined,
): FlowResult<Output> {
  let data: unknown;
  try {
    data = JSON.parse(text as string);
  } catch (cause) {
    const error = fail(context, {
      kind: "invalid_response",
      code: "invalid_response",
      message: `HTTP ${response.status} but the body is not JSON`,
      status: response.status,
      requestId,
      response,
      // JSON.parse quotes the body in its message, and the body may hold an echoed key.
      cause: new SyntaxError(
        redact(String((cause as Error).message), context.apiKey),
      ),
    });
    return failure(error, error.response, requestId);
  }
  const invalid = check(context, "output", data, response);
  if (invalid) return failure(invalid, invalid.response, requestId);
  return { data: data as Output, error: undefined, response, requestId };
}

/**
 * A FlowError with the key scrubbed from every field a server could have echoed it into.
 *
 * @example
 * return fail(context, { kind: "timeout", code: "timeout", message: "no answer within 100 ms" });
 */
export function fail(
  context: AttemptContext,
  init: Omit<FlowErrorInit, "flowId">,
): FlowFailure {
  const { flowId, apiKey } = context;
  const { requestId, response } = init;
  return new FlowError({
    ...init,
    flowId,
    message: redact(`${flowId}: ${init.message}`, apiKey),
    code: redact(init.code, apiKey),
    requestId: requestId && redact(requestId, apiKey),
    body: redactDeep(init.body, apiKey) as FlowErrorBody | undefined,
    details: redactDeep(init.details, apiKey) as FlowErrorDetail[] | undefined,
    response: response && redactResponse(response, apiKey),
  }) as FlowFailure;
}

/**
 * Checks a value with the generated validator: a failure in "throw" mode, a warning in "warn"
 * mode, nothing when it is valid or the client does not validate.
 *
 * @example
 * const invalid = check(context, "input", input);
 */
export function check(
  context: AttemptContext,
  which: "input" | "output",
  value: unknown,
  response?: Response,
): FlowFailure | undefined {
  const { validate, validators } = context;
  const details = validate && validators ? validators[which](value) : [];
  if (details.length === 0) return undefined;
  const message = describeViolations(which, details);
  if (validate === "warn") {
    console.warn(redact(`${context.flowId}: ${message}`, context.apiKey));
    return undefined;
  }
  const kind = which === "input" ? "invalid_input" : "invalid_response";
  const status = response?.status;
  return fail(context, {
    kind,
    code: `invalid_${which}`,
    message,
    details,
    status,
    response,
  });
}

/**
 * A failed call's result; `response` and `requestId` when a response arrived.
 *
 * @example
 * return failure(error);
 */
export function failure<Output>(
  error: FlowFailure,
  response?: Response,
  requestId?: string,
): FlowResult<Output> {
  return { data: undefined, error, response, requestId };
}

function networkError(context: AttemptContext, cause: unknown): FlowFailure {
  const message = `network error: ${describe(cause)}`;
  return fail(context, {
    kind: "connection",
    code: "network_error",
    message,
    cause,
  });
}

function httpError(
  context: AttemptContext,
  response: Response,
  raw: unknown,
  headerRequestId: string | undefined,
): FlowFailure {
  const { status } = response;
  const body = toErrorBody(raw);
  const requestId = body?.requestId ?? headerRequestId;
  return fail(context, {
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

const now = () => performance.now();

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, DNS, TLS) is on its cause.
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
  return `${cause.message}${inner}`;
}
