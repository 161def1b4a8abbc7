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
  /** "acme.qa": the operationId and the stem of the flow's component names; see `operationIds`. */
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
 * What a name becomes once a generator has changed its case and dropped its separators
 * (`a-1.deep`, `A1Deep`, `a1_deep` → `a1deep`). OpenAPI names that are unique in this form stay
 * unique in the code orval, hey-api, openapi-generator and the like write from the document.
 */
export function caseFold(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Component names flowgen itself puts in every document, with the error body. Kept here so
 * that flow and shared components can be kept from meeting them, after case folding too.
 */
export const PLATFORM_COMPONENTS = {
  errorBody: "FlowErrorBody",
  errorDetail: "FlowErrorDetail",
} as const;

/**
 * operationIds, one per id in the given order: `<org>.<flow>` (`acme.qa`), kept distinct after
 * case folding by `foldUnique`: `@a-1/deep` and `@a1/deep` give `a-1.deep` and `a1.deep.2`.
 *
 * @example
 * operationIds([{ org: "a-1", name: "deep" }, { org: "a1", name: "deep" }]); // ["a-1.deep", "a1.deep.2"]
 */
export function operationIds(ids: readonly { org: string; name: string }[]): string[] {
  return foldUnique(ids.map(({ org, name }) => `${org}.${name}`));
}

/**
 * The given names, distinct after case folding. A name no other folds onto is kept; of names
 * that fold alike, the first in code-unit order is kept and the others get `.2`, `.3`, …,
 * skipping any number whose folded form another name already has. Only the names that meet
 * change, and how depends on nothing but the set of names.
 *
 * @example
 * foldUnique(["@a1", "@a-1"]); // ["@a1.2", "@a-1"]
 */
export function foldUnique(names: readonly string[]): string[] {
  const folded = names.map(caseFold);
  const counts = new Map<string, number>();
  for (const name of folded) counts.set(name, (counts.get(name) ?? 0) + 1);
  const taken = new Set(folded.filter((name) => counts.get(name) === 1));
  const order = names
    .map((name, i) => ({ name, i }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const result: string[] = [...names];
  for (const { name, i } of order) {
    if (counts.get(folded[i] ?? "") === 1) continue;
    let candidate = name;
    for (let n = 2; taken.has(caseFold(candidate)); n++) candidate = `${name}.${n}`;
    taken.add(caseFold(candidate));
    result[i] = candidate;
  }
  return result;
}

/**
 * Names for `export * as <name>` in the index: `acmeQa` for @acme/qa. Two ids can meet on one
 * readable name (`@acme/qa-x`, `@acme-qa/x`), and a readable name can be one the runtime exports
 * (`@is/flow-error` → `isFlowError`, passed in `reserved`); those flows get the exact form
 * `acme$qa_x`, in which `$` stands for `/` and `_` for `-`, so it cannot meet another.
 *
 * @example
 * indexNamespaces([{ org: "is", name: "flow-error" }], ["isFlowError"]); // ["is$flow_error"]
 */
export function indexNamespaces(
  ids: readonly { org: string; name: string }[],
  reserved: readonly string[] = [],
): string[] {
  const readable = ids.map(({ org, name }) => {
    const orgPart = pascalCase(org);
    return `${orgPart.charAt(0).toLowerCase()}${orgPart.slice(1)}${pascalCase(name).replace(/^Flow(?=[0-9])/, "")}`;
  });
  const counts = new Map<string, number>();
  for (const name of readable) counts.set(name, (counts.get(name) ?? 0) + 1);
  return ids.map(({ org, name }, i) => {
    const candidate = readable[i] ?? "";
    if (counts.get(candidate) === 1 && !reserved.includes(candidate)) return candidate;
    const exact = `${org}$${name}`.replace(/-/g, "_");
    return /^[0-9]/.test(exact) ? `_${exact}` : exact;
  });
}
