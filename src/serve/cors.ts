import fastifyCors from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Keyring } from "./keys.js";

/**
 * Which pages' scripts may call the server (CORS): the origins a browser sends in `Origin`. By
 * default pages served from loopback on any port, as a frontend's dev server is; `*` for any.
 */
export interface CorsPolicy {
  /** Every origin may call (`Access-Control-Allow-Origin: *`). */
  readonly any: boolean;
  /** Whether a page of `origin` may call. */
  allows(origin: string): boolean;
}

/** `http://localhost:*` and its loopback siblings: a frontend's dev server, on whatever port. */
export const LOOPBACK_ORIGINS = [
  "http://localhost:*",
  "http://127.0.0.1:*",
  "http://[::1]:*",
] as const;

/** The headers scripts may read on an answer: the request id and the rate-limit figures. */
const EXPOSED_HEADERS = [
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
];

/**
 * The policy for a list of origins (`--cors`, comma-separated, or config `serve.cors`): `*`, or
 * origins such as `https://app.example.com`, where `:*` stands for any port. Throws a RangeError
 * naming every entry that is not an origin.
 *
 * @example
 * parseCorsOrigins("http://localhost:*,https://app.example.com").allows("http://localhost:5173"); // true
 */
export function parseCorsOrigins(list: string | undefined): CorsPolicy {
  const entries = (list ?? LOOPBACK_ORIGINS.join(","))
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.includes("*")) return { any: true, allows: () => true };
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  const wrong: string[] = [];
  for (const entry of entries) {
    const portless = entry.endsWith(":*") ? entry.slice(0, -2) : undefined;
    const origin = originOf(portless ?? entry);
    if (origin === undefined || (portless === undefined ? origin !== entry : origin !== portless))
      wrong.push(JSON.stringify(entry));
    else (portless === undefined ? exact : anyPort).add(origin);
  }
  if (wrong.length > 0 || entries.length === 0)
    throw new RangeError(
      `--cors (serve.cors in the config) takes origins such as http://localhost:5173 or https://app.example.com, comma-separated (":*" for any port, "*" for every origin); ${wrong.length > 0 ? `${wrong.join(", ")} ${wrong.length === 1 ? "is not one" : "are not"}` : "none was given"}`,
    );
  return {
    any: false,
    allows(origin) {
      if (exact.has(origin)) return true;
      const url = parseOrigin(origin);
      return (
        url !== undefined &&
        url.origin === origin &&
        anyPort.has(`${url.protocol}//${url.hostname}`)
      );
    },
  };
}

/**
 * Answers in CORS terms (@fastify/cors): the allowed origin, `Vary: Origin`, the exposed headers,
 * and on a preflight the allowed method and headers. The preflight itself is answered by
 * admission.ts, which decides from its own reading of the request whether it is one (`isPreflight`);
 * so this hook only adds headers, and runs before admission so that refusals carry them too (a
 * page can read its 401 or 429).
 *
 * @example
 * useCors(app, parseCorsOrigins(undefined), () => keyring);
 */
export function useCors(app: FastifyInstance, policy: CorsPolicy, keys: () => Keyring): void {
  // A preflight's allowed headers repeat the names it asked for: a key named there is not repeated.
  app.addHook("onSend", (_request, reply, payload, done) => {
    const allowed = reply.getHeader("access-control-allow-headers");
    if (typeof allowed === "string" && keys().mentionsKey(allowed))
      reply.removeHeader("access-control-allow-headers");
    done(null, payload);
  });
  void app.register(fastifyCors, {
    origin: (origin, callback) =>
      callback(null, policy.any ? "*" : origin !== undefined && policy.allows(origin)),
    methods: ["POST"],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    preflightContinue: true,
    strictPreflight: false,
  });
}

/**
 * A CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method` (Fetch standard,
 * §3.2.2). Only these are answered without a key; any other OPTIONS is an ordinary request.
 *
 * @example
 * if (isPreflight(request)) reply.code(204).send();
 */
export function isPreflight(request: FastifyRequest): boolean {
  const { headers } = request;
  return (
    request.method === "OPTIONS" &&
    typeof headers.origin === "string" &&
    typeof headers["access-control-request-method"] === "string"
  );
}

/** The origin of `text` when it is an http(s) URL, else undefined. */
function originOf(text: string): string | undefined {
  const url = parseOrigin(text);
  return url === undefined ? undefined : url.origin;
}

function parseOrigin(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
