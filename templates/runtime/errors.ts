// What a failed flow call looks like to the caller: one error class, narrowed by `kind`.

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

/**
 * What went wrong, for narrowing: `auth` (401/403), `not_found` (404), `invalid_input` (400/422,
 * or refused by the input validator before sending), `rate_limited` (429), `server` (5xx), `http`
 * (any other status), `redirected` (a 3xx, never followed), `timeout`, `aborted`, `connection` (no
 * response), `invalid_response` (a success whose body is not JSON or not valid against the output
 * schema).
 */
export type FlowErrorKind =
  | "auth"
  | "not_found"
  | "invalid_input"
  | "rate_limited"
  | "server"
  | "http"
  | "redirected"
  | "timeout"
  | "aborted"
  | "connection"
  | "invalid_response";

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

/** Marks FlowErrors across copies of this runtime; see `isFlowError`. */
const BRAND = Symbol.for("flowgen.FlowError");
/** Where Node's `util.inspect` (and so `console.log`) looks for an object's own way to print. */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** The redaction each client's errors print under (`printRedacted`). */
const redactions = new WeakMap<object, (text: string) => string>();
/** Errors being printed: inside, they print as Node prints any error. */
const printing = new WeakSet<object>();

/**
 * Makes `util.inspect(error)` print the error as Node would, with `redact` applied to all of it:
 * what a cause holds (a request's headers, a map) is printed too, and may hold the key.
 *
 * @example
 * printRedacted(error, context.redact);
 */
export function printRedacted(
  error: FlowError,
  redact: (text: string) => string,
): void {
  redactions.set(error, redact);
}

function inspectRedacted(
  this: object,
  depth: number,
  options: object,
  inspect: (value: unknown, options: object) => string,
): unknown {
  const redact = redactions.get(this);
  // Given back, the error itself is printed as Node prints any error.
  if (redact === undefined || printing.has(this)) return this;
  printing.add(this);
  try {
    return redact(inspect(this, { ...options, depth }));
  } finally {
    printing.delete(this);
  }
}

/**
 * Any failure of a flow call. `kind` says what happened; `code` is the platform's own code when it
 * sent an error body. Clients build these with the API key already scrubbed from every field.
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
    Object.defineProperty(this.prototype, INSPECT, { value: inspectRedacted });
  }
  // Declared, not initialised: the constructor assigns them all at once.
  declare readonly kind: FlowErrorKind;
  declare readonly flowId: string;
  /** HTTP status, or 0 when no response arrived. */
  declare readonly status: number;
  /** The platform's error code (`invalid_input`, `rate_limited`…), else `http_<status>`, `redirected`, `timeout`, `aborted`, `network_error`, `invalid_response`. */
  declare readonly code: string;
  declare readonly body: FlowErrorBody | undefined;
  /** Problems with the request body (from the server or the input validator) or with the output. */
  declare readonly details: FlowErrorDetail[];
  declare readonly requestId: string | undefined;
  /** How long the server asked to wait (`Retry-After` or the rate-limit reset), in ms. */
  declare readonly retryAfterMs: number | undefined;
  /** Attempts made, retries included. */
  declare attempts: number;
  declare readonly response: Response | undefined;

  constructor(init: FlowErrorInit) {
    const { message, cause, ...fields } = init;
    super(message);
    // As `new Error(message, { cause })` sets it: ES2020's lib types know no such option.
    if (cause !== undefined)
      Object.defineProperty(this, "cause", {
        value: cause,
        writable: true,
        configurable: true,
      });
    Object.assign(this, {
      attempts: 1,
      ...fields,
      status: init.status ?? 0,
      details: init.details ?? init.body?.details ?? [],
    });
  }

  /** The response headers, when a response arrived. */
  get headers(): Headers | undefined {
    return this.response?.headers;
  }

  /** A log-safe summary: leaves out `response`, `body` and `cause`, which may not be plain data. */
  toJSON(): Record<string, unknown> {
    const { response, body, ...fields } = this;
    return { ...fields, message: this.message };
  }
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
  | Answered<"redirected", number>
  | Unanswered<"timeout" | "aborted" | "connection">
  | Answered<"invalid_response", number>;

/**
 * True for errors thrown by flow clients, narrowed so that `error.kind` tells the rest. Unlike
 * `instanceof FlowError`, it also holds for errors from another copy of this runtime (two
 * generated folders, or two bundles).
 *
 * @example
 * if (isFlowError(error) && error.kind === "auth") askForANewKey();
 */
export function isFlowError(value: unknown): value is FlowFailure {
  return typeof value === "object" && value !== null && BRAND in value;
}

const KINDS: Record<number, FlowErrorKind> = {
  400: "invalid_input",
  401: "auth",
  403: "auth",
  404: "not_found",
  422: "invalid_input",
  429: "rate_limited",
};

/**
 * The kind an HTTP error status maps to.
 *
 * @example
 * kindOf(429); // "rate_limited"
 */
export function kindOf(status: number): FlowErrorKind {
  return KINDS[status] ?? (status >= 500 && status <= 599 ? "server" : "http");
}

/**
 * The platform's error body, when `value` is one; extra fields kept, malformed details dropped.
 *
 * @example
 * toErrorBody({ code: "not_found", message: "No such flow" }); // the same body
 * toErrorBody("<html>Bad gateway</html>"); // undefined
 */
export function toErrorBody(value: unknown): FlowErrorBody | undefined {
  const body = value as Partial<FlowErrorBody> | null;
  if (typeof body?.code !== "string" || typeof body.message !== "string")
    return undefined;
  const { details, requestId, ...rest } = body as FlowErrorBody;
  return {
    ...rest,
    ...(Array.isArray(details) && {
      details: details.filter(
        (d) => typeof d?.pointer === "string" && typeof d.message === "string",
      ),
    }),
    ...(typeof requestId === "string" && { requestId }),
  };
}

/**
 * The message of an HTTP failure: the platform's words when it sent an error body, else the
 * status and a snippet of what came instead.
 *
 * @example
 * describeHttpError(response, raw, toErrorBody(raw), "req-1"); // "Slow down [HTTP 429 rate_limited] (request id req-1)"
 */
export function describeHttpError(
  response: Response,
  raw: unknown,
  body: FlowErrorBody | undefined,
  requestId: string | undefined,
): string {
  const http = `HTTP ${response.status}`;
  const suffix = requestId === undefined ? "" : ` (request id ${requestId})`;
  if (body)
    return `${shorten(body.message)} [${http} ${body.code}]${suffix}${detailLines(body.details)}`;
  const status = `${http} ${response.statusText}`.trim();
  // Parsed JSON of another shape is named as such (and quoted), not called missing.
  if (raw !== undefined && typeof raw !== "string")
    return `${status} with JSON that is not the error body ({ code, message })${quoteBody(JSON.stringify(raw))}${suffix}`;
  return `${status} without a JSON error body${quoteBody(raw)}${suffix}`;
}

/** Longest error message kept from a body: a message is a sentence, not a page. */
const MESSAGE_CHARS = 1000;

/** `text`, cut to MESSAGE_CHARS (it is already redacted: a cut would hide the key from redaction). */
function shorten(text: string): string {
  return text.length > MESSAGE_CHARS
    ? `${text.slice(0, MESSAGE_CHARS)}…`
    : text;
}

/**
 * Characters of a text body kept for an error: a quote shows its first 200, but a proxy's page can
 * run to megabytes, and redacting all of it would hold up the call long past its deadline. The
 * window is wide enough that a key (of up to 2,000 characters) which starts in the quoted part
 * ends inside it, even percent-encoded three times over.
 */
const TEXT_WINDOW = 16 * 1024;
/**
 * The largest JSON error body kept whole, as its JSON text: far beyond the platform's (a 422 lists
 * a detail per problem), with a bounded cost to redact.
 */
const JSON_WINDOW = 256 * 1024;

/**
 * What is kept of a body for an error, before it is redacted: the start of a text; a parsed JSON
 * value itself when its text fits JSON_WINDOW, else the start of that text.
 *
 * @example
 * startOfBody("x".repeat(1e6)).length; // 16384
 */
export function startOfBody(body: unknown): unknown {
  if (typeof body === "string") return body.slice(0, TEXT_WINDOW);
  if (typeof body !== "object" || body === null) return body;
  const text = JSON.stringify(body);
  return text.length > JSON_WINDOW ? text.slice(0, TEXT_WINDOW) : body;
}

/**
 * The start of a body that is not what was expected, quoted for a message; nothing when empty.
 * Give it text that is already redacted: a cut or an escape would hide the key from redaction.
 *
 * @example
 * quoteBody("<html>Bad gateway</html>"); // ': "<html>Bad gateway</html>"'
 */
export function quoteBody(raw: unknown): string {
  return typeof raw === "string" && raw
    ? `: ${JSON.stringify(raw.slice(0, 200))}`
    : "";
}

/**
 * One indented line per detail, the body itself named "(root)".
 *
 * @example
 * detailLines([{ pointer: "/n", message: "is too small" }]); // "\n  /n: is too small"
 */
export function detailLines(details: FlowErrorDetail[] = []): string {
  return details
    .map((d) => `\n  ${d.pointer || "(root)"}: ${d.message}`)
    .join("");
}
