/** A file flowgen writes, by path relative to the output folder (forward slashes). */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
}
