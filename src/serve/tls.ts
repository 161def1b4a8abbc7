import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** The certificate and key the server presents, PEM, and where a client finds the certificate to trust. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  /** A file holding the certificate, for NODE_EXTRA_CA_CERTS or a client's CA option. */
  readonly certFile: string;
}

/** A certificate or key that cannot be used, with what to do. */
export class TlsError extends Error {}

/**
 * The server's TLS material: the given PEM files, or with `selfSigned` a fresh certificate for
 * localhost, 127.0.0.1 and ::1 (valid 30 days), written to a temporary file so clients can trust it.
 * Undefined when neither is asked for (plain HTTP).
 *
 * @example
 * const tls = await loadTls({ selfSigned: true, cwd: process.cwd() });
 * // NODE_EXTRA_CA_CERTS=<tls.certFile> node app.js
 */
export async function loadTls(options: {
  readonly certFile?: string | undefined;
  readonly keyFile?: string | undefined;
  readonly selfSigned?: boolean | undefined;
  readonly cwd: string;
}): Promise<TlsMaterial | undefined> {
  const { certFile, keyFile } = options;
  if (certFile !== undefined || keyFile !== undefined) {
    if (certFile === undefined || keyFile === undefined)
      throw new TlsError("HTTPS needs both --tls-cert and --tls-key (PEM files)");
    if (options.selfSigned)
      throw new TlsError("pass either --tls-cert and --tls-key, or --tls-self-signed, not both");
    const certPath = path.resolve(options.cwd, certFile);
    const [cert, key] = await Promise.all([
      readPem(certPath, "--tls-cert", "CERTIFICATE"),
      readPem(path.resolve(options.cwd, keyFile), "--tls-key", "PRIVATE KEY"),
    ]);
    return { cert, key, certFile: certPath };
  }
  if (!options.selfSigned) return undefined;
  const { generate } = await import("selfsigned");
  const pems = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notAfterDate: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    extensions: [
      { name: "basicConstraints", cA: false, critical: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  });
  const dir = path.join(tmpdir(), "flowgen-serve");
  await mkdir(dir, { recursive: true });
  const file = path.join(
    dir,
    `localhost-${pems.fingerprint.replaceAll(":", "").slice(0, 16).toLowerCase()}.pem`,
  );
  await writeFile(file, pems.cert);
  return { cert: pems.cert, key: pems.private, certFile: file };
}

async function readPem(file: string, flag: string, label: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new TlsError(
      `${flag} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); pass a PEM file`,
    );
  }
  if (!text.includes(`-----BEGIN `) || !text.includes(label)) {
    throw new TlsError(
      `${flag} ${file}: not a PEM ${label.toLowerCase()} (no "-----BEGIN … ${label}-----" block)`,
    );
  }
  return text;
}
