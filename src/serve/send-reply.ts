import type { FastifyInstance, FastifyReply } from "fastify";

export interface ReplySender {
  readonly send: (reply: FastifyReply, status: number, body: unknown) => FastifyReply;
  /** Whether the app is closing: admission refuses new requests with 503 then. */
  readonly closing: () => boolean;
}

/**
 * A `send(reply, status, body)` for one app that, once the app is closing, asks each client to
 * drop its keep-alive connection (Connection: close): the requests in flight finish and no
 * connection is left idle, so closing does not wait on them.
 *
 * @example
 * const { send } = createReplySender(app);
 * send(reply, 200, output);
 */
export function createReplySender(app: FastifyInstance): ReplySender {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  return {
    send: (reply, status, body) => {
      if (closing) reply.header("connection", "close");
      return reply.code(status).send(body);
    },
    closing: () => closing,
  };
}
