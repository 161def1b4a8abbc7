import { main } from "../../src/cli.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the `flowgen` CLI in-process, in `cwd`, collecting what it prints. */
export async function runCli(cwd: string, ...args: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    cwd,
    io: {
      out: (line) => void (stdout += `${line}\n`),
      err: (line) => void (stderr += `${line}\n`),
    },
  });
  return { code, stdout, stderr };
}
