/**
 * True when no process `pid` runs, or it is this one (a leftover of an earlier run that had the
 * same pid, as happens in containers): what it left can be removed.
 *
 * @example
 * if (isStale(pid)) await rm(leftover, { recursive: true, force: true });
 */
export function isStale(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
