/** The platform's error body (docs/error-body.md; `#/components/schemas/FlowErrorBody` in openapi.json). */
export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  readonly requestId?: string;
}

export interface ErrorDetail {
  readonly pointer: string;
  readonly message: string;
}

/** Each status the server answers with an error, and the body's stable code for it. */
export const ERROR_CODES = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  408: "request_timeout",
  413: "payload_too_large",
  415: "unsupported_media_type",
  417: "expectation_failed",
  431: "headers_too_large",
  429: "rate_limited",
  500: "internal",
  503: "unavailable",
} as const;

export type ErrorStatus = keyof typeof ERROR_CODES;

/** An error answer on its way out: status, body, and any headers it needs (Allow, Retry-After…). */
export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly options: {
      readonly code?: string;
      readonly details?: readonly ErrorDetail[];
      readonly headers?: Readonly<Record<string, string>>;
    } = {},
  ) {
    super(message);
  }

  /** The error body; without a request id when the request never got one (Node refused it before Fastify). */
  body(requestId: string | undefined): ErrorBody {
    const { details } = this.options;
    return {
      code: this.options.code ?? ERROR_CODES[this.status],
      message: this.message,
      ...(details ? { details } : {}),
      ...(requestId === undefined ? {} : { requestId }),
    };
  }
}
