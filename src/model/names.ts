/**
 * Identifiers derived from flow ids. Org and flow names are `[a-z0-9-]` (see NAME_PATTERN), so
 * every name here is a valid identifier by construction, never a reserved word (all carry a
 * capitalised part or a suffix), and stable: it depends on the flow's own id only.
 */

export interface FlowNames {
  /** "Qa" for @acme/qa: the stem of the module's exported types (QaInput, QaOutput, QaClient). */
  readonly typePrefix: string;
  /** "createQaClient". */
  readonly factory: string;
  /** "qaFlow": the exported `{ id, path }` of the flow. */
  readonly flowConst: string;
  /** "qaValidators": the export of `qa.validators.ts` (with `--validators`). */
  readonly validators: string;
  /** "acme.qa": the operationId and the stem of the flow's component names. */
  readonly componentStem: string;
}

/** `org-chart` → `OrgChart`; a name that starts with a digit gets a `Flow` prefix: `3d` → `Flow3d`. */
export function pascalCase(name: string): string {
  const joined = name
    .split("-")
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
  return /^[0-9]/.test(joined) ? `Flow${joined}` : joined;
}

export function flowNames(org: string, name: string): FlowNames {
  const typePrefix = pascalCase(name);
  return {
    typePrefix,
    factory: `create${typePrefix}Client`,
    flowConst: `${typePrefix.charAt(0).toLowerCase()}${typePrefix.slice(1)}Flow`,
    validators: `${typePrefix.charAt(0).toLowerCase()}${typePrefix.slice(1)}Validators`,
    componentStem: `${org}.${name}`,
  };
}

/**
 * Names for `export * as <name>` in the index: `acmeQa` for @acme/qa. Two ids can meet on one
 * readable name (`@acme/qa-x`, `@acme-qa/x`); those flows get the exact form `acme$qa_x`, in
 * which `$` stands for `/` and `_` for `-`, so it cannot meet another.
 */
export function indexNamespaces(ids: readonly { org: string; name: string }[]): string[] {
  const readable = ids.map(({ org, name }) => {
    const orgPart = pascalCase(org);
    return `${orgPart.charAt(0).toLowerCase()}${orgPart.slice(1)}${pascalCase(name).replace(/^Flow(?=[0-9])/, "")}`;
  });
  const counts = new Map<string, number>();
  for (const name of readable) counts.set(name, (counts.get(name) ?? 0) + 1);
  return ids.map(({ org, name }, i) => {
    const candidate = readable[i] ?? "";
    if (counts.get(candidate) === 1) return candidate;
    const exact = `${org}$${name}`.replace(/-/g, "_");
    return /^[0-9]/.test(exact) ? `_${exact}` : exact;
  });
}
