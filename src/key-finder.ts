/**
 * Finding API keys in text on its way out: serve's error bodies, log lines and headers, which must
 * never repeat a key a request carried, and verify's report, which must never show the platform's.
 * A key is found in any letter case and in the forms text takes on the way:
 *
 * - percent-encoded, whole or in part, however many times and byte by byte (`%25%34%31` is `%41`
 *   is `A`), a `+` standing for a space;
 * - escaped in a JSON string (`\"`, `\\`, `\/`, `\u0041`), in a JSON pointer (`~0`, `~1`, as a
 *   body's property names show in a problem's pointer), or as an XML or HTML character reference
 *   (`&quot;`, `&#65;`, `&#x41;`);
 * - in base64, standard or URL-safe, at each of the three byte offsets it can start at: a `Basic`
 *   header, or a token built around the key, shows the same characters whatever surrounds it;
 * - in hex, in either case (a key dumped as bytes);
 * - in UTF-16, little- or big-endian: each character beside a zero byte, as percent-decoding
 *   (`%00`), a JSON escape (`\u0000`) or a byte-to-a-character reading shows it, and that in hex
 *   or base64 too (PowerShell's `-EncodedCommand` is base64 of UTF-16LE).
 *
 * The text is read once, its escapes decoded as they end (`foldText`), so every look is linear in
 * the text's length for each key, whatever the text holds.
 */

export interface KeyFinder {
  /** Whether `text` holds one of the keys, in any of the forms above. */
  mentions(text: string): boolean;
  /** `text` with each stretch that spells a key, in any of the forms above, replaced by `mask`. */
  mask(text: string, mask: string): string;
}

/** Keys under this length have no hex or base64 forms: a few letters, found in any text. */
const SHORTEST_ENCODED_KEY = 6;

/** Characters that start an escape or fold to another: without them, folding is lower-casing (and `+` for a space). */
const ESCAPES = /[%\\&~\x80-\uffff]/;

/**
 * A finder for `keys` (empty strings are ignored).
 *
 * @example
 * const finder = createKeyFinder(["sl/ash~Key0123"]);
 * finder.mentions("/sl~1ash~0key0123"); // true: a JSON pointer to a property named after the key
 * finder.mask("echo: c2wvYXNofktleTAxMjM=", "[redacted]"); // "echo: [redacted]="
 */
export function createKeyFinder(keys: readonly string[]): KeyFinder {
  const forms = keys.filter((key) => key !== "").flatMap(keyForms);
  // As written, too, escaped for JSON and JSON pointers: decoding the text can swallow a key's
  // first characters into an escape that text before it starts (`%4` then a key that starts with
  // `1`), or its last into one it ends (a key ending in `\`, JSON-escaped before a closing quote).
  const needles: Needles = {
    written: [...new Set(forms.flatMap(writtenForms).map(asciiLower))],
    folded: [...new Set(forms.map((form) => foldText(form).folded))].filter((n) => n !== ""),
  };
  if (needles.written.length === 0) return { mentions: () => false, mask: (text) => text };
  return {
    mentions(text) {
      const written = asciiLower(text);
      if (needles.written.some((needle) => written.includes(needle))) return true;
      const folded = ESCAPES.test(text) ? foldText(text).folded : written.replaceAll(" ", "+");
      return needles.folded.some((needle) => folded.includes(needle));
    },
    mask(text, mask) {
      const spans = findSpans(text, needles);
      return spans.length === 0 ? text : maskSpans(text, spans, mask);
    },
  };
}

/** A key's forms as written and as folded (`foldText`), each looked for in the text read the same way. */
interface Needles {
  readonly written: readonly string[];
  readonly folded: readonly string[];
}

/** A form of a key as written, in a JSON string, in a JSON pointer, and in a pointer in a JSON string. */
function writtenForms(form: string): string[] {
  const pointer = form.replaceAll("~", "~0").replaceAll("/", "~1");
  return [form, jsonEscaped(form), pointer, jsonEscaped(pointer)];
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** `text` with its ASCII letters in lower case: the same length, so a match's place is the text's. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * `key` as written and as its UTF-16 bytes read one to a character, and, for keys long enough, the
 * hex and base64 of its UTF-8 and UTF-16 bytes. Each form is then looked for as written and as
 * folded, so its other spellings (percent-encoded, escaped, another letter case) are found too.
 */
function keyForms(key: string): string[] {
  const wide = utf16Bytes(key);
  const texts = [key, ...wide.map((bytes) => bytes.toString("latin1"))];
  if (key.length < SHORTEST_ENCODED_KEY) return texts;
  const encoded = [Buffer.from(key, "utf8"), ...wide].flatMap((bytes) => [
    bytes.toString("hex"),
    ...base64Forms(bytes),
  ]);
  return [...texts, ...encoded];
}

/**
 * `key` in UTF-16, little- and big-endian, without the zero byte at the end of the one and the
 * start of the other: a text that stops just before it, or starts just after it, still holds the
 * key, and for keys of ASCII characters (as serve's are) the two orders are then the same bytes.
 */
function utf16Bytes(key: string): Buffer[] {
  const little = Buffer.from(key, "utf16le");
  const big = Buffer.from(little).swap16();
  return [
    little.at(-1) === 0 ? little.subarray(0, -1) : little,
    big[0] === 0 ? big.subarray(1) : big,
  ];
}

/**
 * The parts of the base64 (standard and URL-safe) of `bytes` that do not depend on the bytes
 * around them, for each of the three offsets they can start at.
 */
function base64Forms(bytes: Buffer): string[] {
  return [0, 1, 2].flatMap((offset) => {
    const form = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString("base64")
      .slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    return [form, form.replaceAll("+", "-").replaceAll("/", "_")];
  });
}

/** Where each needle lies in `text`, as written or folded: [start, end) in `text`, sorted by start. */
function findSpans(text: string, needles: Needles): [number, number][] {
  const spans: [number, number][] = [];
  const written = asciiLower(text);
  for (const needle of needles.written)
    for (let i = written.indexOf(needle); i >= 0; i = written.indexOf(needle, i + needle.length))
      spans.push([i, i + needle.length]);
  const { folded, from, to } = foldText(text);
  for (const needle of needles.folded)
    for (let i = folded.indexOf(needle); i >= 0; i = folded.indexOf(needle, i + needle.length))
      spans.push([from[i]!, to[i + needle.length - 1]!]);
  return spans.sort((a, b) => a[0] - b[0]);
}

function maskSpans(text: string, spans: readonly [number, number][], mask: string): string {
  let result = "";
  let end = 0;
  for (const [start, stop] of spans) {
    if (start >= end) result += text.slice(end, start) + mask;
    end = Math.max(end, stop);
  }
  return result + text.slice(end);
}

/**
 * The text decoded so far, one entry per character: its code point, and the stretch of the
 * original text it stands for.
 */
interface Decoded {
  readonly codes: number[];
  readonly starts: number[];
  readonly ends: number[];
}

/**
 * `text` as keys are looked for in it: its escapes decoded (`decodeEnd`, as each one ends, so an
 * escape of an escape decodes too), letters lower-cased (NFKC first: a full-width "Ｓ" is "s"),
 * and a space read as `+`. `from[i]` and `to[i]` are where folded character `i` comes from in
 * `text`.
 */
function foldText(text: string): { folded: string; from: number[]; to: number[] } {
  const decoded: Decoded = { codes: [], starts: [], ends: [] };
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const end = i + (code > 0xffff ? 2 : 1);
    decoded.codes.push(code);
    decoded.starts.push(i);
    decoded.ends.push(end);
    while (decodeEnd(decoded));
    i = end;
  }
  let folded = "";
  const from: number[] = [];
  const to: number[] = [];
  decoded.codes.forEach((code, index) => {
    const char = String.fromCodePoint(code);
    const fold = char === " " ? "+" : (code < 0x80 ? char : char.normalize("NFKC")).toLowerCase();
    folded += fold;
    for (let k = 0; k < fold.length; k++) {
      from.push(decoded.starts[index]!);
      to.push(decoded.ends[index]!);
    }
  });
  return { folded, from, to };
}

/** Named character references a key's characters may be written as. */
const NAMED: Readonly<Record<string, number>> = { quot: 34, amp: 38, apos: 39, lt: 60, gt: 62 };
/** The JSON escapes of one character after the backslash. */
const JSON_ESCAPES: Readonly<Record<string, number>> = {
  '"': 34,
  "\\": 92,
  "/": 47,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
};
/** The longest escape `decodeEnd` reads: `&#x10ffff;` and `&#1114111;`. */
const LONGEST_ESCAPE = 10;

/**
 * When the last characters decoded end an escape, replaces them with the one character it encodes
 * and says so. Each replacement removes at least one character, and each look reads at most
 * LONGEST_ESCAPE of them.
 */
function decodeEnd(decoded: Decoded): boolean {
  const { codes } = decoded;
  const n = codes.length;
  const at = (back: number) => (back <= n ? codes[n - back]! : -1);
  const last = at(1);
  // %XX
  if (at(3) === 0x25 && isHex(at(2)) && isHex(last))
    return replaceEnd(decoded, 3, hexValue(at(2)) * 16 + hexValue(last));
  // A JSON pointer's ~0 and ~1
  if (at(2) === 0x7e && (last === 0x30 || last === 0x31))
    return replaceEnd(decoded, 2, last === 0x30 ? 0x7e : 0x2f);
  // JSON: \uXXXX, \" and the rest
  if (
    at(6) === 0x5c &&
    at(5) === 0x75 &&
    isHex(at(4)) &&
    isHex(at(3)) &&
    isHex(at(2)) &&
    isHex(last)
  )
    return replaceEnd(decoded, 6, parseInt(lastText(codes, 4), 16));
  const escaped = JSON_ESCAPES[String.fromCharCode(last)];
  if (at(2) === 0x5c && escaped !== undefined) return replaceEnd(decoded, 2, escaped);
  // &#NN; &#xHH; &name;
  if (last !== 0x3b) return false;
  for (let length = 4; length <= LONGEST_ESCAPE && length <= n; length++) {
    if (at(length) !== 0x26) continue;
    const body = lastText(codes, length - 1).slice(0, -1);
    const code = /^#\d{1,7}$/.test(body)
      ? Number(body.slice(1))
      : /^#x[0-9a-f]{1,6}$/i.test(body)
        ? parseInt(body.slice(2), 16)
        : NAMED[body];
    return code !== undefined && code <= 0x10ffff ? replaceEnd(decoded, length, code) : false;
  }
  return false;
}

/** Replaces the last `count` characters with the one of `code`, standing for what they stood for. */
function replaceEnd(decoded: Decoded, count: number, code: number): true {
  const { codes, starts, ends } = decoded;
  const first = codes.length - count;
  codes[first] = code;
  ends[first] = ends[codes.length - 1]!;
  codes.length = starts.length = ends.length = first + 1;
  return true;
}

/** The last `count` characters decoded, as text. */
function lastText(codes: readonly number[], count: number): string {
  return String.fromCodePoint(...codes.slice(codes.length - count));
}

function isHex(code: number): boolean {
  return hexValue(code) >= 0;
}

/** The value of a hex digit's code point, or -1 for any other. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}
