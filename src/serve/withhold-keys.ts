import type { ServeLog } from "./access-log.js";
import type { ErrorBody } from "./error-body.js";
import type { Keyring } from "./keys.js";

/**
 * The last gate before anything leaves the server: a caller may put a key where no key belongs
 * (the path, X-Request-Id, a property name of the body, any header a message quotes), and what a
 * request sent is quoted in error messages and log lines. Text that holds a key, in any letter
 * case or encoding (Keyring.mentionsKey), is replaced here, whatever put it there.
 */

/** Said in place of text that held an API key. */
export const WITHHELD = "[withheld: it held an API key]";

/**
 * The error body, or, when any part of it holds a key, the same code and request id with a
 * message that says why the rest is left out.
 *
 * @example
 * send(reply, error.status, withholdKeysFromBody(error.body(request.id), keys()));
 */
export function withholdKeysFromBody(body: ErrorBody, keyring: Keyring): ErrorBody {
  if (!keyring.mentionsKey(JSON.stringify(body))) return body;
  return {
    code: body.code,
    message: `The answer to this request would have repeated an API key it carried outside the Authorization header, so its details are left out; send keys only as Authorization: Bearer <API_KEY>.`,
    ...(body.requestId === undefined ? {} : { requestId: body.requestId }),
  };
}

/**
 * A log that writes each entry with every string that holds a key replaced by WITHHELD.
 *
 * @example
 * const log = createKeySafeLog((entry) => console.log(JSON.stringify(entry)), () => keyring);
 */
export function createKeySafeLog(write: ServeLog, keys: () => Keyring): ServeLog {
  return (entry) => {
    const keyring = keys();
    write(keyring.mentionsKey(JSON.stringify(entry)) ? withholdStrings(entry, keyring) : entry);
  };
}

function withholdStrings<T>(value: T, keyring: Keyring): T {
  if (typeof value === "string") return (keyring.mentionsKey(value) ? WITHHELD : value) as T;
  if (Array.isArray(value))
    return value.map((item: unknown) => withholdStrings(item, keyring)) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      keyring.mentionsKey(name) ? WITHHELD : name,
      withholdStrings(item, keyring),
    ]),
  ) as T;
}
