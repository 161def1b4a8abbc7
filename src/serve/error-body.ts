import { ERROR_CODES, type ErrorStatus, type PreciseErrorCode } from "../model/error-codes.js";

export { ERROR_CODES, type ErrorStatus } from "../model/error-codes.js";

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

/** An error answer on its way out: status, body, and any headers it needs (Allow, Retry-After…). */
export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly options: {
      /** A code more precise than the status's (model/error-codes.ts lists them). */
      readonly code?: PreciseErrorCode;
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
