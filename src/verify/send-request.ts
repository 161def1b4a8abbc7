import {
  retryAfterMs,
  type PlatformPace,
  type RequestBudget,
  type VerifyClock,
} from "./platform-pace.js";

/** An answer read in full (or up to the size limit). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body was larger than MAX_ANSWER_BYTES; `text` holds its start. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

export type Exchange =
  | { readonly ok: true; readonly answer: Answer; readonly attempts: number }
  | {
      readonly ok: false;
      readonly attempts: number;
      readonly reason: string;
      /** The platform cannot be reached at all: the run stops. */
      readonly unreachable: boolean;
      /** The last answer, when the platform answered but kept refusing (429, 503). */
      readonly answer?: Answer | undefined;
    };

export interface SendContext {
  readonly clock: VerifyClock;
  readonly pace: PlatformPace;
  readonly budget: RequestBudget;
  readonly maxRequests: number;
  /** Per attempt, until the whole body has arrived. */
  readonly timeoutMs: number;
  /** Retries of a 503, or of a 429 that names no wait, per request. */
  readonly maxRetries: number;
  /** The longest wait a 429 or 503 may ask for; a longer one ends the case unanswered. */
  readonly maxWaitMs: number;
  /** The longest one request may be held off in all (waits it was asked for included); then it is left unanswered. */
  readonly maxTotalWaitMs: number;
  /** Takes the key out of what an answer shows, before it is cut short. */
  readonly redact: (text: string) => string;
}

/** Bodies past this size are cut: a report needs the start, not a download. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Wait before retrying a 429 or 503 that names no wait; doubled per retry. */
const BASE_RETRY_MS = 1000;

/**
 * POSTs `input` as JSON to `url` and reads the answer, retrying 429 and 503 (the platform did
 * not run the flow) after the wait they ask for, within the request budget. A 429 that names its
 * wait (Retry-After, or RateLimit-Reset) is the platform pacing the run, not failing it: it is
 * waited out without counting against `maxRetries`, bounded instead by the budget and by
 * `maxTotalWaitMs`. Redirects are never followed: a 3xx comes back as the answer. The key goes
 * only into the Authorization header.
 *
 * @example
 * const exchange = await sendRequest("https://api.example.com/v1/@acme/qa", { question: "?" }, key, context);
 */
export async function sendRequest(
  url: string,
  input: unknown,
  apiKey: string | undefined,
  context: SendContext,
): Promise<Exchange> {
  const { clock, pace, budget } = context;
  const body = JSON.stringify(input);
  const started = clock.now();
  let last: Answer | undefined;
  let attempts = 0;
  // Refusals that named no wait (503, or 429 without Retry-After or a reset): these are retried at most maxRetries times.
  let failures = 0;
  for (;;) {
    // The budget first: a wait that ends in no request is time lost.
    if (!budget.take()) {
      const reason = `the request budget (--max-requests ${context.maxRequests}) was spent${last ? ` while the platform kept answering ${last.status}` : ""}`;
      return { ok: false, attempts, reason, unreachable: false, answer: last };
    }
    await pace.ready();
    attempts++;
    let sent: Awaited<ReturnType<typeof sendOnce>> | undefined;
    try {
      sent = await sendOnce(url, body, apiKey, context);
    } finally {
      const answer = sent?.ok === true ? sent.answer : undefined;
      pace.done(answer?.headers, answer?.status);
    }
    if (!sent.ok) return { ...sent, attempts };
    last = sent.answer;
    if (last.status !== 429 && last.status !== 503) return { ok: true, answer: last, attempts };
    const asked = retryAfterMs(last.headers, last.status, clock.now());
    if (last.status === 503 || asked === undefined) failures++;
    if (failures > context.maxRetries) {
      const reason = `the platform answered ${last.status} after ${attempts} attempts`;
      return { ok: false, attempts, reason, unreachable: false, answer: last };
    }
    const wait = asked ?? BASE_RETRY_MS * 2 ** (failures - 1);
    if (wait > context.maxWaitMs) {
      const reason = `the platform answered ${last.status} and asked to wait ${Math.ceil(wait / 1000)} s, longer than flowgen verify waits (${context.maxWaitMs / 1000} s)`;
      return { ok: false, attempts, reason, unreachable: false, answer: last };
    }
    if (clock.now() + wait - started > context.maxTotalWaitMs) {
      const reason = `the platform kept answering ${last.status} for ${Math.round((clock.now() - started) / 1000)} s (${attempts} attempts); flowgen verify waits at most ${context.maxTotalWaitMs / 1000} s in all for one request`;
      return { ok: false, attempts, reason, unreachable: false, answer: last };
    }
    pace.pause(wait);
  }
}

async function sendOnce(
  url: string,
  body: string,
  apiKey: string | undefined,
  context: SendContext,
): Promise<
  | { readonly ok: true; readonly answer: Answer }
  | { readonly ok: false; readonly reason: string; readonly unreachable: boolean }
> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
  };
  if (apiKey !== undefined) headers["authorization"] = `Bearer ${apiKey}`;
  const started = context.clock.now();
  const signal = AbortSignal.timeout(context.timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal,
    });
    const { text, truncated } = await readBody(response);
    const durationMs = Math.max(0, Math.round(context.clock.now() - started));
    return {
      ok: true,
      answer: { status: response.status, headers: response.headers, text, truncated, durationMs },
    };
  } catch (error) {
    if (signal.aborted)
      return {
        ok: false,
        reason: `no answer within ${context.timeoutMs} ms (--timeout)`,
        unreachable: false,
      };
    return { ok: false, reason: describeFetchError(url, error), unreachable: true };
  }
}

/** The body as text, up to MAX_ANSWER_BYTES. */
async function readBody(response: Response): Promise<{ text: string; truncated: boolean }> {
  if (response.body === null) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES));
      return { text, truncated: true };
    }
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), truncated: false };
}

/** Why fetch failed, from its cause (ECONNREFUSED, ENOTFOUND, …), naming only the origin. */
function describeFetchError(url: string, error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const why =
    typeof code === "string"
      ? code
      : cause instanceof Error
        ? cause.message
        : error instanceof Error
          ? error.message
          : String(error);
  return `could not reach ${new URL(url).origin} (${why}); check --base-url (or FLOW_BASE_URL) and that the platform is up`;
}
