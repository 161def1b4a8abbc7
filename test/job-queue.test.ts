import { describe, expect, it } from "vitest";
import { JobQueue, type Job } from "../src/job-queue.js";

const formatJob = (text: string): Job => ({ stage: "format", indexes: [0], texts: [text] });

describe("a drain of the job queue", () => {
  it("runs its idle work once, when no job is left for it while others may still add some", async () => {
    const queue = new JobQueue();
    const events: string[] = [];
    const producing = queue.producing();
    queue.push(formatJob("a"));
    const drained = queue.drain(
      (job) => {
        if (job.stage === "format") events.push(`job ${job.texts[0]}`);
        return Promise.resolve();
      },
      ["format"],
      () => {
        events.push("idle");
        // What comes after the idle work still runs on this drain.
        queue.push(formatJob("b"));
        producing.done();
      },
    );
    await drained;
    expect(events).toEqual(["job a", "idle", "job b"]);
  });

  it("runs its idle work before it ends, when nothing more can come", async () => {
    const queue = new JobQueue();
    const events: string[] = [];
    await queue.drain(
      () => Promise.resolve(),
      undefined,
      () => events.push("idle"),
    );
    expect(events).toEqual(["idle"]);
  });
});
