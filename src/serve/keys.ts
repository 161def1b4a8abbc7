import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isPlainObject, joinPointer } from "../json-pointer.js";
import { parseDocument, type ParsedDocument } from "../spec/parse-document.js";
import { createKeyFinder } from "../key-finder.js";

/**
 * API keys for `flowgen serve`. Keys are secrets: no message, name or result ever holds one, and
 * they are compared in constant time. Problems name an entry by its position.
 */

export interface KeyEntry {
  readonly key: string;
  /** Orgs this key may call, e.g. ["@acme"]; undefined = every org. */
  readonly orgs?: readonly string[] | undefined;
  /** A label for logs (never the key itself); default: "key-" + first 8 hex chars of sha256(key). */
  readonly name?: string | undefined;
}

export type AuthResult =
  | { readonly ok: true; readonly name: string; readonly orgs: readonly string[] | undefined }
  | { readonly ok: false; readonly reason: "missing" | "malformed" | "unknown" };

export interface Keyring {
  /** Checks an Authorization header value: "Bearer <key>" (scheme case-insensitive, one space or more). */
  authenticate(authorization: string | undefined): AuthResult;
  /** Whether an authenticated key may call flows of `org` (e.g. "@acme"). */
  allows(auth: { readonly orgs: readonly string[] | undefined }, org: string): boolean;
  /**
   * Whether `text` holds one of the keys, in any letter case or encoding `createKeyFinder` knows
   * (percent-encoding, JSON and JSON pointer escapes, character references, base64, hex, UTF-16):
   * text from a request that does must not be logged or echoed.
   */
  mentionsKey(text: string): boolean;
  readonly size: number;
}

/** Bad keys configuration; `problems` has one line per problem, `message` all of them. */
export class KeysError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
    this.name = "KeysError";
  }
}

/** Printable ASCII without spaces: what fits in `Authorization: Bearer <key>` unchanged. */
const KEY_PATTERN = /^[\x21-\x7e]+$/;
/** The env format separates entries with "," and orgs with ":", so keys there cannot hold them. */
const ENV_KEY_PATTERN = /^[\x21-\x2b\x2d-\x39\x3b-\x7e]+$/;
/** "@" and the org naming rule of spec folders (NAME_PATTERN in spec/read-spec-files.ts). */
const ORG_PATTERN = /^@[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const ORG_RULE =
  'orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters';
/** Printable ASCII, no spaces at either end, at most 64 characters: safe in a log line. */
const NAME_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,62}[\x21-\x7e])?$/;
const NAME_RULE =
  '"name" must be a label of 1 to 64 printable ASCII characters, without spaces at either end, such as "ci"';
const ENV_NAME = "FLOWGEN_SERVE_KEYS";
/** A property name in the keys file is never quoted, nor put in a pointer: it may be a misplaced key. */
const UNKNOWN_PROPERTY = "an unknown property (its name is not shown: it could be a misplaced key)";
const ENV_FORMAT = "key or key:@org1+@org2, entries separated by commas";
const ENTRY_PROPERTIES = ["key", "orgs", "name"];

const MISSING: AuthResult = { ok: false, reason: "missing" };
const MALFORMED: AuthResult = { ok: false, reason: "malformed" };
const UNKNOWN: AuthResult = { ok: false, reason: "unknown" };

/**
 * A keyring that checks bearer tokens in constant time: the presented key is written into a buffer
 * as wide as the longest stored key (cut there, zero-padded) and compared by `timingSafeEqual` with
 * every stored key padded the same way, all of them, lengths included, so timing tells nothing about
 * which (or whether any) stored key is close, nor how long one is. (Hashing each presented key would
 * do the same at a cost per call that bench/NOTES.md measures.) Throws KeysError for keys
 * that could never be sent, and for repeated keys or names (a name labels log lines and picks the
 * rate-limit bucket).
 *
 * @example
 * const keyring = createKeyring([{ key: "s3cret-ci-key", orgs: ["@acme"], name: "ci" }]);
 * const auth = keyring.authenticate("Bearer s3cret-ci-key"); // { ok: true, name: "ci", orgs: ["@acme"] }
 * if (auth.ok && keyring.allows(auth, "@acme")) { ... }
 */
export function createKeyring(entries: readonly KeyEntry[]): Keyring {
  const problems: string[] = [];
  const accepted = entries.map((entry, index) => {
    if (!KEY_PATTERN.test(entry.key))
      problems.push(`key ${index + 1}: ${keyCharsProblem(entry.key, "file")}`);
    if (entry.name !== undefined && !NAME_PATTERN.test(entry.name))
      problems.push(`key ${index + 1}: ${NAME_RULE}`);
    const orgs = entry.orgs === undefined ? undefined : Object.freeze([...entry.orgs]);
    return { ok: true, name: entry.name ?? defaultKeyName(entry.key), orgs } as const;
  });
  const keys = entries.map((entry) => entry.key);
  problems.push(
    ...repeats(keys).map(
      ([first, again]) => `key ${again + 1}: the same key as key ${first + 1}; keep one of them`,
    ),
    ...repeats(accepted.map((auth) => auth.name))
      // A repeated key already has its own message; its default name repeats with it.
      .filter(([first, again]) => keys[first] !== keys[again])
      .map(
        ([first, again]) =>
          `key ${again + 1}: the same name as key ${first + 1}; give each key its own name`,
      ),
  );
  if (problems.length > 0) throw new KeysError(problems.join("\n"), problems);
  // Keys are printable ASCII (KEY_PATTERN), one byte per character.
  const width = Math.max(1, ...keys.map((key) => key.length));
  const padded = keys.map((key) => {
    const buffer = Buffer.alloc(width);
    buffer.write(key, "latin1");
    return buffer;
  });
  const presented = Buffer.alloc(width);
  const finder = createKeyFinder(keys);
  return {
    size: keys.length,
    authenticate(authorization) {
      const token = readBearerToken(authorization);
      if (typeof token !== "string") return token;
      presented.fill(0);
      presented.write(token, "latin1");
      let match: AuthResult = UNKNOWN;
      for (let i = 0; i < keys.length; i++) {
        // No early exit: every key is compared, whatever matched before.
        const same =
          Number(timingSafeEqual(presented, padded[i]!)) & Number(token.length === keys[i]!.length);
        if (same === 1 && match === UNKNOWN) match = accepted[i]!;
      }
      return match;
    },
    allows(auth, org) {
      return auth.orgs === undefined || auth.orgs.includes(org);
    },
    mentionsKey: (text) => finder.mentions(text),
  };
}

const SPACE = 0x20;
const TAB = 0x09;

/**
 * The token of a `Bearer <token>` Authorization value, read in one pass over it: a caller decides
 * how long the value is, so no step may take longer than linear time in it (a trim by regular
 * expression is quadratic over a long run of inner spaces). Leading and trailing spaces and tabs
 * are not part of a field value (RFC 9110 §5.5); the scheme is case-insensitive and followed by
 * one space or more (RFC 9110 §11.4); the token is printable ASCII.
 */
function readBearerToken(value: string | undefined): string | AuthResult {
  if (value === undefined) return MISSING;
  let start = 0;
  let end = value.length;
  while (start < end && isBlank(value.charCodeAt(start))) start++;
  while (end > start && isBlank(value.charCodeAt(end - 1))) end--;
  if (start === end) return MISSING;
  const scheme = "bearer ";
  if (end - start <= scheme.length) return MALFORMED;
  if (value.slice(start, start + scheme.length).toLowerCase() !== scheme) return MALFORMED;
  let at = start + scheme.length;
  while (value.charCodeAt(at) === SPACE) at++;
  for (let i = at; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return MALFORMED;
  }
  return value.slice(at, end);
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

/**
 * Reads keys from the value of FLOWGEN_SERVE_KEYS (`key` or `key:@org1+@org2`, comma-separated)
 * and from a keys file (`{ "keys": [{ "key", "orgs"?, "name"? }] }`, relative to `cwd`; parsed like
 * spec files, so a .yaml/.yml name is read as YAML). Entries from both are returned together, each
 * with its name filled in. Every problem found is reported in one KeysError.
 *
 * @example
 * const entries = await loadKeys({ env: process.env["FLOWGEN_SERVE_KEYS"], file: "keys.json", cwd: process.cwd() });
 */
export async function loadKeys(options: {
  readonly env?: string | undefined;
  readonly file?: string | undefined;
  readonly cwd: string;
}): Promise<KeyEntry[]> {
  const found: Located[] = [];
  const problems: string[] = [];
  if (options.env !== undefined) parseEnvKeys(options.env, found, problems);
  if (options.file !== undefined) await readKeysFile(options.file, options.cwd, found, problems);
  const entries = found.map(({ entry }) => ({
    ...entry,
    name: entry.name ?? defaultKeyName(entry.key),
  }));
  const where = (index: number, part: "key" | "name") =>
    found[index]?.where(part) ?? `entry ${index + 1}`;
  for (const [first, again] of repeats(entries.map((entry) => entry.key))) {
    problems.push(
      `${where(again, "key")}: the same key as ${where(first, "key")}; keep one of them`,
    );
  }
  for (const [first, again] of repeats(entries.map((entry) => entry.name))) {
    // A repeated key already has its own message; its default name repeats with it.
    if (entries[first]?.key === entries[again]?.key) continue;
    problems.push(
      `${where(again, "name")}: the same name as ${where(first, "name")}; give each key its own name (names label log lines and rate limits)`,
    );
  }
  const keys = new Set(entries.map((entry) => entry.key));
  entries.forEach((entry, index) => {
    if (keys.has(entry.name))
      problems.push(
        `${where(index, "name")}: the name is an API key; names show in logs, so pick a label such as "ci"`,
      );
  });
  if (problems.length > 0) throw new KeysError(problems.join("\n"), problems);
  return entries;
}

/**
 * A fresh random key for a run with no keys configured: "fg_dev_" and 32 hex characters.
 *
 * @example
 * devKey(); // "fg_dev_9f86d081884c7d659a2feaa0c55ad015"
 */
export function devKey(): string {
  return `fg_dev_${randomBytes(16).toString("hex")}`;
}

/** An entry and how to point at its parts in a message. */
interface Located {
  readonly entry: KeyEntry;
  readonly where: (part: "key" | "name") => string;
}

function parseEnvKeys(value: string, found: Located[], problems: string[]): void {
  value.split(",").forEach((raw, index) => {
    const text = raw.trim();
    if (text === "") return;
    const at = `${ENV_NAME} entry ${index + 1}`;
    const colon = text.indexOf(":");
    const key = colon === -1 ? text : text.slice(0, colon);
    const orgsText = colon === -1 ? undefined : text.slice(colon + 1);
    const before = problems.length;
    if (key === "") problems.push(`${at}: no key before the colon; write ${ENV_FORMAT}`);
    else if (!ENV_KEY_PATTERN.test(key)) problems.push(`${at}: ${keyCharsProblem(key, "env")}`);
    if (orgsText === "")
      problems.push(
        `${at}: nothing after the colon; list orgs as key:@acme+@globex, or drop the colon to allow every org`,
      );
    const orgs = orgsText ? orgsText.split("+") : undefined;
    orgs?.forEach((org, orgIndex) => {
      const problem = orgProblem(org);
      if (problem !== undefined) problems.push(`${at}, org ${orgIndex + 1}: ${problem}`);
    });
    if (problems.length === before) found.push({ entry: { key, orgs }, where: () => at });
  });
}

async function readKeysFile(
  file: string,
  cwd: string,
  found: Located[],
  problems: string[],
): Promise<void> {
  const text = await readKeysText(file, cwd, problems);
  if (text === undefined) return;
  const parsed = parseDocument(file, text);
  if (!parsed.ok) {
    for (const issue of parsed.issues)
      problems.push(
        `${file}${issue.line === undefined ? "" : `:${issue.line}:${issue.column ?? 1}`}: ${issue.message}`,
      );
    return;
  }
  const doc = parsed.document;
  const at = (pointer: string, shown?: string) => locate(file, doc, pointer, shown);
  const keys = readKeysList(doc.value, at, problems);
  keys?.forEach((item: unknown, index) => {
    const pointer = joinPointer("/keys", index);
    const before = problems.length;
    const entry = readFileEntry(item, pointer, at, problems);
    if (entry !== undefined && problems.length === before) {
      found.push({
        entry,
        where: (part) =>
          at(entry.name === undefined && part === "name" ? pointer : joinPointer(pointer, part)),
      });
    }
  });
}

/** The keys file's text, or undefined when it cannot be read (the problem says why). */
export async function readKeysText(
  file: string,
  cwd: string,
  problems: string[],
): Promise<string | undefined> {
  try {
    return await readFile(path.resolve(cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === "ENOENT"
        ? "no such keys file; check the path (it is relative to the working directory)"
        : code === "EISDIR"
          ? "is a folder; pass the keys file itself"
          : `cannot be read (${code ?? "unknown error"}); check that the file is readable`;
    problems.push(`${file}: ${problem}`);
    return undefined;
  }
}

/**
 * The non-empty `keys` array of the keys file's root object, or undefined when there is none (the
 * problem says what to write). A property beside `keys` is a problem too.
 */
function readKeysList(
  root: unknown,
  at: (pointer: string, shown?: string) => string,
  problems: string[],
): readonly unknown[] | undefined {
  const shape =
    'write { "keys": [{ "key": "...", "orgs": ["@acme"], "name": "ci" }] } (orgs and name optional)';
  if (!isPlainObject(root)) {
    problems.push(`${at("")}: the keys file must hold a JSON object; ${shape}`);
    return undefined;
  }
  for (const property of Object.keys(root).filter((property) => property !== "keys")) {
    problems.push(
      `${at(joinPointer("", property), "")}: ${UNKNOWN_PROPERTY}; the file has only "keys"`,
    );
  }
  const keys = root["keys"];
  if (!Array.isArray(keys)) {
    problems.push(
      keys === undefined
        ? `${at("")}: no "keys" array; ${shape}`
        : `${at("/keys")}: "keys" must be an array; ${shape}`,
    );
    return undefined;
  }
  if (keys.length === 0) {
    problems.push(
      `${at("/keys")}: no keys listed; add one, or do not pass a keys file to get a dev key`,
    );
    return undefined;
  }
  return keys as readonly unknown[];
}

function readFileEntry(
  item: unknown,
  pointer: string,
  at: (pointer: string, shown?: string) => string,
  problems: string[],
): KeyEntry | undefined {
  if (!isPlainObject(item)) {
    problems.push(
      `${at(pointer)}: a key entry must be an object like { "key": "...", "orgs": ["@acme"], "name": "ci" }`,
    );
    return undefined;
  }
  for (const property of Object.keys(item).filter(
    (property) => !ENTRY_PROPERTIES.includes(property),
  )) {
    // A misspelt "orgs" must not quietly give a key every org.
    problems.push(
      `${at(joinPointer(pointer, property), pointer)}: ${UNKNOWN_PROPERTY}; a key entry has only "key", "orgs" and "name"`,
    );
  }
  const { key, orgs, name } = item;
  if (key === undefined) problems.push(`${at(pointer)}: no "key"; add the API key as a string`);
  else if (typeof key !== "string")
    problems.push(`${at(joinPointer(pointer, "key"))}: "key" must be a string`);
  else if (!KEY_PATTERN.test(key))
    problems.push(`${at(joinPointer(pointer, "key"))}: ${keyCharsProblem(key, "file")}`);
  if (orgs !== undefined) {
    const orgsAt = joinPointer(pointer, "orgs");
    if (!Array.isArray(orgs))
      problems.push(
        `${at(orgsAt)}: "orgs" must be an array of org names such as ["@acme"], or left out to allow every org`,
      );
    else if (orgs.length === 0)
      problems.push(
        `${at(orgsAt)}: "orgs" is empty, so the key could call nothing; list orgs such as ["@acme"], or leave "orgs" out to allow every org`,
      );
    else {
      orgs.forEach((org: unknown, index) => {
        const problem =
          typeof org === "string" ? orgProblem(org) : `an org must be a string; ${ORG_RULE}`;
        if (problem !== undefined) problems.push(`${at(joinPointer(orgsAt, index))}: ${problem}`);
      });
    }
  }
  if (name !== undefined && (typeof name !== "string" || !NAME_PATTERN.test(name))) {
    problems.push(`${at(joinPointer(pointer, "name"))}: ${NAME_RULE}`);
  }
  if (typeof key !== "string") return undefined;
  return {
    key,
    orgs: Array.isArray(orgs) ? (orgs as string[]) : undefined,
    name: typeof name === "string" ? name : undefined,
  };
}

/** `file:line:column #pointer`, as formatIssue lays out spec problems. */
/** `file:line:column #pointer` of the value at `pointer`, showing `shown` as its pointer. */
function locate(file: string, doc: ParsedDocument, pointer: string, shown = pointer): string {
  const position = doc.locate(pointer);
  return `${file}${position ? `:${position.line}:${position.column}` : ""}${shown ? ` #${shown}` : ""}`;
}

/** What is wrong with a key's characters, without quoting any of them. */
function keyCharsProblem(key: string, source: "env" | "file"): string {
  const env = source === "env";
  const rule = env
    ? "keys here are printable ASCII without spaces, commas or colons"
    : "keys are printable ASCII without spaces";
  if (key === "") return `the key is empty; ${rule}`;
  if (/\s/.test(key))
    return `the key has a space or other whitespace in it; ${env ? "separate entries with commas, and " : ""}${rule}`;
  return `the key has a character keys cannot have; ${rule}${env ? " (a keys file allows commas and colons)" : ""}`;
}

/** What is wrong with an org name, without quoting it: a misplaced key must not end up in a message. */
function orgProblem(org: string): string | undefined {
  if (ORG_PATTERN.test(org)) return undefined;
  if (org === "") return `the org is empty; ${ORG_RULE}`;
  const slips = [
    ...(org.startsWith("@") ? [] : ['lacks its leading "@"']),
    ...(org === org.toLowerCase() ? [] : ["has capital letters"]),
  ];
  const fixed = `${org.startsWith("@") ? "" : "@"}${org.toLowerCase()}`;
  if (slips.length > 0 && ORG_PATTERN.test(fixed))
    return `the org ${slips.join(" and ")}; ${ORG_RULE}`;
  return `not an org name; ${ORG_RULE}`;
}

/** Pairs [first index, later index] for each value seen before. */
function repeats(values: readonly string[]): Array<[number, number]> {
  const firstSeen = new Map<string, number>();
  const pairs: Array<[number, number]> = [];
  values.forEach((value, index) => {
    const first = firstSeen.get(value);
    if (first === undefined) firstSeen.set(value, index);
    else pairs.push([first, index]);
  });
  return pairs;
}

function defaultKeyName(key: string): string {
  return `key-${hash("sha256", key, "hex").slice(0, 8)}`;
}
