import { existsSync } from "node:fs";
import { readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { createFormatCheckers, inferSchema } from "../src/draft/infer-schema.js";
import { createAjv } from "../src/spec/ajv.js";
import { runCli } from "./helpers/run-cli.js";
import { tempProject } from "./helpers/temp-dir.js";
import { draftRecordedFlows, EVENTS, FEED, LOOKUP, UUID } from "./helpers/drafted-flows.js";

describe("inferSchema", () => {
  const formats = createFormatCheckers();
  const cases: [string, { given: unknown[]; enums?: boolean; want: unknown }][] = [
    [
      "types unioned across samples, required = present in every sample",
      {
        given: [
          { a: 1, b: "x", c: null },
          { a: 1.5, c: "y" },
        ],
        want: {
          type: "object",
          properties: {
            a: { type: "number" },
            b: { type: "string" },
            c: { type: ["null", "string"] },
          },
          required: ["a", "c"],
        },
      },
    ],
    [
      "formats when every string has one; a colon alone makes no URI",
      {
        given: [
          {
            id: UUID,
            at: "2026-01-31T10:00:00Z",
            mail: "a@example.com",
            url: "https://x.example/a",
            urn: "urn:isbn:1",
          },
        ],
        want: {
          type: "object",
          properties: {
            id: { type: "string", format: "uuid" },
            at: { type: "string", format: "date-time" },
            mail: { type: "string", format: "email" },
            url: { type: "string", format: "uri" },
            urn: { type: "string" },
          },
          required: ["id", "at", "mail", "url", "urn"],
        },
      },
    ],
    [
      "no format when one string lacks it",
      {
        given: [{ at: "2026-01-31T10:00:00Z" }, { at: "yesterday" }],
        want: { type: "object", properties: { at: { type: "string" } }, required: ["at"] },
      },
    ],
    [
      "enums only when asked, only for repeated values",
      {
        given: [
          { s: "open", id: "a" },
          { s: "paid", id: "b" },
          { s: "open", id: "c" },
        ],
        enums: true,
        want: {
          type: "object",
          properties: { s: { type: "string", enum: ["open", "paid"] }, id: { type: "string" } },
          required: ["s", "id"],
        },
      },
    ],
    [
      "no enums unless asked",
      {
        given: [{ s: "open" }, { s: "open" }],
        want: { type: "object", properties: { s: { type: "string" } }, required: ["s"] },
      },
    ],
    [
      "arrays of objects merged, kinds mixed into anyOf, names Object has of its own",
      {
        given: [
          { items: [{ k: 1 }, { k: 2, note: "x" }], v: "s", constructor: 1 },
          { items: [], v: { n: 1 }, constructor: 2.5, toString: true },
        ],
        want: {
          type: "object",
          properties: {
            items: {
              type: "array",
              items: {
                type: "object",
                properties: { k: { type: "integer" }, note: { type: "string" } },
                required: ["k"],
              },
            },
            v: {
              anyOf: [
                { type: "string" },
                { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
              ],
            },
            constructor: { type: "number" },
            toString: { type: "boolean" },
          },
          required: ["items", "v", "constructor"],
        },
      },
    ],
  ];
  it.each(cases)("%s", (_name, { given, enums, want }) => {
    expect(inferSchema(given, { enums: enums ?? false }, formats)).toEqual(want);
  });
});

describe("flowgen new --from-sample", () => {
  it("drafts specs from file pairs, a folder and JSON Lines that generate and accept every sample", async () => {
    const { cwd, runs } = await draftRecordedFlows();
    expect(runs.map((run) => [run.code, run.stderr])).toEqual([
      [0, ""],
      [0, ""],
      [0, ""],
    ]);
    expect(runs[1]?.stdout).toBe(
      "flowgen: wrote specs/@rec/feed.json, drafted from 2 recorded calls; review its schemas and describe them, then run flowgen generate.\n",
    );

    const read = async (flow: string) =>
      JSON.parse(await readFile(path.join(cwd, `specs/@rec/${flow}.json`), "utf8")) as Record<
        string,
        unknown
      >;
    const drafts = {
      lookup: await read("lookup"),
      feed: await read("feed"),
      events: await read("events"),
    };
    const samples = {
      lookup: LOOKUP,
      feed: [FEED.first, FEED.last],
      events: EVENTS,
    };
    const ajv = createAjv();
    for (const [flow, spec] of Object.entries(drafts)) {
      const checkInput = ajv.compile(spec.input as object);
      const checkOutput = ajv.compile(spec.output as object);
      for (const sample of samples[flow as keyof typeof samples]) {
        expect(checkInput(sample.input), `${flow} input ${JSON.stringify(checkInput.errors)}`).toBe(
          true,
        );
        expect(
          checkOutput(sample.output),
          `${flow} output ${JSON.stringify(checkOutput.errors)}`,
        ).toBe(true);
      }
      expect((spec.examples as unknown[]).length).toBe(
        samples[flow as keyof typeof samples].length,
      );
    }
    expect(drafts.lookup.output).toMatchObject({
      properties: {
        id: { type: "string", format: "uuid" },
        email: { format: "email" },
        joined: { format: "date-time" },
        karma: { type: "number" },
        site: { format: "uri" },
      },
      required: ["id", "email", "joined", "karma"],
    });
    expect(drafts.events.output).toMatchObject({
      properties: { status: { enum: ["done", "queued"] } },
    });
    expect((drafts.events.examples as { name: string }[]).map((example) => example.name)).toEqual([
      "click",
      "line 2",
      "line 3",
    ]);

    const generated = await generate({ cwd, config: false });
    expect(generated.ok && generated.flowCount).toBe(3);
  });

  it("lists every problem with the samples at once and writes nothing (exit 2)", async () => {
    const cwd = await tempProject({
      "package.json": { name: "drafts" },
      "in.json": "[1, 2]",
      "out.json": '{ "answer": "x", "__proto__": { "polluted": true } }',
      "broken.json": '{ "a": ',
      "rec/one.input.json": { a: 1 },
      "rec/two.output.json": { b: 1 },
      "rec/notes.txt": "hello",
      "bad.jsonl": '{ "input": {}, "output": {} }\n{ "input": [] }\nnot json\n',
    });
    await symlink("/etc/hostname", path.join(cwd, "rec/leak.input.json"));
    const pairs = await runCli(
      cwd,
      "new",
      "@rec/a",
      "--from-sample",
      "in.json",
      "--from-sample-output",
      "out.json",
      "--from-sample",
      "broken.json",
      "--from-sample-output",
      "missing.json",
    );
    expect(pairs.code).toBe(2);
    expect(pairs.stderr).toBe(
      [
        "broken.json:1:8: invalid JSON: expected a value; fix the syntax (a JSON linter or editor shows it too) [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "in.json: is not a JSON object; a flow's input and output are objects ({ … }) [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "missing.json: not found; check the path [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        'out.json:1:18 #/__proto__: a property named "__proto__" cannot be drafted (JavaScript gives that name a meaning of its own); rename it in the sample [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample',
        "flowgen new: 4 problems; nothing was written.",
        "",
      ].join("\n"),
    );
    const folder = await runCli(cwd, "new", "@rec/b", "--from-sample", "rec");
    expect(folder.stderr).toBe(
      [
        "rec/leak.input.json: is a link leading out of the project (or nowhere); copy the recording into the folder instead [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "rec/notes.txt: is not half of a recording; name recordings <name>.input.json and <name>.output.json [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "rec/one.input.json: has no output to pair with; add one.output.json beside it, or remove it [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "rec/two.output.json: has no input to pair with; add two.input.json beside it, or remove it [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "flowgen new: 4 problems; nothing was written.",
        "",
      ].join("\n"),
    );
    const lines = await runCli(cwd, "new", "@rec/c", "--from-sample", "bad.jsonl");
    expect(lines.stderr).toContain(
      'bad.jsonl:2:1: must be { "input": { … }, "output": { … } } with an optional "name" string, and nothing else [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample',
    );
    expect(lines.stderr).toContain("bad.jsonl:3:");
    await symlink("/etc/hostname", path.join(cwd, "linked.json"));
    const linked = await runCli(
      cwd,
      "new",
      "@rec/e",
      "--from-sample",
      "linked.json",
      "--from-sample-output",
      "in.json",
    );
    expect(linked.stderr).toContain(
      "linked.json: leads out of the project through a link; name the file where it is, or copy it into the project [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
    );
    const unpaired = await runCli(cwd, "new", "@rec/d", "--from-sample-output", "out.json");
    expect(unpaired.stderr).toContain("0 input samples and 1 output sample do not pair up");
    const missing = await runCli(cwd, "new", "@rec/f", "--from-sample", "nosuchdir");
    expect(missing.stderr).toBe(
      [
        "nosuchdir: not found; check the path (a sample file with its --from-sample-output, a folder of recordings, or a .jsonl file) [invalid-sample] flowgen-cli/docs/errors.md#invalid-sample",
        "flowgen new: 1 problem; nothing was written.",
        "",
      ].join("\n"),
    );
    expect(existsSync(path.join(cwd, "specs"))).toBe(false);
  });
});
