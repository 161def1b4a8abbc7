import { mkdir, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { formatIssue, sortIssues } from "../src/issues.js";
import { runCli } from "./helpers/run-cli.js";
import { tempProject, writeFiles } from "./helpers/temp-dir.js";

const qa = {
  input: { type: "object", properties: { question: { type: "string" } } },
  output: { type: "object" },
};

/** What a CI runner keeps outside the checkout: lines that must never reach a log. */
const SHADOW = [
  "root:$6$rootsalt$ROOTHASHVALUE:19000:0:99999:7:::",
  "daemon:*:19000:0:99999:7:::",
  "deploy:$6$deploysalt$DEPLOYHASHVALUE:19000:0:99999:7:::",
].join("\n");
const CREDENTIALS = {
  type: "service_account",
  private_key_id: "KEYIDVALUE",
  private_key: "-----BEGIN PRIVATE KEY-----PRIVATEKEYVALUE",
};
const SECRETS = ["rootsalt", "ROOTHASH", "daemon", "DEPLOY", "KEYIDVALUE", "PRIVATEKEYVALUE"];

async function project(files: Record<string, unknown> = {}): Promise<string> {
  return tempProject({
    "package.json": { name: "consumer", private: true },
    "specs/@acme/qa.json": qa,
    ...files,
  });
}

async function outside(): Promise<string> {
  return tempProject({ shadow: SHADOW, "credentials.json": CREDENTIALS, "@org/flow.json": qa });
}

async function problems(dir: string, ...args: string[]): Promise<{ code: number; text: string }> {
  const run = await runCli(dir, "generate", ...args);
  return { code: run.code, text: run.stdout + run.stderr };
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe("specs are read only from inside the project", () => {
  it("a spec symlinked to a file outside the project is refused, and its content never printed", async () => {
    const dir = await project();
    const away = await outside();
    await symlink(path.join(away, "shadow"), path.join(dir, "specs/@acme/leak.yaml"));
    await symlink(path.join(away, "credentials.json"), path.join(dir, "specs/@acme/creds.json"));
    const { code, text } = await problems(dir);
    expect(code).toBe(2);
    expectNoSecret(text);
    expect(text).toContain("specs/@acme/leak.yaml: symlink to");
    expect(text).toMatch(/specs\/@acme\/creds\.json: symlink to .*\[outside-project\]/);
    expect(text).toMatch(/specs\/@acme\/leak\.yaml: .*\[outside-project\]/);
  });

  it("refuses a linked org folder, shared file and specs folder that lead out, and --specs outside the project", async () => {
    const dir = await project();
    const away = await outside();
    await symlink(path.join(away, "@org"), path.join(dir, "specs/@org"), "dir");
    await mkdir(path.join(dir, "specs/_shared"));
    await symlink(path.join(away, "shadow"), path.join(dir, "specs/_shared/s.yaml"));
    const linked = await generate({ cwd: dir, config: false });
    expect(
      linked.ok ? [] : sortIssues(linked.issues).map((issue) => [issue.file, issue.code]),
    ).toEqual([
      ["specs/@org", "outside-project"],
      ["specs/_shared/s.yaml", "outside-project"],
    ]);

    await symlink(away, path.join(dir, "other-specs"), "dir");
    const folder = await generate({ cwd: dir, config: false, specs: "other-specs" });
    expect(folder.ok ? [] : folder.issues.map((issue) => [issue.file, issue.code])).toEqual([
      ["other-specs", "outside-project"],
    ]);
    // `..` steps leave the project as surely as a link does.
    const dots = await generate({
      cwd: dir,
      config: false,
      specs: `specs/../../${path.basename(away)}`,
    });
    expect(dots.ok ? [] : dots.issues.map((issue) => issue.code)).toEqual(["outside-project"]);
    expectNoSecret(JSON.stringify([linked, folder, dots]));
  });

  it("a config file linked out of the project is refused without loading it", async () => {
    const dir = await project();
    const away = await outside();
    await symlink(path.join(away, "credentials.json"), path.join(dir, "flowgen.config.json"));
    const { code, text } = await problems(dir);
    expect(code).toBe(2);
    expect(text).toContain("[outside-project] flowgen-cli/docs/errors.md#outside-project");
    expectNoSecret(text);

    // Inside the project, a JSON file in the config's place is quoted only when it is shaped like one.
    await rm(path.join(dir, "flowgen.config.json"));
    await writeFiles(dir, { "flowgen.config.json": CREDENTIALS });
    const copied = await problems(dir);
    expect(copied.text).toContain("flowgen.config.json: is not a flowgen config");
    await writeFiles(dir, { "flowgen.config.json": `${SHADOW}\n` });
    const broken = await problems(dir);
    expect(broken.text).toContain("flowgen.config.json: cannot be loaded: invalid JSON at line 1");
    expectNoSecret(copied.text + broken.text);
  });
});

describe("a file that is not a flow spec: nothing of it is printed beyond its first key", () => {
  it("a secret file inside the project, in a spec's place, gets one line without its content; a spec with a typo still gets the details", async () => {
    const dir = await project({
      "specs/@acme/leak.yaml": SHADOW,
      "specs/@acme/creds.json": CREDENTIALS,
      "specs/_shared/creds.json": CREDENTIALS,
      "specs/@acme/env.yaml": "DEPLOY_TOKEN: !vault PRIVATEKEYVALUE\nOTHER: [KEYIDVALUE\n",
      // A spec with typos is still a spec: its problems say which key it meant.
      "specs/@acme/typo.json": { ouput: {}, input: {} },
      // So is one with a key of its own beside input and output: the key is named, not skipped.
      "specs/@acme/titled.json": {
        title: "Q&A",
        input: { type: "object" },
        output: { type: "object" },
      },
    });
    const result = await generate({ cwd: dir, config: false });
    const lines = result.ok ? [] : sortIssues(result.issues).map(formatIssue);
    expectNoSecret(lines.join("\n"));
    expect(lines).toMatchInlineSnapshot(`
      [
        "specs/@acme/creds.json: is not a flow spec: a flow spec is a JSON object whose keys are $schema, id, summary, description, deprecated, input, output, examples; flowgen shows nothing of a file that is not one. Move the file out of the specs folder, or, if it is a spec, keep to those keys [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
        "specs/@acme/env.yaml:3:1: invalid YAML: bad indentation; fix the syntax [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
        "specs/@acme/leak.yaml: is not a flow spec: a flow spec is a JSON object whose keys are $schema, id, summary, description, deprecated, input, output, examples; flowgen shows nothing of a file that is not one. Move the file out of the specs folder, or, if it is a spec, keep to those keys [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
        "specs/@acme/titled.json:2:3 #/title: unknown key "title"; allowed keys: $schema, id, summary, description, deprecated, input, output, examples [unknown-key] flowgen-cli/docs/errors.md#unknown-key",
        "specs/@acme/typo.json:1:1: missing required key "output"; add it [missing-key] flowgen-cli/docs/errors.md#missing-key",
        "specs/@acme/typo.json:2:3 #/ouput: unknown key "ouput" (did you mean "output"?); allowed keys: $schema, id, summary, description, deprecated, input, output, examples [unknown-key] flowgen-cli/docs/errors.md#unknown-key",
        "specs/@acme/typo.json:3:3 #/input: the input schema must describe a JSON object; add "type": "object" at its root (put other values inside a property) [not-an-object-schema] flowgen-cli/docs/errors.md#not-an-object-schema",
        "specs/_shared/creds.json: is not a JSON Schema: a shared schema is true, false, or a JSON object whose keys are JSON Schema keywords (such as "type" or "$defs") or start with "x-"; flowgen shows nothing of a file that is not one. Move the file out of the specs folder, or, if it is a schema, keep to those keys [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
      ]
    `);
  });
});
