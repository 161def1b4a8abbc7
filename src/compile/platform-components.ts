import { errorBodyCodes } from "../model/error-codes.js";
import { PLATFORM_COMPONENTS } from "../model/names.js";

/**
 * The parts of the OpenAPI document that every flow shares: the error body, the error responses,
 * their headers and the bearer scheme. The seed leaves the error body open (§7); this is the shape
 * flowgen defines, documents in docs/error-body.md, and `flowgen serve` sends.
 */

/**
 * `{ code, message, details?, requestId? }`, the body of every non-2xx answer. Named as the
 * runtime names it: a component called `Error` becomes a type that shadows the global `Error` in
 * the code other generators (orval, hey-api) write.
 */
export const ERROR_BODY = PLATFORM_COMPONENTS.errorBody;
const ERROR_DETAIL = PLATFORM_COMPONENTS.errorDetail;

export const ERROR_SCHEMAS = {
  [ERROR_BODY]: {
    type: "object",
    description: "The body of every error answer.",
    required: ["code", "message"],
    properties: {
      code: {
        type: "string",
        description: `Stable, machine-readable reason: ${errorBodyCodes().join(", ")}. New codes may be added; treat unknown ones by HTTP status.`,
      },
      message: { type: "string", description: "What went wrong and what to do, for people." },
      details: {
        type: "array",
        description: "One entry per problem, for errors about the request body.",
        items: { $ref: `#/components/schemas/${ERROR_DETAIL}` },
      },
      requestId: {
        type: "string",
        description:
          "The id of the request, also sent as the X-Request-Id header; quote it when asking for help.",
      },
    },
  },
  [ERROR_DETAIL]: {
    type: "object",
    description: "One problem with the request body.",
    required: ["pointer", "message"],
    properties: {
      pointer: {
        type: "string",
        description:
          'JSON pointer (RFC 6901) to the offending value in the request body; "" for the body itself.',
      },
      message: { type: "string", description: "What is wrong with that value." },
    },
  },
} as const;

/** Headers carry an example (OpenAPI 3.1 §4.8.21) so that docs and mock servers show real values, not `0` and `"string"`. */
const header = (
  description: string,
  example: string | number,
  schema: Record<string, unknown> = { type: "string" },
) => ({ description, schema, example });
const COUNT = { type: "integer", minimum: 0 };

export const HEADERS = {
  RequestId: header(
    "The id of this request; echoes the caller's X-Request-Id when one was sent.",
    "req_01J9Z6",
  ),
  RetryAfter: header("Seconds to wait before trying again (RFC 9110 §10.2.3).", 1, COUNT),
  RateLimitLimit: header("Requests allowed in the current window.", 20, COUNT),
  RateLimitRemaining: header("Requests left in the current window.", 19, COUNT),
  RateLimitReset: header("Seconds until the window resets.", 1, COUNT),
  WwwAuthenticate: header(
    "The scheme to authenticate with: Bearer (RFC 6750 §3).",
    'Bearer realm="flows"',
  ),
} as const;

type HeaderName = keyof typeof HEADERS;

interface ErrorResponse {
  readonly status: string;
  readonly name: string;
  readonly description: string;
  readonly headers: readonly HeaderName[];
  /** What `flowgen serve` answers in this case; shown by docs and served by mock servers. */
  readonly example: {
    readonly code: string;
    readonly message: string;
    readonly details?: readonly { pointer: string; message: string }[];
  };
}

/** Statuses every flow operation can answer with, besides its 200. */
export const ERROR_RESPONSES: readonly ErrorResponse[] = [
  {
    status: "400",
    name: "BadRequest",
    description:
      "The body is not valid JSON (invalid_json) or does not match the flow's input schema (invalid_input); details lists every violation.",
    headers: ["RequestId"],
    example: {
      code: "invalid_input",
      message: "The body does not match the flow's input schema.",
      details: [{ pointer: "/question", message: "must be string" }],
    },
  },
  {
    status: "401",
    name: "Unauthorized",
    description: "The Authorization header is missing, malformed, or carries an unknown key.",
    headers: ["RequestId", "WwwAuthenticate"],
    example: {
      code: "unauthorized",
      message: "Send an API key as Authorization: Bearer <API_KEY>.",
    },
  },
  {
    status: "403",
    name: "Forbidden",
    description: "The key is valid but may not run this flow.",
    headers: ["RequestId"],
    example: { code: "forbidden", message: "This key may not run flows of this org." },
  },
  {
    status: "404",
    name: "NotFound",
    description: "No flow has this id.",
    headers: ["RequestId"],
    example: {
      code: "not_found",
      message: "No flow has this id; check the org and the flow name.",
    },
  },
  {
    status: "413",
    name: "PayloadTooLarge",
    description: "The body is larger than the service accepts.",
    headers: ["RequestId"],
    example: {
      code: "payload_too_large",
      message: "The body is larger than the service accepts; send less.",
    },
  },
  {
    status: "415",
    name: "UnsupportedMediaType",
    description: "The body is not sent as application/json.",
    headers: ["RequestId"],
    example: { code: "unsupported_media_type", message: "Send the body as application/json." },
  },
  {
    status: "429",
    name: "TooManyRequests",
    description: "Rate limited: wait Retry-After seconds, then try again.",
    headers: ["RequestId", "RetryAfter", "RateLimitLimit", "RateLimitRemaining", "RateLimitReset"],
    example: { code: "rate_limited", message: "Too many requests; retry after 1 second." },
  },
  {
    status: "500",
    name: "InternalError",
    description: "The flow failed.",
    headers: ["RequestId"],
    example: {
      code: "internal",
      message: "The flow failed; quote the request id when asking for help.",
    },
  },
  {
    status: "503",
    name: "ServiceUnavailable",
    description: "The service is briefly unavailable; retry after Retry-After seconds when given.",
    headers: ["RequestId", "RetryAfter"],
    example: {
      code: "unavailable",
      message: "The service is briefly unavailable; retry after 1 second.",
    },
  },
];

export const SUCCESS_HEADERS: readonly HeaderName[] = [
  "RequestId",
  "RateLimitLimit",
  "RateLimitRemaining",
  "RateLimitReset",
];

export const SECURITY_SCHEME = "bearerAuth";

export function headerRefs(names: readonly HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(
    names.map((name) => [headerWireName(name), { $ref: `#/components/headers/${name}` }]),
  );
}

function headerWireName(name: HeaderName): string {
  const wire: Record<HeaderName, string> = {
    RequestId: "X-Request-Id",
    RetryAfter: "Retry-After",
    RateLimitLimit: "RateLimit-Limit",
    RateLimitRemaining: "RateLimit-Remaining",
    RateLimitReset: "RateLimit-Reset",
    WwwAuthenticate: "WWW-Authenticate",
  };
  return wire[name];
}

export function errorResponseComponents(): Record<string, unknown> {
  return Object.fromEntries(
    ERROR_RESPONSES.map((response) => [
      response.name,
      {
        description: response.description,
        headers: headerRefs(response.headers),
        content: {
          "application/json": {
            schema: { $ref: `#/components/schemas/${ERROR_BODY}` },
            example: { ...response.example, requestId: "req_01J9Z6" },
          },
        },
      },
    ]),
  );
}
