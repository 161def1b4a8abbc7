import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { compileOpenApi } from "../compile/openapi-document.js";
import { SECURITY_SCHEME } from "../compile/platform-components.js";
import type { ProjectModel } from "../model/build-model.js";
import type { CorsPolicy } from "./cors.js";

/** Where the reference page lives; Scalar's plugin serves its script and the document under it. */
const DOCS_PREFIX = "/docs";

/**
 * The paths that describe the flows rather than run them: admission.ts lets a GET of one of them
 * through without a key, and no other request.
 */
export const DOCS_PATHS: ReadonlySet<string> = new Set([
  "/openapi.json",
  DOCS_PREFIX,
  `${DOCS_PREFIX}/`,
  `${DOCS_PREFIX}/js/scalar.js`,
  `${DOCS_PREFIX}/openapi.json`,
  `${DOCS_PREFIX}/openapi.yaml`,
]);

/**
 * The flows' OpenAPI document as this server gives it out: the one `flowgen generate` writes, with
 * the server named relative to the document (`/`), so "try it" and anything reading
 * `/openapi.json` call this very server, whatever its host and port.
 *
 * @example
 * const document = servedDocument(model);
 */
export function servedDocument(model: ProjectModel): Record<string, unknown> {
  return {
    ...compileOpenApi(model, model.flows, { baseUrl: undefined }),
    servers: [{ url: "/", description: "This flowgen serve." }],
  };
}

/**
 * Serves `GET /openapi.json` and an API reference at `/docs` (Scalar), every asset from npm:
 * nothing is fetched from a CDN, no fonts, no telemetry, no hosted API client. Its "try it" sends
 * the key the reader pastes to this server. The document's routes answer other origins as every
 * path of this server does (`cors`).
 *
 * @example
 * useApiReference(app, model, parseCorsOrigins(undefined));
 */
export function useApiReference(app: FastifyInstance, model: ProjectModel, cors: CorsPolicy): void {
  const document = servedDocument(model);
  app.get("/openapi.json", (_request, reply) => reply.type("application/json").send(document));
  app.addHook("onSend", (request, reply, payload, done) => {
    if (SCALAR_DOCUMENTS.has(request.targetPath ?? "")) answerAsCorsAllows(request, reply, cors);
    done(null, payload);
  });
  // Loaded only when the reference is served: --no-docs starts without it.
  void app.register(import("@scalar/fastify-api-reference"), {
    routePrefix: DOCS_PREFIX,
    logLevel: "silent",
    configuration: {
      content: document,
      pageTitle: "Flows: API reference",
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      // Scalar's hosted AI agent loads a catalogue of other APIs from the network on its own.
      agent: { disabled: true },
      showDeveloperTools: "never",
      defaultOpenAllTags: true,
      authentication: { preferredSecurityScheme: SECURITY_SCHEME },
    },
  });
}

/** The routes where Scalar's plugin gives the document out, allowing every origin on its own. */
const SCALAR_DOCUMENTS: ReadonlySet<string> = new Set([
  `${DOCS_PREFIX}/openapi.json`,
  `${DOCS_PREFIX}/openapi.yaml`,
]);

/**
 * Replaces Scalar's `Access-Control-Allow-Origin: *` with what `cors` allows the request's origin:
 * a page of an origin not allowed must not read the flows' schemas from a developer's machine.
 */
function answerAsCorsAllows(request: FastifyRequest, reply: FastifyReply, cors: CorsPolicy): void {
  reply.removeHeader("access-control-allow-methods");
  const { origin } = request.headers;
  if (cors.any) reply.header("access-control-allow-origin", "*");
  else if (typeof origin === "string" && cors.allows(origin))
    reply.header("access-control-allow-origin", origin);
  else reply.removeHeader("access-control-allow-origin");
}
