/**
 * The codes of the platform's error body, as `flowgen serve` answers them: one table that the
 * server answers from and the OpenAPI document describes (`FlowErrorBody.code`), so the two cannot
 * drift apart.
 */

/** Each status the server answers with an error, and the body's code for it. */
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
  429: "rate_limited",
  431: "headers_too_large",
  500: "internal",
  503: "unavailable",
} as const;

/** Codes more precise than their status's, and the status they come with. */
export const PRECISE_ERROR_CODES = {
  invalid_json: 400,
  invalid_input: 400,
} as const satisfies Record<string, keyof typeof ERROR_CODES>;

export type ErrorStatus = keyof typeof ERROR_CODES;
export type PreciseErrorCode = keyof typeof PRECISE_ERROR_CODES;

/**
 * Every code an error body may carry, by status and then as listed.
 *
 * @example
 * errorBodyCodes().slice(0, 3); // ["bad_request", "invalid_json", "invalid_input"]
 */
export function errorBodyCodes(): string[] {
  return Object.entries(ERROR_CODES).flatMap(([status, code]) => [
    code,
    ...Object.entries(PRECISE_ERROR_CODES)
      .filter(([, preciseStatus]) => String(preciseStatus) === status)
      .map(([precise]) => precise),
  ]);
}
