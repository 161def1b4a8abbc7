import { createHash } from "node:crypto";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyring, devKey, KeysError, loadKeys, type KeyEntry } from "../src/serve/keys.js";

/** The KeysError a call throws; fails the test when it does not throw one. */
async function keysError(run: () => unknown): Promise<KeysError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(KeysError);
    return error as KeysError;
  }
  throw new Error("expected a KeysError, but nothing was thrown");
}

function shortHash(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

describe("loadKeys from FLOWGEN_SERVE_KEYS", () => {
  it.each<[string, { given: string; want: KeyEntry[] }]>([
    [
      "one key",
      {
        given: "alpha-key",
        want: [{ key: "alpha-key", orgs: undefined, name: `key-${shortHash("alpha-key")}` }],
      },
    ],
    [
      "keys with orgs, spaces around entries and empty entries",
      {
        given: " k1:@acme+@globex , ,k2,\n k3:@3m ,",
        want: [
          { key: "k1", orgs: ["@acme", "@globex"], name: `key-${shortHash("k1")}` },
          { key: "k2", orgs: undefined, name: `key-${shortHash("k2")}` },
          { key: "k3", orgs: ["@3m"], name: `key-${shortHash("k3")}` },
        ],
      },
    ],
    ["an empty value", { given: "", want: [] }],
    ["only separators", { given: " , ,, ", want: [] }],
    [
      "punctuation in keys",
      {
        given: "a!#$%&'()*+-./;<=>?@[\\]^_`{|}~z",
        want: [
          {
            key: "a!#$%&'()*+-./;<=>?@[\\]^_`{|}~z",
            orgs: undefined,
            name: `key-${shortHash("a!#$%&'()*+-./;<=>?@[\\]^_`{|}~z")}`,
          },
        ],
      },
    ],
  ])("%s", async (_, { given, want }) => {
    expect(await loadKeys({ env: given, cwd: os.tmpdir() })).toEqual(want);
  });

  it("names each bad entry by position and says what to do", async () => {
    const error = await keysError(() =>
      loadKeys({
        env: "ok-key, :@acme,sec ret1,secr3t:,s3cret:acme+@Globex+@-x+,tab\tkey,ünïcode",
        cwd: os.tmpdir(),
      }),
    );
    expect(error.message).toMatchInlineSnapshot(`
      "FLOWGEN_SERVE_KEYS entry 2: no key before the colon; write key or key:@org1+@org2, entries separated by commas
      FLOWGEN_SERVE_KEYS entry 3: the key has a space or other whitespace in it; separate entries with commas, and keys here are printable ASCII without spaces, commas or colons
      FLOWGEN_SERVE_KEYS entry 4: nothing after the colon; list orgs as key:@acme+@globex, or drop the colon to allow every org
      FLOWGEN_SERVE_KEYS entry 5, org 1: the org lacks its leading "@"; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      FLOWGEN_SERVE_KEYS entry 5, org 2: the org has capital letters; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      FLOWGEN_SERVE_KEYS entry 5, org 3: not an org name; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      FLOWGEN_SERVE_KEYS entry 5, org 4: the org is empty; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      FLOWGEN_SERVE_KEYS entry 6: the key has a space or other whitespace in it; separate entries with commas, and keys here are printable ASCII without spaces, commas or colons
      FLOWGEN_SERVE_KEYS entry 7: the key has a character keys cannot have; keys here are printable ASCII without spaces, commas or colons (a keys file allows commas and colons)"
    `);
    expect(error.problems).toHaveLength(9);
    for (const secret of ["ok-key", "sec ret1", "secr3t", "s3cret", "tab\tkey", "ünïcode"])
      expect(error.message).not.toContain(secret);
  });

  it("rejects a key given twice, naming both entries", async () => {
    const error = await keysError(() =>
      loadKeys({ env: "dup-key,other,dup-key:@acme", cwd: os.tmpdir() }),
    );
    expect(error.message).toBe(
      "FLOWGEN_SERVE_KEYS entry 3: the same key as FLOWGEN_SERVE_KEYS entry 1; keep one of them",
    );
    expect(error.message).not.toContain("dup-key");
  });

  it("returns nothing when neither env nor file is given", async () => {
    expect(await loadKeys({ cwd: os.tmpdir() })).toEqual([]);
  });
});

describe("loadKeys from a keys file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "flowgen-keys-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function keysFile(name: string, content: unknown): Promise<string> {
    await writeFile(
      path.join(dir, name),
      typeof content === "string" ? content : JSON.stringify(content, null, 2),
    );
    return name;
  }

  it("reads keys, orgs and names, and combines them with env keys", async () => {
    const file = await keysFile("good.json", {
      keys: [{ key: "file-key-1", orgs: ["@acme"], name: "ci" }, { key: "file-key-2" }],
    });
    expect(await loadKeys({ env: "env-key:@globex", file, cwd: dir })).toEqual([
      { key: "env-key", orgs: ["@globex"], name: `key-${shortHash("env-key")}` },
      { key: "file-key-1", orgs: ["@acme"], name: "ci" },
      { key: "file-key-2", orgs: undefined, name: `key-${shortHash("file-key-2")}` },
    ]);
  });

  it("resolves the file against cwd", async () => {
    await mkdir(path.join(dir, "conf"), { recursive: true });
    await keysFile("conf/keys.json", { keys: [{ key: "nested" }] });
    expect(await loadKeys({ file: "conf/keys.json", cwd: dir })).toHaveLength(1);
  });

  it.each([
    [
      "a missing file",
      "absent.json",
      undefined,
      "absent.json: no such keys file; check the path (it is relative to the working directory)",
    ],
    ["a folder", "conf", undefined, "conf: is a folder; pass the keys file itself"],
    [
      "invalid JSON",
      "syntax.json",
      '{\n  "keys": [{ "key": "hunter2-secret", }]\n}',
      "syntax.json:2:39: invalid JSON: expected a property name in double quotes; fix the syntax (a JSON linter or editor shows it too)",
    ],
    [
      "not an object",
      "array.json",
      "[]",
      'array.json:1:1: the keys file must hold a JSON object; write { "keys": [{ "key": "...", "orgs": ["@acme"], "name": "ci" }] } (orgs and name optional)',
    ],
    [
      "no keys property",
      "nokeys.json",
      { key: [] },
      'nokeys.json:2:3: an unknown property (its name is not shown: it could be a misplaced key); the file has only "keys"\nnokeys.json:1:1: no "keys" array; write { "keys": [{ "key": "...", "orgs": ["@acme"], "name": "ci" }] } (orgs and name optional)',
    ],
    [
      "keys not an array",
      "obj.json",
      { keys: { key: "x" } },
      'obj.json:2:3 #/keys: "keys" must be an array; write { "keys": [{ "key": "...", "orgs": ["@acme"], "name": "ci" }] } (orgs and name optional)',
    ],
    [
      "an empty keys array",
      "empty.json",
      { keys: [] },
      "empty.json:2:3 #/keys: no keys listed; add one, or do not pass a keys file to get a dev key",
    ],
  ])("reports %s", async (_, name, content, want) => {
    await mkdir(path.join(dir, "conf"), { recursive: true });
    const file = content === undefined ? name : await keysFile(name, content);
    const error = await keysError(() => loadKeys({ file, cwd: dir }));
    expect(error.message).toBe(want);
    expect(error.message).not.toContain("hunter2");
  });

  it("points at every bad entry, property and org", async () => {
    const file = await keysFile("shapes.json", {
      keys: [
        "bare-string-key",
        { orgs: ["@acme"] },
        { key: 42 },
        { key: "has space-secret" },
        { key: "fine-secret-1", org: ["@acme"] },
        { key: "fine-secret-2", orgs: "@acme" },
        { key: "fine-secret-3", orgs: [] },
        { key: "fine-secret-4", orgs: ["@acme", "Acme", 7, "acme-secret"] },
        { key: "fine-secret-5", name: "" },
        { key: "fine-secret-6", name: 3 },
      ],
    });
    const error = await keysError(() => loadKeys({ file, cwd: dir }));
    expect(error.message).toMatchInlineSnapshot(`
      "shapes.json:3:5 #/keys/0: a key entry must be an object like { "key": "...", "orgs": ["@acme"], "name": "ci" }
      shapes.json:4:5 #/keys/1: no "key"; add the API key as a string
      shapes.json:10:7 #/keys/2/key: "key" must be a string
      shapes.json:13:7 #/keys/3/key: the key has a space or other whitespace in it; keys are printable ASCII without spaces
      shapes.json:17:7 #/keys/4: an unknown property (its name is not shown: it could be a misplaced key); a key entry has only "key", "orgs" and "name"
      shapes.json:23:7 #/keys/5/orgs: "orgs" must be an array of org names such as ["@acme"], or left out to allow every org
      shapes.json:27:7 #/keys/6/orgs: "orgs" is empty, so the key could call nothing; list orgs such as ["@acme"], or leave "orgs" out to allow every org
      shapes.json:33:9 #/keys/7/orgs/1: the org lacks its leading "@" and has capital letters; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      shapes.json:34:9 #/keys/7/orgs/2: an org must be a string; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      shapes.json:35:9 #/keys/7/orgs/3: the org lacks its leading "@"; orgs look like @acme: "@", then lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters
      shapes.json:40:7 #/keys/8/name: "name" must be a label of 1 to 64 printable ASCII characters, without spaces at either end, such as "ci"
      shapes.json:44:7 #/keys/9/name: "name" must be a label of 1 to 64 printable ASCII characters, without spaces at either end, such as "ci""
    `);
    expect(error.message).not.toMatch(/secret/);
  });

  it("never shows a property name, which may be a key put in the wrong place", async () => {
    const file = await keysFile("misplaced.json", {
      keys: [{ key: "otherKey-2222", "otherKey-2222": 1 }],
      sk_live_misplaced: [],
    });
    const error = await keysError(() => loadKeys({ file, cwd: dir }));
    expect(error.problems).toEqual([
      'misplaced.json:8:3: an unknown property (its name is not shown: it could be a misplaced key); the file has only "keys"',
      'misplaced.json:5:7 #/keys/0: an unknown property (its name is not shown: it could be a misplaced key); a key entry has only "key", "orgs" and "name"',
    ]);
    expect(error.message.toLowerCase()).not.toMatch(/otherkey|sk_live/);
  });

  it("rejects duplicate keys and names within the file and across env and file", async () => {
    const file = await keysFile("dups.json", {
      keys: [
        { key: "shared-secret", name: "ci" },
        { key: "file-secret", name: "ci" },
        { key: "file-secret" },
        { key: "other-secret", name: "env-secret" },
      ],
    });
    const error = await keysError(() =>
      loadKeys({ env: "env-secret,shared-secret", file, cwd: dir }),
    );
    expect(error.message).toMatchInlineSnapshot(`
      "dups.json:4:7 #/keys/0/key: the same key as FLOWGEN_SERVE_KEYS entry 2; keep one of them
      dups.json:12:7 #/keys/2/key: the same key as dups.json:8:7 #/keys/1/key; keep one of them
      dups.json:9:7 #/keys/1/name: the same name as dups.json:5:7 #/keys/0/name; give each key its own name (names label log lines and rate limits)
      dups.json:16:7 #/keys/3/name: the name is an API key; names show in logs, so pick a label such as "ci""
    `);
    expect(error.message).not.toMatch(/secret/);
  });
});

describe("createKeyring", () => {
  const keyring = createKeyring([
    { key: "acme-only-key", orgs: ["@acme"], name: "acme-ci" },
    { key: "every-org-key" },
    { key: "two-orgs-key", orgs: ["@acme", "@globex"], name: "both" },
  ]);

  it("counts its keys", () => {
    expect(keyring.size).toBe(3);
    expect(createKeyring([]).size).toBe(0);
  });

  it.each([
    ["no header", undefined, { ok: false, reason: "missing" }],
    ["an empty header", "", { ok: false, reason: "missing" }],
    ["a blank header", "  \t ", { ok: false, reason: "missing" }],
    ["another scheme", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", { ok: false, reason: "malformed" }],
    ["a bare key", "acme-only-key", { ok: false, reason: "malformed" }],
    ["Bearer without a token", "Bearer", { ok: false, reason: "malformed" }],
    ["Bearer and a space", "Bearer ", { ok: false, reason: "malformed" }],
    ["a token with a space", "Bearer acme-only-key extra", { ok: false, reason: "malformed" }],
    [
      "a token with a control character",
      "Bearer acme-only\u0001key",
      { ok: false, reason: "malformed" },
    ],
    ["a tab as separator", "Bearer\tacme-only-key", { ok: false, reason: "malformed" }],
    [
      "a scheme that starts like Bearer",
      "Bearerish acme-only-key",
      { ok: false, reason: "malformed" },
    ],
    ["an unknown key", "Bearer not-a-key", { ok: false, reason: "unknown" }],
    ["a prefix of a key", "Bearer acme-only", { ok: false, reason: "unknown" }],
    ["a key in other case", "Bearer ACME-ONLY-KEY", { ok: false, reason: "unknown" }],
    ["a valid key", "Bearer acme-only-key", { ok: true, name: "acme-ci", orgs: ["@acme"] }],
    ["lowercase bearer", "bearer acme-only-key", { ok: true, name: "acme-ci", orgs: ["@acme"] }],
    [
      "uppercase BEARER and several spaces",
      "BEARER   two-orgs-key",
      { ok: true, name: "both", orgs: ["@acme", "@globex"] },
    ],
    [
      "spaces around the value",
      "  Bearer every-org-key  ",
      { ok: true, name: `key-${shortHash("every-org-key")}`, orgs: undefined },
    ],
    [
      "a run of 64 K inner spaces before an unknown key",
      `Bearer${" ".repeat(65_536)}x`,
      { ok: false, reason: "unknown" },
    ],
    [
      "a run of 64 K inner spaces inside a token",
      `Bearer every-org-key${" ".repeat(65_536)}x`,
      { ok: false, reason: "malformed" },
    ],
    ["a 64 K token", `Bearer ${"k".repeat(65_536)}`, { ok: false, reason: "unknown" }],
  ])("authenticate: %s", (_, header, want) => {
    expect(keyring.authenticate(header)).toEqual(want);
  });

  it.each([
    ["the key itself", "every-org-key", true],
    ["the key inside other text", "/v1/@acme/every-org-key/x", true],
    ["the key in capitals", "EVERY-ORG-KEY", true],
    ["the key percent-encoded", "%65very%2Dorg%2dkey", true],
    ["the key percent-encoded twice", "%2565very-org-key", true],
    ["a prefix of a key", "every-org-ke", false],
    ["no key", "req_0123456789abcdef", false],
    ["a broken escape", "every-org-%zzkey%", false],
  ])("mentionsKey: %s", (_, text, want) => {
    expect(keyring.mentionsKey(text)).toBe(want);
  });

  const slashed = "sl/ash~Key0123xyz";
  const base64 = (text: string) => Buffer.from(text, "latin1").toString("base64");
  const percentEach = (text: string) =>
    [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
  it.each([
    ["in a JSON pointer", `/${slashed.replaceAll("~", "~0").replaceAll("/", "~1")}`, true],
    [
      "in a JSON pointer in JSON text",
      JSON.stringify({ pointer: `/x/${slashed.replaceAll("~", "~0").replaceAll("/", "~1")}` }),
      true,
    ],
    ["in base64", base64(slashed), true],
    ["in base64 after a user name (a Basic header)", base64(`user:${slashed}`), true],
    [
      "in base64 after two bytes, URL-safe",
      base64(`ab${slashed}`).replaceAll("+", "-").replaceAll("/", "_"),
      true,
    ],
    ["in base64, capitals and lower case swapped", base64(`a${slashed}`).toUpperCase(), true],
    [
      "percent-encoded four times",
      [1, 2, 3, 4].reduce((text) => encodeURIComponent(text), slashed),
      true,
    ],
    ["each byte percent-encoded, then each byte of that", percentEach(percentEach(slashed)), true],
    ["the base64 of other text", base64("sl/ash~Key0123xy_"), false],
    ["a pointer to a shorter name", "/sl~1ash~0Key0123xy", false],
  ])("mentionsKey finds a key %s", (_, text, want) => {
    expect(createKeyring([{ key: slashed }]).mentionsKey(text)).toBe(want);
  });

  it("mentionsKey decodes escapes of escapes in one pass over the text", () => {
    // 200,000 levels of "%25": decoded round after round, each round would read the whole text again.
    const nested = `${"%".repeat(1)}${"25".repeat(200_000)}41`;
    expect(createKeyring([{ key: "A-key-of-mine" }]).mentionsKey(`${nested}-key-of-mine`)).toBe(
      true,
    );
  });

  it("mentionsKey finds a key with quotes and backslashes in JSON text", () => {
    const ring = createKeyring([{ key: 'k"ey\\x' }]);
    expect(ring.mentionsKey(JSON.stringify({ message: 'at "/v1/k"ey\\x"' }))).toBe(true);
    expect(createKeyring([]).mentionsKey("anything")).toBe(false);
  });

  it("never returns the key", () => {
    const result = keyring.authenticate("Bearer every-org-key");
    expect(JSON.stringify(result)).not.toContain("every-org-key");
  });

  it.each([
    ["Bearer acme-only-key", "@acme", true],
    ["Bearer acme-only-key", "@globex", false],
    ["Bearer acme-only-key", "@acme-corp", false],
    ["Bearer two-orgs-key", "@globex", true],
    ["Bearer two-orgs-key", "@initech", false],
    ["Bearer every-org-key", "@initech", true],
  ])("allows: %s for %s is %s", (header, org, want) => {
    const auth = keyring.authenticate(header);
    if (!auth.ok) throw new Error(`${header} did not authenticate`);
    expect(keyring.allows(auth, org)).toBe(want);
  });

  it("keeps its own copy of the orgs", () => {
    const orgs = ["@acme"];
    const ring = createKeyring([{ key: "k", orgs }]);
    orgs.push("@globex");
    const auth = ring.authenticate("Bearer k");
    expect(auth.ok && ring.allows(auth, "@globex")).toBe(false);
  });

  it("rejects keys that could never be sent, and repeated keys or names, without showing them", () => {
    let caught: unknown;
    try {
      createKeyring([
        { key: "dup-secret" },
        { key: "dup-secret" },
        { key: "sp ace-secret", name: "a" },
        { key: "x-secret", name: "a" },
        { key: "y-secret", name: " padded" },
      ]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(KeysError);
    expect((caught as KeysError).message).toMatchInlineSnapshot(`
      "key 3: the key has a space or other whitespace in it; keys are printable ASCII without spaces
      key 5: "name" must be a label of 1 to 64 printable ASCII characters, without spaces at either end, such as "ci"
      key 2: the same key as key 1; keep one of them
      key 4: the same name as key 3; give each key its own name"
    `);
    expect((caught as KeysError).message).not.toMatch(/secret/);
  });
});

describe("devKey", () => {
  it("is fg_dev_ and 32 hex characters, different each time, and authenticates", () => {
    const keys = Array.from({ length: 50 }, () => devKey());
    for (const key of keys) expect(key).toMatch(/^fg_dev_[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(keys.length);
    const first = keys[0] ?? "";
    const ring = createKeyring([{ key: first, name: "dev" }]);
    expect(ring.authenticate(`Bearer ${first}`)).toEqual({
      ok: true,
      name: "dev",
      orgs: undefined,
    });
  });
});
