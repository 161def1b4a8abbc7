import { runCli, type CliRun } from "./run-cli.js";
import { tempProject } from "./temp-dir.js";

export const UUID = "0b7c6a5e-8a5f-4a1e-9e53-2f0c3d2b1a00";

/** Recorded calls of three flows shaped differently: flat with formats, nested and optional, unions and enums. */
export const LOOKUP = [
  {
    input: { userId: UUID },
    output: {
      id: UUID,
      email: "ada@example.com",
      joined: "2025-03-01T09:00:00Z",
      karma: 12,
      site: "https://ada.example",
    },
  },
  {
    input: { userId: "9f1c1f6e-2a8a-4a43-9a0b-1c2d3e4f5a6b", fields: ["email"] },
    output: {
      id: "9f1c1f6e-2a8a-4a43-9a0b-1c2d3e4f5a6b",
      email: "bob@example.com",
      joined: "2024-12-24T18:30:00Z",
      karma: 0.5,
    },
  },
];
export const FEED = {
  first: {
    input: { page: { size: 2 } },
    output: {
      posts: [
        { id: 1, title: "Hello", author: { name: "Ada", avatar: null }, tags: ["intro"] },
        {
          id: 2,
          title: "Again",
          author: { name: "Bob", avatar: "https://img.example/b.png" },
          tags: [],
        },
      ],
      next: "c2",
    },
  },
  last: {
    input: { page: { size: 2, cursor: "c2" } },
    output: {
      posts: [
        { id: 3, title: "Bye", author: { name: "Cy" }, tags: ["outro", "misc"], pinned: true },
      ],
      next: null,
    },
  },
};
export const EVENTS = [
  {
    name: "click",
    input: { kind: "click", at: "2026-01-31T10:00:00Z" },
    output: { status: "queued", result: "ok" },
  },
  {
    input: { kind: "view", at: "2026-01-31T10:01:00Z", meta: { "a/b": 1, constructor: "x" } },
    output: { status: "queued", result: { code: 3 } },
  },
  {
    input: { kind: "click", at: "2026-01-31T10:02:00Z" },
    output: { status: "done", result: "ok" },
  },
];

/**
 * A project whose three flows `flowgen new --from-sample` drafted from the calls above: a pair of
 * files each, a folder of recordings, JSON Lines (with --enums). Returns the folder and the runs.
 */
export async function draftRecordedFlows(): Promise<{ cwd: string; runs: CliRun[] }> {
  const cwd = await tempProject({
    "package.json": { name: "drafts", type: "module" },
    "samples/lookup-1.json": LOOKUP[0]?.input,
    "samples/lookup-1.out.json": LOOKUP[0]?.output,
    "samples/lookup-2.json": LOOKUP[1]?.input,
    "samples/lookup-2.out.json": LOOKUP[1]?.output,
    "recordings/first.input.json": FEED.first.input,
    "recordings/first.output.json": FEED.first.output,
    "recordings/last.input.json": FEED.last.input,
    "recordings/last.output.json": FEED.last.output,
    "events.jsonl": `${EVENTS.map((event) => JSON.stringify(event)).join("\n")}\n\n`,
  });
  const runs = [
    await runCli(
      cwd,
      "new",
      "@rec/lookup",
      "--from-sample",
      "samples/lookup-1.json",
      "--from-sample-output",
      "samples/lookup-1.out.json",
      "--from-sample",
      "samples/lookup-2.json",
      "--from-sample-output",
      "samples/lookup-2.out.json",
    ),
    await runCli(cwd, "new", "@rec/feed", "--from-sample", "recordings"),
    await runCli(cwd, "new", "@rec/events", "--from-sample", "events.jsonl", "--enums"),
  ];
  return { cwd, runs };
}
