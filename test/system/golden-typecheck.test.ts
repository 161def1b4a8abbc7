import path from "node:path";
import { describe, expect, it } from "vitest";
import { GOLDEN, goldenCases } from "../helpers/golden-cases.js";
import { tempProject } from "../helpers/temp-dir.js";
import { typecheck } from "../helpers/typecheck.js";

describe("golden output, compiled", async () => {
  const cases = await goldenCases();

  it.each(cases)(
    "%s: the expected tree type-checks under NodeNext and Bundler",
    async (name) => {
      for (const resolution of ["NodeNext", "Bundler"] as const) {
        const dir = await tempProject({});
        expect(
          await typecheck(dir, path.join(GOLDEN, name, "expected"), "export {};\n", resolution),
        ).toBe("");
      }
    },
    60_000,
  );

  it("edge-cases: an object with properties and additional properties of another type takes its spec's example, a free-form object any object, and a required name it does not describe is there", async () => {
    const consumer = `
import { createTallyClient } from "./gen/@acme/tally.js";
const tally = createTallyClient({ apiKey: "k_123456", baseUrl: "https://api.example.com" });
export const counted = tally.run({ label: "votes", yes: 3, no: 1 });
export const noted = tally.run({ label: "votes", note: "first count", yes: 3 });
// A free-form object ({ "type": "object" }) takes any object.
export const kept = tally.run({ label: "votes", context: { user: "a", at: 1 } });
export const total: number = (await counted).total;
// A required name the schema does not describe is there, of any value.
export const when: unknown = (await counted).counted;
// @ts-expect-error counted is required
export const partial: Awaited<typeof counted> = { total: 1 };
// @ts-expect-error the label is text
export const wrong = tally.run({ label: 3 });
`;
    const dir = await tempProject({});
    expect(
      await typecheck(dir, path.join(GOLDEN, "edge-cases", "expected"), consumer, "NodeNext"),
    ).toBe("");
  });

  it("edge-cases: a discriminator without a mapping types each branch (or schema extending its base) by the value it states", async () => {
    const consumer = `
import { createPetsClient } from "./gen/@acme/pets.js";
const pets = createPetsClient({ apiKey: "k_123456", baseUrl: "https://api.example.com" });
export const cat = pets.run({ pet: { kind: "cat", lives: 9 } });
export const dog = pets.run({ pet: { kind: "dog", good: true } });
// @ts-expect-error a made-up component name is no kind
export const named = pets.run({ pet: { kind: "acme.pets.Input.Cat" } });
export const horse = pets.run({ pet: { kind: "cat" }, companion: { kind: "horse", hands: 15 } });
export const goat = pets.run({ pet: { kind: "cat" }, companion: { kind: "goat", name: "Billy" } });
export const barn = pets.run({ pet: { kind: "cat" }, barn: [{ kind: "cow", milk: true }] });
// @ts-expect-error a branch's component name is no kind, where the branch extends a base
export const horseName = pets.run({ pet: { kind: "cat" }, companion: { kind: "acme.pets.Input.Horse" } });
export const fox = pets.run({ pet: { kind: "cat" }, wild: { kind: "Fox", tail: true } });
// @ts-expect-error a branch that states no value takes its name in the spec, not the component's
export const foxName = pets.run({ pet: { kind: "cat" }, wild: { kind: "acme.pets.Input.Fox" } });
// @ts-expect-error an extending schema's component name is no kind
export const cowName = pets.run({ pet: { kind: "cat" }, barn: [{ kind: "acme.pets.Input.Cow" }] });
`;
    const dir = await tempProject({});
    expect(
      await typecheck(dir, path.join(GOLDEN, "edge-cases", "expected"), consumer, "NodeNext"),
    ).toBe("");
  });

  it("edge-cases: keywords openapi-typescript alone would type wrong take what their schema takes, and refuse what it refuses", async () => {
    const consumer = `
import type { ShapesInput } from "./gen/@acme/shapes.js";
// A key no pattern matches holds anything, where the object is otherwise open.
export const scores: ShapesInput = { scores: { id: 1, n_total: 2.5, other: "text" } };
// @ts-expect-error id is an integer
export const badScores: ShapesInput = { scores: { id: "1" } };
export const grade: ShapesInput = { grade: "a" };
// @ts-expect-error null is not in the enum, though the type allows it
export const noGrade: ShapesInput = { grade: null };
export const cleared: ShapesInput = { cleared: null };
// @ts-expect-error a null const takes null alone
export const notCleared: ShapesInput = { cleared: "yes" };
// A name an allOf entry (or a $ref's sibling) requires is required, with the type the others give it.
export const owned: ShapesInput = { owner: { name: "Ada" }, address: { city: "Oslo" } };
// @ts-expect-error the owner's name is required
export const noName: ShapesInput = { owner: {} };
// @ts-expect-error the owner's name is text
export const numberName: ShapesInput = { owner: { name: 1 } };
// @ts-expect-error the address's city is required
export const noCity: ShapesInput = { address: { zip: "0150" } };
// prefixItems are a tuple only where the array is exactly that long.
export const flags: ShapesInput = { flags: ["a", true, false] };
export const noFlags: ShapesInput = { flags: [] };
// @ts-expect-error flags are text or yes/no
export const numberFlag: ShapesInput = { flags: [1] };
export const shortPoint: ShapesInput = { point: [1] };
export const pair: ShapesInput = { pair: ["a", 1] };
// @ts-expect-error a pair has two items
export const halfPair: ShapesInput = { pair: ["a"] };
export const nest: ShapesInput = { nest: [[], [[]]] };
// Branches that list required names alone are objects the object's own type meets.
export const contact: ShapesInput = { contact: { email: "a@example.com" }, login: { token: "t" } };
// @ts-expect-error a contact is an object
export const numberContact: ShapesInput = { contact: 42 };
// @ts-expect-error a contact has an email or a phone number
export const noContact: ShapesInput = { contact: {} };
// @ts-expect-error an email is text
export const numberEmail: ShapesInput = { contact: { email: 1 } };
// @ts-expect-error a login has a user or a token
export const noLogin: ShapesInput = { login: {} };
`;
    const dir = await tempProject({});
    expect(
      await typecheck(dir, path.join(GOLDEN, "edge-cases", "expected"), consumer, "NodeNext"),
    ).toBe("");
  });
});
