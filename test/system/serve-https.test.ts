import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createQaClient } from "../../generated/@acme/qa.js";
import type { ServeOptions } from "../../src/serve/serve.js";
import { failureOf } from "../helpers/flow-error.js";
import { startTestServe } from "../helpers/serve.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";

const run = promisify(execFile);
const KEY = "k_https_0123456789abcdef";

function serve(tls: ServeOptions["tls"]) {
  return startTestServe(KEY, { tls });
}

/** Runs the generated qa client in a fresh Node process that trusts `certFile` (NODE_EXTRA_CA_CERTS). */
async function callTrusting(certFile: string, url: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "flowgen-https-"));
  try {
    const script = path.join(dir, "call.mts");
    await writeFile(
      script,
      [
        `import { createQaClient } from ${JSON.stringify(path.join(REPO_ROOT, "generated/@acme/qa.js"))};`,
        `const qa = createQaClient({ apiKey: ${JSON.stringify(KEY)}, baseUrl: ${JSON.stringify(url)} });`,
        `console.log(JSON.stringify(await qa.run({ question: "What is the capital of France?" })));`,
      ].join("\n"),
    );
    const { stdout } = await run(process.execPath, ["--import", "tsx", script], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
    });
    return stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("flowgen serve over HTTPS", () => {
  it("serves with a self-signed certificate that generated clients trust through NODE_EXTRA_CA_CERTS", async () => {
    const server = await serve({ selfSigned: true });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const certFile = server.certFile ?? "";
      expect(await readFile(certFile, "utf8")).toContain("BEGIN CERTIFICATE");
      expect(await callTrusting(certFile, server.url)).toBe('{"answer":"Paris"}');

      // This process does not trust the certificate: the client reports a connection failure.
      const error = await failureOf(
        createQaClient({ apiKey: KEY, baseUrl: server.url, retry: false }).run({ question: "?" }),
      );
      expect(error).toMatchObject({ kind: "connection", status: 0 });
      expect(error.message).toMatch(/certificate/i);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("serves a given certificate and key, and explains files it cannot use", async () => {
    // A certificate and key pair on disk, as a user would bring one.
    const dir = await mkdtemp(path.join(tmpdir(), "flowgen-tls-"));
    try {
      const { generate } = await import("selfsigned");
      const pems = await generate([{ name: "commonName", value: "localhost" }], {
        keyType: "ec",
        algorithm: "sha256",
      });
      await writeFile(path.join(dir, "cert.pem"), pems.cert);
      await writeFile(path.join(dir, "key.pem"), pems.private);
      const server = await serve({
        certFile: path.join(dir, "cert.pem"),
        keyFile: path.join(dir, "key.pem"),
      });
      try {
        expect(server.certFile).toBe(path.join(dir, "cert.pem"));
        expect(await callTrusting(path.join(dir, "cert.pem"), server.url)).toBe(
          '{"answer":"Paris"}',
        );
      } finally {
        await server.close();
      }
      await expect(serve({ certFile: path.join(dir, "cert.pem") })).rejects.toThrow(
        "HTTPS needs both --tls-cert and --tls-key (PEM files)",
      );
      await expect(
        serve({ certFile: path.join(dir, "missing.pem"), keyFile: path.join(dir, "key.pem") }),
      ).rejects.toThrow(/--tls-cert .*missing\.pem: cannot be read \(ENOENT\); pass a PEM file/);
      await expect(
        serve({ certFile: path.join(dir, "key.pem"), keyFile: path.join(dir, "key.pem") }),
      ).rejects.toThrow(/not a PEM certificate/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
