import type { FastifyInstance, FastifyReply } from "fastify";

/**
 * A `send(reply, status, body)` for one app that, once the app is closing, asks each client to
 * drop its keep-alive connection (Connection: close): the requests in flight finish and no
 * connection is left idle, so closing does not wait on them. New requests get Fastify's own 503.
 *
 * @example
 * const send = createReplySender(app);
 * send(reply, 200, output);
 */
export function createReplySender(
  app: FastifyInstance,
): (reply: FastifyReply, status: number, body: unknown) => FastifyReply {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  return (reply, status, body) => {
    if (closing) reply.header("connection", "close");
    return reply.code(status).send(body);
  };
}
