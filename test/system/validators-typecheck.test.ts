import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/temp-dir.js";
import { typecheck } from "../helpers/typecheck.js";
import { generateWithValidators } from "../helpers/validators-project.js";

describe("clients generated with --validators", () => {
  let root: string;
  let generated: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "flowgen-validators-"));
    generated = await generateWithValidators(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("type-check under NodeNext, Bundler and isolatedDeclarations", async () => {
    const consumer = `
import { createQaClient } from "./gen/@acme/qa.js";
const qa = createQaClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1", validate: "warn" });
export const answer = async (): Promise<string> => (await qa.run({ question: "Why?" })).answer;
`;
    for (const resolution of ["NodeNext", "Bundler", "isolated-declarations"] as const) {
      const dir = await tempProject({});
      expect(await typecheck(dir, generated, consumer, resolution)).toBe("");
    }
  }, 60_000);
});
