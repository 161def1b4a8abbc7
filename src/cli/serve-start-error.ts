import { withCode, type IssueCode } from "../issues.js";

/**
 * The lines that say why the server did not start, when the reason is a mistake to fix (bad keys, a
 * handler that does not load, an option out of range such as --rate 0 or --error-rate 2, a host or
 * port it cannot listen on): undefined for anything else, which is a bug.
 *
 * @example
 * const refusal = await describeStartError(error);
 * if (refusal === undefined) throw error;
 */
export async function describeStartError(error: unknown): Promise<readonly string[] | undefined> {
  const { KeysError } = await import("../serve/keys.js");
  const { HandlerLoadError } = await import("../serve/handlers.js");
  const { TlsError } = await import("../serve/tls.js");
  const code: IssueCode | undefined =
    error instanceof KeysError
      ? "invalid-keys"
      : error instanceof HandlerLoadError
        ? "invalid-handler"
        : error instanceof TlsError
          ? "invalid-tls"
          : error instanceof RangeError
            ? "invalid-option"
            : undefined;
  if (code !== undefined) {
    // One line per problem, each with its link, as reportIssues prints problems in files.
    const problems = error instanceof KeysError ? error.problems : [(error as Error).message];
    return problems.map((problem) => withCode(`flowgen serve: ${problem}`, code));
  }
  const listening = describeListenError(error);
  if (listening === undefined) return undefined;
  return [withCode(`flowgen serve: ${listening}`, "cannot-listen")];
}

/**
 * Why the server could not listen, as a sentence, when the host or port given is the reason (a
 * mistake to fix, not a bug): undefined for anything else.
 */
function describeListenError(error: unknown): string | undefined {
  if (!(error instanceof Error) || !("code" in error)) return undefined;
  const { code } = error;
  const address = "hostname" in error ? String(error.hostname) : undefined;
  switch (code) {
    case "EADDRINUSE":
      return `the port is in use (${error.message}); pass another --port (0 picks a free one)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
    case "EAI_NONAME":
      return `the host ${JSON.stringify(address ?? "")} does not resolve to an address (${code}); pass --host with an address of this machine, such as 127.0.0.1, localhost or 0.0.0.0`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${describeAddress(error)}: it is not an address of this machine; pass --host with one that is, such as 127.0.0.1 or 0.0.0.0`;
    case "EACCES":
    case "EPERM":
      return `not allowed to listen on ${describeAddress(error)} (${code}): ports below 1024 need privileges; pass a --port of 1024 or above (0 picks a free one)`;
    default:
      return undefined;
  }
}

function describeAddress(error: Error): string {
  const { address, port } = error as { address?: unknown; port?: unknown };
  if (typeof address !== "string") return "that address";
  return typeof port === "number" ? `${address}:${port}` : address;
}
