/** A minimal OpenAPI 3.1 document shaped as flowgen writes it: one POST /v1/@org/flow per flow. */
export interface FlowContract {
  readonly input?: unknown;
  readonly output?: unknown;
  readonly deprecated?: boolean;
  readonly summary?: string;
}

export function contract(
  flows: Record<string, FlowContract>,
  schemas: Record<string, unknown> = {},
): Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.entries(flows).map(([id, flow]) => [
      `/v1/${id}`,
      {
        post: {
          operationId: id,
          summary: flow.summary ?? `Run ${id}`,
          ...(flow.deprecated ? { deprecated: true } : {}),
          requestBody: {
            required: true,
            content: { "application/json": { schema: flow.input ?? { type: "object" } } },
          },
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: flow.output ?? { type: "object" } } },
            },
          },
        },
      },
    ]),
  );
  return {
    openapi: "3.1.1",
    info: { title: "Flows", version: "1" },
    paths,
    components: { schemas },
  };
}
