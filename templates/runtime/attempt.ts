// What the answer to one attempt means: the output, or the failure it amounts to, as a result
// that never throws. Every FlowError is made here, with the key scrubbed.
import type { FlowResult } from "./client.js";
import {
  describeHttpError,
  FlowError,
  kindOf,
  printRedacted,
  quoteBody,
  startOfBody,
  toErrorBody,
  type FlowErrorInit,
  type FlowFailure,
} from "./errors.js";
import type { FlowEvent } from "./events.js";
import { noteRateLimit, type FlowTransport } from "./limits.js";
import { redactDeep, redactResponse, type Redact } from "./redact.js";
import { describeRedirect, isRedirect } from "./redirect.js";
import { retryAfter } from "./retry.js";
import { describeViolations, type FlowValidators } from "./validate.js";

/** What `client.POST` resolves to when the body is read as text. */
export interface Answer {
  data?: string | undefined;
  error?: unknown;
  response: Response;
}

/** What every attempt of one client needs: made once by `createFlowClient`. */
export interface AttemptContext {
  readonly flowId: string;
  /** Replaces the API key in any text (see `keyRedactor`). */
  readonly redact: Redact;
  readonly transport: FlowTransport;
  readonly onEvent: ((event: FlowEvent) => void) | undefined;
  readonly validators: FlowValidators | undefined;
  readonly validate: "throw" | "warn" | false;
}

/**
 * Reads the answer to one attempt: records its request id and rate-limit figures, reports it to
 * `onEvent`, and turns it into the output or a failure. `started` is when the attempt was sent
 * (`performance.now()`, only read when there is an `onEvent` hook).
 *
 * @example
 * const result = readAnswer(context, await client.POST(path, init), 1, started);
 */
export function readAnswer<Output>(
  context: AttemptContext,
  answer: Answer,
  attempt: number,
  started: number | undefined,
): FlowResult<Output> {
  const { response } = answer;
  const requestId = noteAnswer(context, response, attempt, started);
  if (isRedirect(response))
    return fail(context, { ...describeRedirect(response), requestId });
  if (!response.ok) return failHttpStatus(context, answer, requestId);
  return readOutput<Output>(context, answer, requestId);
}

/** Records the answer's rate-limit figures and reports it to `onEvent`; returns its request id, scrubbed. */
function noteAnswer(
  context: AttemptContext,
  response: Response,
  attempt: number,
  started: number | undefined,
): string | undefined {
  const { status, headers } = response;
  const header = headers.get("x-request-id");
  const requestId = header === null ? undefined : context.redact(header);
  noteRateLimit(context.transport, headers);
  context.onEvent?.({
    type: "response",
    flowId: context.flowId,
    attempt,
    status,
    durationMs: performance.now() - started!,
    requestId,
  });
  return requestId;
}

/** A non-2xx answer as a failure, with the error body the server sent, if any. */
function failHttpStatus(
  context: AttemptContext,
  answer: Answer,
  requestId: string | undefined,
): Failed {
  const { response } = answer;
  const { status } = response;
  // Redacted before it is cut or quoted, either of which would hide the key from redaction.
  const raw = redactDeep(startOfBody(answer.error), context.redact);
  const body = toErrorBody(raw);
  const id = body?.requestId ?? requestId;
  return fail(context, {
    kind: kindOf(status),
    code: body?.code ?? `http_${status}`,
    message: describeHttpError(response, raw, body, id),
    status,
    body,
    requestId: id,
    retryAfterMs: retryAfter(response.headers, status),
    response,
  });
}

/** The output of a 2xx answer, parsed and checked, or the failure it amounts to. */
function readOutput<Output>(
  context: AttemptContext,
  answer: Answer,
  requestId: string | undefined,
): FlowResult<Output> {
  const { response } = answer;
  let data: unknown;
  try {
    data = JSON.parse(answer.data as string);
  } catch {
    return failBody(context, answer, requestId, "not JSON");
  }
  // A flow's output is always a JSON object.
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return failBody(context, answer, requestId, "not a JSON object");
  return (
    check(context, "output", data, response, requestId) ?? {
      data: data as Output,
      error: undefined,
      response,
      requestId,
    }
  );
}

/** A 2xx answer whose body is not JSON, or not an object. */
function failBody(
  context: AttemptContext,
  answer: Answer,
  requestId: string | undefined,
  problem: "not JSON" | "not a JSON object",
): Failed {
  const { response } = answer;
  // Not JSON.parse's error as the cause: it quotes a few characters of the body, maybe of a key.
  return fail(context, {
    kind: "invalid_response",
    code: "invalid_response",
    message: `HTTP ${response.status} but the body is ${problem}${quoteBody(context.redact(startOfBody(answer.data ?? "") as string))}`,
    status: response.status,
    requestId,
    response,
  });
}

/**
 * A failed result: a FlowError with the key scrubbed from every field a server could have echoed
 * it into, and the (scrubbed) response and request id it holds.
 *
 * @example
 * return fail(context, { kind: "timeout", code: "timeout", message: "no answer within 100 ms" });
 */
export function fail(
  context: AttemptContext,
  init: Omit<FlowErrorInit, "flowId">,
): Failed {
  const { flowId, redact } = context;
  const scrub = <T>(value: T) => redactDeep(value, redact) as T;
  const response = init.response && redactResponse(init.response, redact);
  const requestId = scrub(init.requestId);
  const error = new FlowError({
    ...init,
    flowId,
    message: scrub(`${flowId}: ${init.message}`),
    code: scrub(init.code),
    requestId,
    body: scrub(init.body),
    details: scrub(init.details),
    response,
    cause: scrub(init.cause),
  }) as FlowFailure;
  printRedacted(error, redact);
  return { data: undefined, error, response, requestId };
}

/** A failed call's result. */
export type Failed = Extract<FlowResult<unknown>, { data: undefined }>;

/**
 * Checks a value with the generated validator: a failed result in "throw" mode, a warning in "warn"
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
  requestId?: string,
): Failed | undefined {
  const { validate } = context;
  const details = validate ? context.validators![which](value) : [];
  if (!details.length) return undefined;
  const message = describeViolations(which, details);
  if (validate !== "warn")
    return fail(context, {
      kind: which === "input" ? "invalid_input" : "invalid_response",
      code: `invalid_${which}`,
      message,
      details,
      status: response?.status,
      requestId,
      response,
    });
  console.warn(context.redact(`${context.flowId}: ${message}`));
  return undefined;
}
