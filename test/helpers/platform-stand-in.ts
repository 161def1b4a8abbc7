import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** One request the stand-in received. */
export interface StandInCall {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

/** What the stand-in answers: JSON (`json`), or raw text with its own headers. */
export interface StandInAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly json?: unknown;
  readonly text?: string;
}

export interface StandIn {
  readonly url: string;
  readonly calls: StandInCall[];
  /** The most requests that were in flight at once. */
  readonly maxInFlight: () => number;
}

/**
 * A platform stand-in on 127.0.0.1 and a free port: every request is recorded, and `answer`
 * says what goes back (after `hold`, when given, resolves). Closed when the test ends.
 *
 * @example
 * const platform = await startStandIn((call) => ({ json: { answer: "Paris" } }));
 */
export async function startStandIn(
  answer: (call: StandInCall, index: number) => StandInAnswer | Promise<StandInAnswer>,
  hold?: (inFlight: number) => Promise<void>,
): Promise<StandIn> {
  const calls: StandInCall[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((request, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    void handle(request, response).finally(() => inFlight--);
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const call: StandInCall = {
      path: request.url ?? "",
      authorization: request.headers.authorization,
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
    };
    calls.push(call);
    await hold?.(inFlight);
    const reply = await answer(call, calls.length - 1);
    const body = reply.json === undefined ? (reply.text ?? "") : JSON.stringify(reply.json);
    response.writeHead(reply.status ?? 200, {
      ...(reply.json === undefined ? {} : { "content-type": "application/json" }),
      ...reply.headers,
    });
    response.end(body);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, maxInFlight: () => maxInFlight };
}

/** A 401 with the error body for a call without `Bearer <key>`, else `answer`'s reply. */
export function requireKey(
  key: string,
  answer: (call: StandInCall, index: number) => StandInAnswer | Promise<StandInAnswer>,
): (call: StandInCall, index: number) => StandInAnswer | Promise<StandInAnswer> {
  return (call, index) =>
    call.authorization === `Bearer ${key}`
      ? answer(call, index)
      : {
          status: 401,
          headers: { "www-authenticate": "Bearer" },
          json: { code: "unauthorized", message: "Send an API key." },
        };
}

/** A clock whose sleeps return at once and move its time on, recording each wait. */
export function fakeClock(): {
  now(): number;
  sleep(ms: number): Promise<void>;
  readonly sleeps: number[];
} {
  let time = Date.UTC(2026, 0, 1);
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleep: (ms) => {
      sleeps.push(ms);
      time += ms;
      return Promise.resolve();
    },
    sleeps,
  };
}
