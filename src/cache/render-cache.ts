import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { readRegularBytes, readRegularFile } from "../read-text-files.js";
import { isStale } from "../write/stale-pid.js";
import { readMachineSecret } from "./machine-secret.js";

/**
 * Rendered files from earlier runs, by a hash of everything that went into them. Rendering is a
 * pure function of its inputs, so a hit gives the same bytes a fresh render would: the cache makes
 * runs faster and never changes what they write. Only entries the current run used are kept.
 *
 * The cache is evidence only because this machine wrote it: its index carries an HMAC under a
 * secret kept outside every project (`machine-secret.ts`), and records the hash of every value,
 * which is checked when the value is read. A cache that a repository brings along (committed with
 * `git add -f`, or copied from another machine) does not verify and is ignored, so it can never
 * answer for what generated/ should hold.
 *
 * The values sit in a pack file beside the index, one after another; the index says where each
 * one lies. A run reads the pack once and decodes only the values it asks for, and authenticates
 * the small index rather than every rendered byte.
 */
export interface RenderCache {
  /** True when nothing from an earlier run is remembered: every file will be rendered. */
  readonly empty: boolean;
  get(key: string): string | undefined;
  set(key: string, content: string): void;
  /** The hash (`hashContent`) of the value under `key`, as the manifest records it; computed once. */
  hashOf(key: string): string | undefined;
  /** Writes the entries this run used; a cache that cannot be written is skipped silently. */
  save(): Promise<void>;
}

const INDEX_FILE = "render-cache.json";
const PACK_FILE = "render-cache.pack";
/** The first line of the index file; the second is the HMAC of the rest, the JSON index. */
const FORMAT = "flowgen render cache 4";

/** Where a value lies in the pack: byte offset, byte length and the hash of those bytes. */
type PackEntry = readonly [offset: number, length: number, hash: string];

/**
 * The hex SHA-512/256 of a value (as UTF-8), as the cache's index and the manifest record it:
 * as collision-resistant as SHA-256 and, computed in 64-bit words, faster on 64-bit machines.
 *
 * @example
 * if (hashContent(text) !== manifest.files[path]?.output) console.log("edited by hand");
 */
export function hashContent(content: string | Uint8Array): string {
  return createHash("sha512-256").update(content).digest("hex");
}

/**
 * A hex SHA-512/256 of the parts, each length-prefixed so that ("ab","c") and ("a","bc") differ:
 * the keys and input hashes of a run, which hash every spec and every flow's document.
 */
export function hashParts(...parts: readonly string[]): string {
  const hash = createHash("sha512-256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}

/**
 * Opens the cache in `dir`, or a cache that remembers nothing when `dir` is undefined. `project`
 * is the project's folder: the machine's secret must lie outside it.
 *
 * @example
 * const cache = await openRenderCache("node_modules/.cache/flowgen", process.cwd());
 */
export async function openRenderCache(
  dir: string | undefined,
  project: string,
): Promise<RenderCache> {
  if (dir === undefined)
    return {
      empty: true,
      get: () => undefined,
      set: () => undefined,
      hashOf: () => undefined,
      save: () => Promise.resolve(),
    };
  // Without the machine's secret, a secret of this run's own: what it saves no later run can verify.
  const secret = (await readMachineSecret(project)) ?? randomBytes(32).toString("hex");
  // Missing, unreadable, damaged or not this machine's: start empty; the cache only ever saves time.
  const index = verifyIndex(await readRegularFile(path.join(dir, INDEX_FILE)), secret);
  const pack = index === undefined ? undefined : await readRegularBytes(path.join(dir, PACK_FILE));
  const previous: ReadonlyMap<string, PackEntry> =
    pack === undefined || index === undefined ? new Map() : index;
  await removeStaleTemporaries(dir);
  const used = new Map<string, string>();
  // Values as the pack holds them (bytes and hash), for those read from it and not set since.
  const packed = new Map<string, Packed>();
  let dirty = false;
  return {
    empty: previous.size === 0,
    get(key) {
      let value = used.get(key);
      if (value === undefined && pack !== undefined) {
        const found = unpack(pack, previous.get(key));
        if (found !== undefined) packed.set(key, found);
        value = found?.bytes.toString("utf8");
      }
      if (value !== undefined) used.set(key, value);
      return value;
    },
    set(key, content) {
      if (used.get(key) === content) return;
      used.set(key, content);
      packed.delete(key);
      dirty = true;
    },
    hashOf(key) {
      const value = used.get(key);
      if (value === undefined) return undefined;
      let found = packed.get(key);
      if (found === undefined) {
        const bytes = Buffer.from(value, "utf8");
        found = { bytes, hash: hashContent(bytes) };
        packed.set(key, found);
      }
      return found.hash;
    },
    async save() {
      if (!dirty && used.size === previous.size) return;
      await saveEntries(dir, used, packed, secret);
    },
  };
}

/** A value's UTF-8 bytes and their hash. */
interface Packed {
  readonly bytes: Buffer;
  readonly hash: string;
}

/** The bytes an index entry points to, when the pack still holds those exact bytes. */
function unpack(pack: Buffer, entry: PackEntry | undefined): Packed | undefined {
  if (entry === undefined) return undefined;
  const [offset, length, hash] = entry;
  if (offset + length > pack.length) return undefined;
  const bytes = pack.subarray(offset, offset + length);
  if (hashContent(bytes) !== hash) return undefined;
  return { bytes, hash };
}

/**
 * Writes the pack, then the index that points into it, each to a temporary file renamed into
 * place. A run that reads while another saves may pair an old index with a new pack: the hashes
 * then disagree, and those values are rendered again.
 */
async function saveEntries(
  dir: string,
  entries: ReadonlyMap<string, string>,
  packed: ReadonlyMap<string, Packed>,
  secret: string,
): Promise<void> {
  const chunks: Buffer[] = [];
  const index: Record<string, PackEntry> = {};
  let offset = 0;
  for (const [key, value] of entries) {
    // Values read from the pack (or hashed already) keep their bytes and hash.
    const known = packed.get(key);
    const bytes = known?.bytes ?? Buffer.from(value, "utf8");
    index[key] = [offset, bytes.length, known?.hash ?? hashContent(bytes)];
    chunks.push(bytes);
    offset += bytes.length;
  }
  // Unique per run: two runs in one process save at once without mixing their bytes.
  const suffix = `${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const temporaries = [`${PACK_FILE}.${suffix}`, `${INDEX_FILE}.${suffix}`].map((name) =>
    path.join(dir, name),
  );
  const [packTemporary = "", indexTemporary = ""] = temporaries;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(packTemporary, Buffer.concat(chunks), { flag: "wx" });
    await writeFile(indexTemporary, signIndex(index, secret), { flag: "wx" });
    await rename(packTemporary, path.join(dir, PACK_FILE));
    await rename(indexTemporary, path.join(dir, INDEX_FILE));
  } catch {
    // A read-only or full disk costs speed, not correctness.
    await Promise.all(temporaries.map((file) => rm(file, { force: true })));
  }
}

/**
 * A hash of flowgen's own code (the folder this module was loaded from) and package.json, so that
 * output cached by one build of flowgen is never served by another. Read once per process: the
 * code that renders is the code the process loaded, even when a rebuild changes the files later.
 */
export function codeFingerprint(): Promise<string> {
  // A failed read is not remembered: the next run reads again.
  loadedCode ??= hashCodeFolder().catch((error: unknown) => {
    loadedCode = undefined;
    throw error;
  });
  return loadedCode;
}

let loadedCode: Promise<string> | undefined;

async function hashCodeFolder(): Promise<string> {
  const codeDir = new URL("../", import.meta.url);
  const entries = await readdir(codeDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter(
      (entry) =>
        entry.isFile() && /\.(js|ts|json)$/.test(entry.name) && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const contents = await Promise.all(
    [...files, new URL("../../package.json", import.meta.url)].map((file) =>
      readFile(file, "utf8"),
    ),
  );
  return hashParts(...files.map((file) => path.relative(codeDir.pathname, file)), ...contents);
}

function signIndex(index: Record<string, PackEntry>, secret: string): string {
  const json = JSON.stringify(index);
  return `${FORMAT}\n${mac(json, secret)}\n${json}`;
}

/** The entries of an index this machine wrote; undefined for any other text. */
function verifyIndex(text: string | undefined, secret: string): Map<string, PackEntry> | undefined {
  if (text === undefined || !text.startsWith(`${FORMAT}\n`)) return undefined;
  const macEnd = text.indexOf("\n", FORMAT.length + 1);
  if (macEnd === -1) return undefined;
  const given = Buffer.from(text.slice(FORMAT.length + 1, macEnd), "hex");
  const json = text.slice(macEnd + 1);
  const expected = Buffer.from(mac(json, secret), "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return new Map(Object.entries(JSON.parse(json) as Record<string, PackEntry>));
  } catch {
    return undefined;
  }
}

function mac(text: string, secret: string): string {
  return createHmac("sha256", secret).update(text).digest("hex");
}

/** Removes `render-cache.{json,pack}.<pid>.<random>.tmp` files that runs which crashed while saving left behind. */
async function removeStaleTemporaries(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = /^render-cache\.(?:json|pack)\.(\d+)\.(?:[0-9a-f]+\.)?tmp$/.exec(name)?.[1];
    return pid !== undefined && Number(pid) > 0 && isStale(Number(pid));
  });
  await Promise.all(stale.map((name) => rm(path.join(dir, name), { force: true })));
}
