import net from "node:net";

export interface RawResponse {
  /** 0 when the server closed the connection without an answer. */
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/**
 * Sends `request` (bytes exactly as given: fetch would normalize the request target) to
 * 127.0.0.1:`port` on a fresh connection and reads the answer until the server closes it; gives
 * up after `timeoutMs`.
 */
export function sendRaw(
  port: number,
  request: string | Buffer,
  timeoutMs = 5_000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no answer within ${timeoutMs} ms to ${JSON.stringify(String(request).slice(0, 80))}`,
        ),
      );
    }, timeoutMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString("latin1")));
    });
  });
}

/** A POST with `Connection: close`, the given extra header lines and a body, as raw HTTP/1.1. */
export function rawPost(
  target: string,
  headerLines: readonly string[],
  body: string | Buffer,
  method = "POST",
): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const head = [
    `${method} ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Connection: close",
    ...headerLines,
    `Content-Length: ${bytes.length}`,
    "",
    "",
  ].join("\r\n");
  return Buffer.concat([Buffer.from(head, "latin1"), bytes]);
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return { status: 0, headers: new Map(), body: "" };
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers = new Map(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  let body = text.slice(end + 4);
  if (headers.get("transfer-encoding") === "chunked") body = dechunk(body);
  return {
    status: Number(statusLine.split(" ")[1] ?? 0),
    headers,
    body: Buffer.from(body, "latin1").toString("utf8"),
  };
}

function dechunk(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}
