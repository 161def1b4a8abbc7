import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A caller's X-Request-Id is echoed when it is a sane token: printable ASCII, no spaces, at most 128. */
const CALLER_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Fastify's `genReqId` for one server: the caller's `X-Request-Id` when it is a sane token, else
 * `req_` and 32 hex digits (16 random per server, then a count), unique without a random draw per call.
 *
 * @example
 * Fastify({ requestIdHeader: false, genReqId: createRequestIds() });
 */
export function createRequestIds(): (request: IncomingMessage) => string {
  const prefix = `req_${randomBytes(8).toString("hex")}`;
  let count = 0;
  return (request) => {
    const given = request.headers["x-request-id"];
    return typeof given === "string" && CALLER_ID.test(given)
      ? given
      : prefix + (count++).toString(16).padStart(16, "0");
  };
}
