import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { resolveGenerateSettings } from "../config/resolve-settings.js";
import { schemaRef, specSkeleton, writeSpecFile } from "../scaffold/spec-skeleton.js";
import { NAME_PATTERN, NAME_RULE } from "../spec/read-spec-files.js";
import { withCode } from "../issues.js";
import { EXIT, reportIssues, type Command } from "./command.js";

/** `flowgen new @org/name`: a spec file to fill in. */
export const newCommand: Command = {
  usage: "new <flow>",
  describe:
    "Write a spec skeleton for a new flow: specs/@org/flow-name.json with input, output and an example to fill in",
  positionals: { flow: { type: "string", describe: "The flow's id: @org/flow-name" } },
  options: {
    specs: { type: "string", defaultDescription: "specs", describe: "Folder of flow specs" },
    "from-sample": {
      type: "string",
      describe:
        "Draft the schemas from recorded calls: an input sample (repeat, each with --from-sample-output), or one folder of <name>.input.json + <name>.output.json, or one .jsonl file of { input, output } lines",
    },
    "from-sample-output": {
      type: "string",
      describe: "The output sample answering the --from-sample at the same position",
    },
    enums: {
      type: "boolean",
      defaultDescription: "false",
      describe: "With --from-sample: draft an enum for strings whose values repeat",
    },
  },
  examples: [
    ["$0 new @acme/summarize", "Write specs/@acme/summarize.json"],
    [
      "$0 new @acme/summarize --from-sample in.json --from-sample-output out.json",
      "Draft its schemas from a recorded call",
    ],
  ],
  async run(args, { cwd, io }) {
    const flowId = String(args["flow"]);
    const match = /^@([^/]+)\/([^/]+)$/.exec(flowId);
    const bad =
      match === null
        ? ["the id"]
        : [
            NAME_PATTERN.test(match[1] ?? "") ? undefined : `org "${match[1]}"`,
            NAME_PATTERN.test(match[2] ?? "") ? undefined : `flow name "${match[2]}"`,
          ].filter((what) => what !== undefined);
    if (match === null || bad.length > 0) {
      io.err(
        withCode(
          `flowgen new: "${flowId}" is not a flow id: write @org/flow-name${match === null ? "" : `; ${bad.join(" and ")} breaks the rule`} (${NAME_RULE})`,
          "invalid-flow-name",
        ),
      );
      return EXIT.invalid;
    }
    const loaded = await loadConfig(cwd, args["config"] as string | undefined);
    if (!loaded.ok)
      return reportIssues(
        io,
        loaded.issues,
        (count) => `flowgen new: ${count}; nothing was written.`,
      );
    const resolved = resolveGenerateSettings(loaded, cwd, {
      specs: args["specs"] as string | undefined,
    });
    if (!resolved.ok)
      return reportIssues(
        io,
        resolved.issues,
        (count) => `flowgen new: ${count}; nothing was written.`,
      );
    const stem = path.resolve(cwd, resolved.settings.specs, `@${match[1]}`, match[2] ?? "");
    const existing = [".json", ".yaml", ".yml"]
      .map((ext) => `${stem}${ext}`)
      .find((file) => existsSync(file));
    const display = (file: string) => path.relative(cwd, file).split(path.sep).join("/");
    if (existing !== undefined) {
      io.err(
        withCode(
          `flowgen new: ${display(existing)} already exists; ${flowId} has a spec. Edit that file, or pick another name.`,
          "duplicate-flow",
        ),
      );
      return EXIT.invalid;
    }
    const file = `${stem}.json`;
    const inputs = [args["fromSample"] ?? []].flat().map(String);
    const outputs = [args["fromSampleOutput"] ?? []].flat().map(String);
    if (inputs.length > 0 || outputs.length > 0) {
      const { draftFromSamples } = await import("../draft/draft-spec.js");
      const relPath = path
        .relative(path.resolve(cwd, resolved.settings.specs), file)
        .split(path.sep)
        .join("/");
      const draft = await draftFromSamples(
        { cwd, flowId, schema: schemaRef(file, cwd), relPath, displayPath: display(file) },
        { inputs, outputs, enums: args["enums"] === true },
      );
      if (!draft.ok)
        return reportIssues(
          io,
          draft.issues,
          (count) => `flowgen new: ${count}; nothing was written.`,
        );
      await writeSpecFile(file, draft.text);
      io.out(
        `flowgen: wrote ${display(file)}, drafted from ${draft.count} recorded call${draft.count === 1 ? "" : "s"}; review its schemas and describe them, then run flowgen generate.`,
      );
      return EXIT.ok;
    }
    await writeSpecFile(file, specSkeleton({ flowId, schema: schemaRef(file, cwd) }));
    io.out(
      `flowgen: wrote ${display(file)}; fill in its input and output schemas and the example, then run flowgen generate.`,
    );
    return EXIT.ok;
  },
};
