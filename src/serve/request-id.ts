import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Keyring } from "./keys.js";

/**
 * A caller's X-Request-Id is used when it is a plain token: letters, digits and `._:+/=-` (UUIDs,
 * ULIDs, trace ids, base64), at most 128 characters. Such an id is safe to log, to send back in a
 * header and to show in a message; anything else (spaces, quotes, control characters, markup)
 * gets an id of the server's making.
 */
const CALLER_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/**
 * Fastify's `genReqId` for one server: the caller's `X-Request-Id` when it is a plain token that
 * holds no API key (an id is logged and echoed, so a key pasted into the wrong header must not be),
 * else `req_` and 32 hex digits (16 random per server, then a count), unique without a random draw
 * per call.
 *
 * @example
 * Fastify({ requestIdHeader: false, genReqId: createRequestIds(() => keyring) });
 */
export function createRequestIds(keys: () => Keyring): (request: IncomingMessage) => string {
  const prefix = `req_${randomBytes(8).toString("hex")}`;
  let count = 0;
  return (request) => {
    const given = request.headers["x-request-id"];
    return typeof given === "string" && CALLER_ID.test(given) && !keys().mentionsKey(given)
      ? given
      : prefix + (count++).toString(16).padStart(16, "0");
  };
}
