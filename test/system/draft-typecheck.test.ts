import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../src/api/generate.js";
import { draftRecordedFlows, EVENTS, FEED, LOOKUP } from "../helpers/drafted-flows.js";
import { typecheck } from "../helpers/typecheck.js";

describe("flowgen new --from-sample, compiled", () => {
  it("drafts types that every recorded call type-checks against, and that refuse a value never seen", async () => {
    const { cwd } = await draftRecordedFlows();
    const generated = await generate({ cwd, config: false });
    expect(generated.ok && generated.flowCount).toBe(3);
    const consumer = `
import type { LookupInput, LookupOutput } from "./gen/@rec/lookup.js";
import type { FeedInput, FeedOutput } from "./gen/@rec/feed.js";
import type { EventsInput, EventsOutput } from "./gen/@rec/events.js";
export const lookup: [LookupInput, LookupOutput][] = ${JSON.stringify(LOOKUP.map((s) => [s.input, s.output]))};
export const feed: [FeedInput, FeedOutput][] = ${JSON.stringify([FEED.first, FEED.last].map((s) => [s.input, s.output]))};
export const events: [EventsInput, EventsOutput][] = ${JSON.stringify(EVENTS.map((s) => [s.input, s.output]))};
// @ts-expect-error status is one of the values seen
export const wrong: EventsOutput = { status: "lost", result: "ok" };
`;
    expect(
      await typecheck(path.join(cwd, "tc"), path.join(cwd, "generated"), consumer, "NodeNext"),
    ).toBe("");
  });
});
