import { compareText } from "../issues.js";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import {
  ERROR_BODY,
  ERROR_RESPONSES,
  ERROR_SCHEMAS,
  HEADERS,
  SECURITY_SCHEME,
  SUCCESS_HEADERS,
  errorResponseComponents,
  headerRefs,
} from "./platform-components.js";

export interface CompileOptions {
  /** The server URL, and the generated clients' default base URL. */
  readonly baseUrl: string | undefined;
  /**
   * For one flow's types: every error status folds into one `default` response with the error
   * body, and examples are left out. The types are the same; the module is a third of the size.
   */
  readonly compact?: boolean;
}

/** The server URL when the project configured none: where `flowgen serve` listens by default. */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8787";

/**
 * The OpenAPI 3.1 document for the given flows (all of them, or one for its own types). Keys are
 * built in a fixed order and components sorted, so the same model always gives the same JSON.
 *
 * @example
 * const doc = compileOpenApi(model, model.flows, { baseUrl: undefined });
 */
export function compileOpenApi(
  model: ProjectModel,
  flows: readonly FlowModel[],
  options: CompileOptions,
): Record<string, unknown> {
  // Every component is reached from some flow, and the model's are sorted by name already.
  const names =
    flows === model.flows
      ? [...model.components.keys()]
      : flows.length === 1
        ? (flows[0]?.components ?? [])
        : [...new Set(flows.flatMap((flow) => flow.components))].sort(compareText);
  const schemas = Object.fromEntries(names.map((name) => [name, model.components.get(name)]));
  return {
    openapi: "3.1.1",
    // Semantic versioning, as tools that compare document versions expect; the API version is in the path (/v1).
    info: {
      title: "Flows",
      version: "1.0.0",
      description:
        "Flows of the flow invocation platform. Each is run by `POST /v1/@<org>/<flow-name>` with a JSON body and a bearer API key.",
    },
    // A literal URL, no server variables: generators, docs and validators differ on those. No
    // `jsonSchemaDialect` either: the 3.1 default dialect already is JSON Schema 2020-12 (§4.8.24).
    servers: [
      {
        url: withoutTrailingSlashes(options.baseUrl ?? DEFAULT_SERVER_URL),
        description: "The platform; versions are in the path (/v1).",
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [...new Map(flows.map((flow) => [flow.tag, flow.org]))].map(([tag, org]) => ({
      name: tag,
      description: `Flows of the org \`@${org}\`.`,
    })),
    paths: Object.fromEntries(
      flows.map((flow) => [flow.httpPath, { post: operationFor(flow, options.compact === true) }]),
    ),
    components: {
      schemas: { ...ERROR_SCHEMAS, ...schemas },
      ...(options.compact ? {} : { responses: errorResponseComponents(), headers: HEADERS }),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key from the account dashboard, sent as `Authorization: Bearer <API_KEY>`.",
        },
      },
    },
  };
}

function operationFor(flow: FlowModel, compact: boolean): Record<string, unknown> {
  const examples = compact ? [] : namedExamples(flow);
  const errors = compact
    ? {
        default: {
          description: "Any error: see the status and the error body.",
          content: {
            "application/json": { schema: { $ref: `#/components/schemas/${ERROR_BODY}` } },
          },
        },
      }
    : Object.fromEntries(
        ERROR_RESPONSES.map((response) => [
          response.status,
          { $ref: `#/components/responses/${response.name}` },
        ]),
      );
  return {
    operationId: flow.names.componentStem,
    summary: nonBlank(flow.summary) ?? `Run ${flow.id}`,
    ...(nonBlank(flow.description) === undefined ? {} : { description: flow.description }),
    ...(flow.deprecated ? { deprecated: true } : {}),
    tags: [flow.tag],
    security: [{ [SECURITY_SCHEME]: [] }],
    // Redocly's and Scalar's extension for code shown beside the operation: the generated client.
    ...(compact ? {} : { "x-codeSamples": [clientSample(flow)] }),
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: { $ref: `#/components/schemas/${flow.inputComponent}` },
          ...exampleMap(examples, "input"),
        },
      },
    },
    responses: {
      "200": {
        description: `The output of ${flow.id}.`,
        ...(compact ? {} : { headers: headerRefs(SUCCESS_HEADERS) }),
        content: {
          "application/json": {
            schema: { $ref: `#/components/schemas/${flow.outputComponent}` },
            ...exampleMap(examples, "output"),
          },
        },
      },
      ...errors,
    },
  };
}

/**
 * A call of the flow with its generated client, on its first example's input, as the reference
 * docs show it. The client is named `client` whatever the flow: a flow's own name may be a keyword.
 */
function clientSample(flow: FlowModel): { lang: string; label: string; source: string } {
  const input = flow.examples[0]?.input;
  return {
    lang: "TypeScript",
    label: "flowgen client",
    source: [
      `import { ${flow.names.factory} } from "./generated/${flow.id}.js";`,
      "",
      `const client = ${flow.names.factory}({ apiKey: process.env.FLOW_API_KEY });`,
      `const output = await client.run(${input === undefined ? "input" : JSON.stringify(input, null, 2)});`,
      "",
    ].join("\n"),
  };
}

/** `url` without the slashes it ends with; a loop, as `/\/+$/` takes quadratic time on many slashes. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f /* / */) end--;
  return url.slice(0, end);
}

/** Empty descriptions say nothing and trip linters: left out. */
function nonBlank(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === "" ? undefined : text;
}

function namedExamples(
  flow: FlowModel,
): { key: string; summary: string | undefined; input: unknown; output: unknown }[] {
  const used = new Set<string>();
  return flow.examples.map((example, i) => {
    const base =
      (example.name ?? `example-${i + 1}`).replace(/[^A-Za-z0-9._-]+/g, "-") || `example-${i + 1}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}-${n}`;
    used.add(key);
    return { key, summary: nonBlank(example.name), input: example.input, output: example.output };
  });
}

function exampleMap(
  examples: ReturnType<typeof namedExamples>,
  part: "input" | "output",
): Record<string, unknown> {
  if (examples.length === 0) return {};
  return {
    examples: Object.fromEntries(
      examples.map((example) => [
        example.key,
        {
          ...(example.summary === undefined ? {} : { summary: example.summary }),
          value: example[part],
        },
      ]),
    ),
  };
}
