// Where the API key of each attempt comes from: a string, or a function asked before every attempt
// (short-lived tokens from the caller's backend), or nowhere at all (a same-origin proxy adds it).
// Every key the client has sent is redacted from its errors and events for the client's lifetime.
import type { Middleware } from "openapi-fetch";
import {
  combineKeys,
  compileKey,
  keyRedactor,
  type CompiledKey,
  type Redact,
} from "./redact.js";

/**
 * Keys of a key function that are redacted: those it returned last, far more than the attempts of
 * calls running at once (a token per attempt).
 */
const KEPT_KEYS = 64;

/** The key, or a function that returns the key to send now (called before every attempt). */
export type ApiKey = string | (() => string | Promise<string>);

/** The keys of one client: what to send, and how to keep them out of everything it reports. */
export interface KeySource {
  /** The key for one attempt; undefined when the client sends none (`auth: false`). */
  key(): string | Promise<string> | undefined;
  /** A function key: a 401 asks it for a new key once. */
  readonly refreshable: boolean;
  /** Replaces every key this client has sent (or holds) in a text. */
  readonly redact: Redact;
}

/**
 * The key source of a client: `false` sends no Authorization header at all; a string is checked
 * at once; a function is called for every attempt and what it returns is checked then (a
 * TypeError when it is not a key, which never quotes it).
 *
 * @example
 * const keys = createKeySource("@acme/qa", () => tokens.current());
 * request.headers.set("authorization", `Bearer ${await keys.key()}`);
 */
export function createKeySource(
  flowId: string,
  apiKey: ApiKey | false | undefined,
): KeySource {
  if (apiKey === false)
    return { key: () => undefined, refreshable: false, redact: (text) => text };
  if (typeof apiKey !== "function") {
    const key = checkApiKey(flowId, apiKey);
    return { key: () => key, refreshable: false, redact: keyRedactor(key) };
  }
  // The keys the function returned, not only the newest: an answer to an earlier attempt, or a
  // server that echoes an old token, must not show one either. The KEPT_KEYS used last, each
  // compiled once: a function that mints a token per call adds one key per call.
  const sent = new Map<string, CompiledKey>();
  let redact: Redact = (text) => text;
  const note = (given: unknown): string => {
    const key = checkApiKey(flowId, given, "function");
    const compiled = sent.get(key) ?? compileKey(key);
    sent.delete(key);
    sent.set(key, compiled);
    if (sent.size > KEPT_KEYS) sent.delete(sent.keys().next().value!);
    redact = combineKeys([...sent.values()]);
    return key;
  };
  return {
    key() {
      const given = apiKey();
      return typeof given === "string" ? note(given) : given.then(note);
    },
    refreshable: true,
    redact: (text) => redact(text),
  };
}

/**
 * The middleware that sends the key: on the Request itself, after openapi-fetch merged every
 * other header, so a stray "authorization" header in the options cannot replace it, and middleware
 * added after this one sees the request as it will be sent. A call's attempt brings the key it
 * asked for (`attemptKeys`, keyed by the attempt's fetch); a request made on `client` directly
 * asks the source itself.
 *
 * @example
 * client.use(authMiddleware(keys, attemptKeys));
 */
export function authMiddleware(
  keys: KeySource,
  attemptKeys: WeakMap<object, string>,
): Middleware {
  return {
    onRequest({ request, options }) {
      const key = attemptKeys.get(options.fetch) ?? keys.key();
      if (typeof key === "string")
        request.headers.set("authorization", `Bearer ${key}`);
      else if (key)
        return key.then((given) => {
          request.headers.set("authorization", `Bearer ${given}`);
          return request;
        });
      return undefined;
    },
  };
}

/**
 * The API key to send, checked: a TypeError that says what to pass when it is missing or could
 * not be sent as a header (whose error would quote it). It never quotes the value.
 *
 * @example
 * const apiKey = checkApiKey("@acme/qa", options.apiKey ?? env("FLOW_API_KEY"));
 */
export function checkApiKey(
  flowId: string,
  apiKey: unknown,
  from: "option" | "function" = "option",
): string {
  if (typeof apiKey === "string" && /^[\x21-\x7e]+$/.test(apiKey))
    return apiKey;
  throw new TypeError(
    from === "option"
      ? `${flowId}: pass { apiKey } or set FLOW_API_KEY: the key as issued, without spaces or non-ASCII characters`
      : `${flowId}: the apiKey function must return (or resolve to) the key as issued, without spaces or non-ASCII characters; it returned ${apiKey === "" ? "an empty string" : typeof apiKey === "string" ? "a string that is not one" : typeof apiKey}`,
  );
}
