import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { ServeLog } from "./access-log.js";
import { ERROR_CODES, HttpError, type ErrorStatus } from "./error-body.js";
import type { Keyring } from "./keys.js";
import { withholdKeysFromBody } from "./withhold-keys.js";

type Send = (reply: FastifyReply, status: number, body: unknown) => FastifyReply;

/**
 * The error handler of the app: every refusal and failure, thrown or sent, goes out as the
 * platform's error body with its headers (WWW-Authenticate, Retry-After, Allow…), and never with
 * a key that the request carried elsewhere than in Authorization (withhold-keys.ts).
 *
 * @example
 * app.setErrorHandler(createErrorHandler(send, log, () => keyring));
 */
export function createErrorHandler(
  send: Send,
  log: ServeLog,
  keys: () => Keyring,
): (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => void {
  return (thrown, request, reply) => {
    const error = toHttpError(thrown, request, log);
    for (const [name, value] of Object.entries(error.options.headers ?? {}))
      reply.header(name, value);
    send(reply, error.status, withholdKeysFromBody(error.body(request.id), keys()));
  };
}

/**
 * Fastify's `frameworkErrors`: a path that is not a well-formed URL path (`/%zz`) is a 400 in the
 * platform's error body. Nothing was routed, so there is nothing to admit.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status =
    error.statusCode !== undefined && error.statusCode in ERROR_CODES
      ? (error.statusCode as ErrorStatus)
      : 400;
  const answer = new HttpError(
    status,
    "The request target is not a well-formed path; flows are run with POST /v1/@<org>/<flow-name>.",
  );
  void reply.code(status).header("x-request-id", request.id).send(answer.body(request.id));
}

/**
 * Node's HTTP parser refused the request before Fastify saw it (a malformed request line or
 * header, headers too large, headers or body too slow): answer in the platform's error body,
 * when the socket can still take an answer, and close the connection.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const status =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? 408
      : error.code === "HPE_HEADER_OVERFLOW"
        ? 431
        : 400;
  const message =
    status === 408
      ? "The request took too long to arrive; send the headers and body without pausing."
      : status === 431
        ? "The request headers are larger than this server accepts; send smaller ones."
        : "The request is not well-formed HTTP/1.1.";
  endWithError(socket, new HttpError(status, message));
}

/**
 * A CONNECT request (the server's `connect` event): Node would drop the connection without a
 * word. This server is no proxy; it says so in the error body and closes the connection.
 *
 * @example
 * app.server.on("connect", answerConnect);
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  endWithError(
    socket,
    new HttpError(
      405,
      "This server is not a proxy and takes no CONNECT; flows are run with POST /v1/@<org>/<flow-name>.",
      { headers: { allow: "POST" } },
    ),
  );
}

/** Writes `error` as a whole response on a socket Node handed over, and closes it. */
function endWithError(socket: Duplex, error: HttpError): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(error.body(undefined));
  const headers = Object.entries(error.options.headers ?? {}).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ""}\r\n${headers.join("")}Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's own errors (body parsing, limits) as the platform's. */
function toHttpError(
  error: FastifyError | HttpError,
  request: FastifyRequest,
  log: ServeLog,
): HttpError {
  if (error instanceof HttpError) return error;
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError(413, "The body is larger than this server accepts; send a smaller one.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new HttpError(415, "The body must be JSON: send Content-Type: application/json.");
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500 && status in ERROR_CODES)
    return new HttpError(status as ErrorStatus, error.message);
  log({
    level: "error",
    msg: "internal error",
    requestId: request.id,
    error: error.stack ?? error.message,
  });
  return new HttpError(500, `Internal error; see the server log (request id ${request.id}).`);
}
