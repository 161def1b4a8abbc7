/**
 * A seeded sample of flows shaped like operations imported from public API descriptions (OpenAPI
 * 3.0 and 3.1, converted to one flow per operation): request and response objects with ids,
 * timestamps, money, enums, nested objects and lists, written the way those descriptions write
 * them, with the habits imports bring along at the rates a sample of 1,200 public operations showed:
 *
 * - OpenAPI 3.0 `example` annotations, a few of which fail their own schema (a date for a
 *   date-time, a word for an integer): about 5% of flows;
 * - patterns written for engines without the `u` flag (`\-` outside brackets, `\:`): about 2.5%;
 * - OpenAPI 3.0 `nullable: true`: about 2%; object-or-null roots (`["object", "null"]`): about 1.3%;
 * - roots that are not objects (a list endpoint answering a bare array, a raw string body): about 2.5%;
 * - schemas that contradict themselves (a default outside its enum, a string default for an
 *   integer): about 2%.
 *
 * No network, no randomness beyond the seed: the same count and seed give the same files.
 *
 * @example
 * await writeFiles(dir, publicApiSample(1200));
 */
export function publicApiSample(count: number, seed = 1): Record<string, unknown> {
  const random = mulberry32(seed);
  const chance = (p: number) => random() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const files: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const org = pick(ORGS);
    const resource = pick(RESOURCES);
    const verb = pick(VERBS);
    const habits = {
      badExample: chance(0.05),
      legacyPattern: chance(0.025),
      nullable: chance(0.02),
      nullableRoot: chance(0.013),
      nonObjectRoot: chance(0.025),
      contradiction: chance(0.02),
    };
    const build = new OperationBuilder(pick, chance, habits);
    files[`specs/@${org}/${verb}-${resource}-${i}.json`] = {
      summary: `${verb} ${resource}`,
      input: build.request(verb, resource),
      output: build.response(verb, resource),
    };
  }
  return files;
}

const ORGS = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell"];
const RESOURCES = ["user", "order", "invoice", "payment", "repo", "issue", "message", "ticket"];
const VERBS = ["create", "update", "get", "list", "search", "delete"];

type Schema = Record<string, unknown>;

interface Habits {
  readonly badExample: boolean;
  readonly legacyPattern: boolean;
  readonly nullable: boolean;
  readonly nullableRoot: boolean;
  readonly nonObjectRoot: boolean;
  readonly contradiction: boolean;
}

/** Builds one operation's schemas; each habit it was given shows up once in them. */
class OperationBuilder {
  private readonly pending: Set<keyof Habits>;

  constructor(
    private readonly pick: <T>(items: readonly T[]) => T,
    private readonly chance: (p: number) => boolean,
    habits: Habits,
  ) {
    this.pending = new Set(
      (Object.keys(habits) as (keyof Habits)[]).filter((habit) => habits[habit]),
    );
  }

  request(verb: string, resource: string): Schema {
    if (verb === "create" && this.take("nonObjectRoot"))
      return { type: "string", format: "binary" };
    if (verb === "get" || verb === "delete") return this.object({ id: this.id(resource) }, ["id"]);
    if (verb === "list" || verb === "search")
      return this.object(
        {
          ...(verb === "search"
            ? { q: { type: "string", minLength: 1, example: "status:open" } }
            : {}),
          limit: this.limit(),
          cursor: { type: "string", description: "Where the previous page ended." },
          order: this.order(),
        },
        verb === "search" ? ["q"] : [],
      );
    return this.object(this.fields(resource), verb === "create" ? ["name"] : []);
  }

  response(verb: string, resource: string): Schema {
    const item = this.object({ id: this.id(resource), ...this.fields(resource) }, ["id"]);
    const listing = verb === "list" || verb === "search";
    const root = listing
      ? this.object({ data: { type: "array", items: item }, next_cursor: { type: "string" } }, [
          "data",
        ])
      : verb === "delete"
        ? this.object({ deleted: { type: "boolean", example: true } })
        : item;
    // Whatever habit is left lands here, so each operation shows every habit it was given.
    const properties = root["properties"] as Schema;
    if (this.take("nullableRoot")) root["type"] = ["object", "null"];
    if (this.take("nullable")) root["nullable"] = true;
    if (this.take("badExample")) properties["created_at"] = this.createdAt(true);
    if (this.take("legacyPattern")) properties["code"] = this.code(true);
    if (this.take("contradiction")) properties["page_size"] = this.pageSize(true);
    // A list endpoint answering a bare array: common in public APIs, and not a JSON object.
    if (this.take("nonObjectRoot")) return { type: "array", items: listing ? item : root };
    return root;
  }

  private fields(resource: string): Schema {
    const fields: Schema = {
      name: { type: "string", maxLength: 200, example: `My ${resource}` },
      created_at: this.createdAt(this.take("badExample")),
      status: this.status(),
      metadata: {
        type: "object",
        additionalProperties: { type: "string" },
        description: "Set of key-value pairs.",
      },
    };
    if (this.chance(0.5)) fields["amount"] = { type: "integer", minimum: 0, example: 2000 };
    if (this.chance(0.4))
      fields["email"] = { type: "string", format: "email", example: "a@example.com" };
    if (this.chance(0.3)) fields["tags"] = { type: "array", items: { type: "string" } };
    if (this.chance(0.6)) fields["code"] = this.code(this.take("legacyPattern"));
    if (this.take("nullable"))
      fields["description"] = { type: "string", nullable: true, example: null };
    if (this.take("contradiction")) fields["page_size"] = this.pageSize(true);
    return fields;
  }

  private object(properties: Schema, required: string[] = []): Schema {
    return {
      type: "object",
      ...(required.length > 0 ? { required } : {}),
      properties,
    };
  }

  private id(resource: string): Schema {
    return {
      type: "string",
      pattern: "^[a-z]+_[A-Za-z0-9]{8,}$",
      example: `${resource.slice(0, 3)}_1234abcd`,
    };
  }

  private createdAt(bad: boolean): Schema {
    // A date where a date-time is due: the example fails its own format.
    return {
      type: "string",
      format: "date-time",
      example: bad ? "2024-01-31" : "2024-01-31T12:00:00Z",
    };
  }

  private code(legacy: boolean): Schema {
    const pattern = legacy
      ? this.pick(["^[A-Z]{2}\\-\\d{4}$", "^\\w+\\:\\d+$", "^[a-z]+\\_[0-9]+$"])
      : this.pick(["^[A-Z]{2}-\\d{4}$", "^[\\w.\\-]+$", "^https?:\\/\\/.+$"]);
    return { type: "string", pattern };
  }

  private status(): Schema {
    return { type: "string", enum: ["active", "pending", "closed"], default: "active" };
  }

  private order(): Schema {
    return { type: "string", enum: ["asc", "desc"], default: "desc" };
  }

  private limit(): Schema {
    return { type: "integer", minimum: 1, maximum: 100, default: 20, example: 20 };
  }

  private pageSize(contradicts: boolean): Schema {
    // A default the schema refuses: a string where an integer is due.
    return { type: "integer", minimum: 1, default: contradicts ? "25" : 25 };
  }

  private take(habit: keyof Habits): boolean {
    return this.pending.delete(habit);
  }
}

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
