import type { onResponseHookHandler } from "fastify";

/** Where the access log and handler problems go: one JSON object per entry. */
export type ServeLog = (entry: Record<string, unknown>) => void;

/**
 * The `onResponse` hook that writes one entry per request: time taken, request id, method, the
 * path without its query string (a caller may put a key there), status, and the key's name (never
 * the key), plus any injected fault.
 *
 * @example
 * app.addHook("onResponse", createAccessLog((entry) => console.log(JSON.stringify(entry))));
 */
export function createAccessLog(write: ServeLog): onResponseHookHandler {
  return (request, reply, done) => {
    write({
      level: "info",
      msg: "request",
      requestId: request.id,
      method: request.method,
      path: request.targetPath ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      key: request.keyName,
      ...(request.fault ? { fault: request.fault } : {}),
    });
    done();
  };
}
