// Servers sometimes echo the Authorization header back: in a body, a header, a request id, or a
// redirect's Location, where a URL parser may have lower-cased it (a host name) or percent-encoded
// it, and a `Basic` header carries it in base64. Everything a client keeps from a response, and
// every error it passes on, goes through here first, so the key cannot reach an error, a log line
// or an event in any of those forms. Keys of any length are replaced: a short test key garbles the
// text it happens to match, which is the lesser harm.

const MASK = "[redacted]";

/** Levels of nesting kept: what lies deeper is masked, so a hostile body cannot exhaust the stack. */
const MAX_DEPTH = 64;

/** Replaces the key in a text, in every form `keyRedactor` knows. */
export type Redact = (text: string) => string;

/**
 * A function that replaces `secret` (or each of several secrets) in a text: in any letter case,
 * percent-encoded (any number of times, byte by byte too, hex digits in either case, a space
 * standing for `+`), escaped in JSON, in a JSON pointer or as character references, in base64
 * (standard or URL-safe, at any byte offset), in hex and as UTF-16. It runs in time linear in the
 * text's length.
 *
 * @example
 * const redact = keyRedactor("sk_123");
 * redact("Bearer SK_123 is revoked"); // "Bearer [redacted] is revoked"
 * redact("/login?key=sk%5F123"); // "/login?key=[redacted]"
 */
export function keyRedactor(secret: string | readonly string[]): Redact {
  const secrets = typeof secret === "string" ? [secret] : secret;
  return combineKeys(secrets.map(compileKey));
}

/** One key's forms, made once: a key function's client keeps many and adds one at a time. */
export interface CompiledKey {
  readonly secret: string;
  /** Every literal occurrence of one of its forms, whatever surrounds it. */
  readonly literal: RegExp;
  /** Its forms as `foldText` reads them, for the encoded occurrences. */
  readonly folded: readonly string[];
}

/**
 * A key's forms, for `combineKeys`.
 *
 * @example
 * const redact = combineKeys([compileKey("sk_123"), compileKey("sk_456")]);
 */
export function compileKey(secret: string): CompiledKey {
  // Longest first: where one form starts another, the longer one is masked whole.
  const needles = [
    ...new Set(
      [secret, ...base64Forms(secret), ...byteForms(secret)].flatMap(
        writtenForms,
      ),
    ),
  ].sort((a, b) => b.length - a.length);
  return {
    secret,
    literal: new RegExp(needles.map(toPattern).join("|"), "gi"),
    folded: needles.map((needle) => foldText(needle).folded),
  };
}

/**
 * The redaction of several compiled keys: their literal forms masked one key at a time, the
 * longest key first (where one key starts another, the longer one is masked whole), then the
 * encoded forms of all of them in one folded pass.
 *
 * @example
 * const redact = combineKeys(keys.map(compileKey));
 */
export function combineKeys(keys: readonly CompiledKey[]): Redact {
  if (!keys.length) return (text) => text;
  const ordered = [...keys].sort((a, b) => b.secret.length - a.secret.length);
  const folded = [...new Set(ordered.flatMap((key) => key.folded))];
  return (text) => {
    let masked = text;
    for (const key of ordered) masked = masked.replace(key.literal, MASK);
    // Without an escape's mark or non-ASCII letters, folding changes only case and spaces: nothing
    // left to find.
    return /[%~\\&\x80-\uffff]/.test(masked)
      ? maskFolded(masked, folded)
      : masked;
  };
}

/**
 * The parts of `secret`'s base64 (standard and URL-safe) that do not depend on the bytes around
 * it, for each of the three offsets it can start at: what a `Basic` header or a token built around
 * the key shows of it. None for keys under 6 characters, whose forms are a few common letters.
 */
function base64Forms(secret: string): string[] {
  if (secret.length < 6) return [];
  return [0, 1, 2].flatMap((offset) => {
    const form = btoa("\0".repeat(offset) + secret).slice(
      Math.ceil((offset * 8) / 6),
      Math.floor(((offset + secret.length) * 8) / 6),
    );
    return [form, form.replace(/\+/g, "-").replace(/\//g, "_")];
  });
}

/**
 * The key's bytes as a server may echo them: in hex (either case, as the pattern ignores case),
 * and as UTF-16 text read byte by byte (a NUL between characters, either byte order). None for
 * keys under 6 characters, as for base64.
 */
function byteForms(secret: string): string[] {
  if (secret.length < 6) return [];
  const hex = [...secret]
    .map((char) => char.charCodeAt(0).toString(16).padStart(2, "0"))
    .join("");
  return [hex, [...secret].join("\0")];
}

/**
 * A form of the key as written, in a JSON string, in a JSON pointer, and in a pointer in a JSON
 * string: matched as they stand, since decoding a key that ends in `\\` can join its last
 * character to the quote after it.
 */
function writtenForms(form: string): string[] {
  const pointer = form.replace(/~/g, "~0").replace(/\//g, "~1");
  return [form, jsonEscaped(form), pointer, jsonEscaped(pointer)];
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A needle as a regular expression: literal, with a space matching `+` (a form decoder's reading). */
function toPattern(needle: string): string {
  return needle.replace(/[$()*+.?[\\\]^{|}]/g, (c) =>
    c === "+" ? "[+ ]" : `\\${c}`,
  );
}

/**
 * `text` as it is compared with the key: escapes decoded as each one ends, so that an escape of an
 * escape decodes too (`%25%34%31` is `%41` is `A`), letters folded to lower-case ASCII (NFKC: a
 * full-width "Ｓ" is "s"), a space read as "+", and whatever cannot be part of an ASCII key as
 * "\0". `at[i]` is where folded character `i` starts in `text`. One pass: each decoding shortens
 * what is kept, and each look reads a few characters.
 */
function foldText(text: string): { folded: string; at: number[] } {
  const chars: string[] = [];
  const starts: number[] = [];
  for (let i = 0; i < text.length;) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    chars.push(char);
    starts.push(i);
    i += char.length;
    for (let decoded = decodeEnd(chars); decoded; decoded = decodeEnd(chars))
      starts.length = chars.length;
  }
  let folded = "";
  for (const char of chars) {
    const fold = (char < "\x80" ? char : char.normalize("NFKC")).toLowerCase();
    folded +=
      fold === " " ? "+" : fold.length === 1 && fold < "\x80" ? fold : "\0";
  }
  return { folded, at: [...starts, text.length] };
}

/**
 * Escapes that end the decoded text so far: a percent-escape, a JSON pointer's `~0` and `~1`, a
 * JSON string's `\uXXXX` and `\"`-style escapes, and character references (`&#65;`, `&#x41;`,
 * `&quot;`).
 */
const ESCAPE_AT_END =
  /(?:%[0-9a-f]{2}|~[01]|\\u[0-9a-f]{4}|\\["\\/]|&#\d{1,7};|&#x[0-9a-f]{1,6};|&(?:quot|amp|apos|lt|gt);)$/i;
const NAMED: Record<string, string> = {
  quot: '"',
  amp: "&",
  apos: "'",
  lt: "<",
  gt: ">",
};

/** Replaces the escape that ends `chars`, if one does, with the character it stands for. */
function decodeEnd(chars: string[]): boolean {
  const n = chars.length;
  const last = chars[n - 1]!;
  // Only these characters end an escape, each after a mark at a place of its own.
  const marked = /[0-9a-f]/i.test(last)
    ? chars[n - 3] === "%" || chars[n - 6] === "\\" || chars[n - 2] === "~"
    : last === ";"
      ? chars.slice(-10).includes("&")
      : /["\\/]/.test(last) && chars[n - 2] === "\\";
  if (!marked) return false;
  const tail = chars.slice(-10).join("");
  const escape = ESCAPE_AT_END.exec(tail)?.[0];
  if (escape === undefined) return false;
  const body = escape.slice(1);
  const char =
    escape[0] === "%"
      ? String.fromCharCode(parseInt(body, 16))
      : escape[0] === "~"
        ? body === "0"
          ? "~"
          : "/"
        : escape[0] === "\\"
          ? body[0] === "u"
            ? String.fromCharCode(parseInt(body.slice(1), 16))
            : body
          : body[0] === "#"
            ? String.fromCodePoint(
                Math.min(
                  0x10ffff,
                  body[1] === "x"
                    ? parseInt(body.slice(2), 16)
                    : parseInt(body.slice(1), 10),
                ),
              )
            : NAMED[body.slice(0, -1).toLowerCase()]!;
  chars.splice(n - escape.length, escape.length, char);
  return true;
}

/** `text` with every stretch whose folded form is one of `needles` masked. */
function maskFolded(text: string, needles: string[]): string {
  const { folded, at } = foldText(text);
  const spans: [number, number][] = [];
  for (const needle of needles)
    for (
      let i = folded.indexOf(needle);
      i >= 0;
      i = folded.indexOf(needle, i + needle.length)
    )
      spans.push([at[i]!, at[i + needle.length]!]);
  if (!spans.length) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let result = "";
  let end = 0;
  for (const [from, to] of spans) {
    if (from >= end) result += text.slice(end, from) + MASK;
    end = Math.max(end, to);
  }
  return result + text.slice(end);
}

/**
 * `value` with the key replaced in every string, property names, errors and their causes
 * included, own properties that are not enumerable too, and what headers, requests, responses,
 * maps and sets hold; `value` itself when nothing in it changes. An error that held the key
 * becomes a plain `Error` with the same name, code and other fields; a request, a plain object of
 * its method, URL and headers.
 *
 * @example
 * redactDeep({ [key]: key }, keyRedactor(key)); // { "[redacted]": "[redacted]" }
 */
export function redactDeep(
  value: unknown,
  redact: Redact,
  seen: Map<object, unknown> = new Map(),
  depth = 0,
): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > MAX_DEPTH) return MASK;
  // A way back to `value` from inside it reads as masked: the original may hold the key.
  seen.set(value, MASK);
  const inner = (field: unknown) => redactDeep(field, redact, seen, depth + 1);
  let result: unknown;
  try {
    result =
      redactHolder(value, redact, inner) ?? redactFields(value, redact, inner);
  } catch {
    // What cannot be read (a proxy, a getter that throws, a Map that is not one) cannot be
    // vouched for, and a redaction that throws would make `call()` throw.
    result = MASK;
  }
  seen.set(value, result);
  return result;
}

/** Bytes read to look for the key: a larger buffer in an error is masked unread. */
const MAX_BYTES = 1 << 20;

/**
 * A copy without the key of an object whose contents are not its own properties (what
 * `util.inspect` shows of it all the same); undefined for any other object. Bytes and URLs that
 * hold the key are masked whole.
 */
function redactHolder(
  value: object,
  redact: Redact,
  inner: (field: unknown) => unknown,
): unknown {
  if (typeof Response !== "undefined" && value instanceof Response)
    return redactResponse(value, redact);
  if (typeof Headers !== "undefined" && value instanceof Headers)
    return redactHeaders(value, redact);
  if (typeof Request !== "undefined" && value instanceof Request) {
    const { method, url, headers } = value;
    const safe = {
      method,
      url: redact(url),
      headers: redactHeaders(headers, redact),
    };
    return safe.url === url && safe.headers === headers ? value : safe;
  }
  if (value instanceof Map || value instanceof Set)
    return redactEntries(value, inner);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return holdsKey(bytesText(value), redact) ? MASK : value;
  if (
    (typeof URL !== "undefined" && value instanceof URL) ||
    (typeof URLSearchParams !== "undefined" && value instanceof URLSearchParams)
  )
    return holdsKey(String(value), redact) ? MASK : value;
  return undefined;
}

function holdsKey(text: string | undefined, redact: Redact): boolean {
  return text === undefined || redact(text) !== text;
}

/** The bytes as Latin-1 text (each byte one character); undefined when too many to read. */
function bytesText(value: ArrayBufferView | ArrayBuffer): string | undefined {
  const bytes =
    value instanceof ArrayBuffer
      ? new Uint8Array(value)
      : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (bytes.length > MAX_BYTES) return undefined;
  let text = "";
  for (let at = 0; at < bytes.length; at += 8192)
    text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return text;
}

/** A map or a set, or a copy with the key replaced in its keys and values. */
function redactEntries(
  value: Map<unknown, unknown> | Set<unknown>,
  inner: (field: unknown) => unknown,
): unknown {
  const entries = [...value.entries()];
  const copied = entries.map(
    ([key, item]) => [inner(key), inner(item)] as const,
  );
  const same = copied.every(
    ([key, item], i) => key === entries[i]![0] && item === entries[i]![1],
  );
  if (same) return value;
  return value instanceof Map
    ? new Map(copied)
    : new Set(copied.map(([key]) => key));
}

/** `headers` when they hold no key, else a copy with it replaced and headers named after it left out. */
function redactHeaders(headers: Headers, redact: Redact): Headers {
  const entries: [string, string][] = [];
  headers.forEach((value, name) => entries.push([name, value]));
  const kept = entries
    .filter(([name]) => redact(name) === name)
    .map(([name, value]): [string, string] => [name, redact(value)]);
  const same =
    kept.length === entries.length &&
    kept.every(([, value], i) => value === entries[i]![1]);
  return same ? headers : new Headers(kept);
}

/** Fields an error may have on its prototype or behind a getter, where the key can be too. */
const ERROR_FIELDS = ["name", "message", "stack", "cause", "errors"];

/**
 * An object or array with the key replaced in its own value properties (named by a string or a
 * symbol; a getter is not called), an array's items, and an error's fields wherever they are.
 */
function redactFields(
  value: object,
  redact: Redact,
  inner: (field: unknown) => unknown,
): unknown {
  const array = Array.isArray(value);
  const items: unknown[] = array ? Array.from(value as unknown[], inner) : [];
  const fields = Reflect.ownKeys(value).flatMap((name) => {
    if (array && (name === "length" || isIndex(name))) return [];
    const field = Object.getOwnPropertyDescriptor(value, name)!;
    return "value" in field ? [[name, field.value as unknown] as const] : [];
  });
  if (value instanceof Error)
    for (const name of ERROR_FIELDS)
      if (name in value && !fields.some(([own]) => own === name))
        fields.push([
          name,
          (value as unknown as Record<string, unknown>)[name],
        ]);
  let changed = items.some((item, i) => item !== (value as unknown[])[i]);
  const copied = fields.map(([name, field]) => {
    const pair = [
      typeof name === "string" ? redact(name) : name,
      inner(field),
    ] as const;
    changed ||= pair[0] !== name || pair[1] !== field;
    return pair;
  });
  if (!changed) return value;
  const copy: object = array
    ? items
    : value instanceof Error
      ? new Error()
      : {};
  for (const [name, field] of copied)
    Object.defineProperty(copy, name, {
      value: field,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

function isIndex(name: string | symbol): boolean {
  return typeof name === "string" && /^(0|[1-9]\d*)$/.test(name);
}

/**
 * The response an error keeps: `response` itself when its URL, status text and headers hold no
 * key and it has no `Location`; else a body-less copy with the key replaced, headers named after it
 * and `Location` left out (a flow never redirects, and a Location's path may hold credentials).
 *
 * @example
 * const safe = redactResponse(response, keyRedactor(apiKey));
 */
export function redactResponse(response: Response, redact: Redact): Response {
  const { status, statusText, url } = response;
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  const text = `${url} ${statusText} ${headers.join(" ")}`;
  if (redact(text) === text && !response.headers.has("location"))
    return response;
  // A Response can be made with a status from 200 to 599: one above (a server may send 600 to
  // 999) is made with 599 and given its own back; one below (0, in browsers) carries no headers.
  const copy =
    status < 200
      ? Response.error()
      : new Response(null, {
          status: Math.min(status, 599),
          statusText: redact(statusText),
          // "[redacted]" is not a valid header name: a header named after the key is left out.
          headers: headers
            .filter(([name]) => name !== "location" && redact(name) === name)
            .map(([name, value]): [string, string] => [name, redact(value)]),
        });
  if (status > 599) Object.defineProperty(copy, "status", { value: status });
  return Object.defineProperty(copy, "url", { value: redact(url) });
}
