import { describe, expect, it } from "vitest";
import {
  caseFold,
  flowNames,
  foldUnique,
  indexNamespaces,
  operationIds,
  pascalCase,
} from "../src/model/names.js";

describe("names derived from flow ids", () => {
  it.each([
    ["qa", "Qa"],
    ["org-chart", "OrgChart"],
    ["3d-render", "Flow3dRender"],
    ["class", "Class"],
    ["a--b", "AB"],
    ["x1-2y", "X12y"],
  ])("pascalCase(%j) is %j", (given, want) => {
    expect(pascalCase(given)).toBe(want);
  });

  it.each([
    [
      "acme",
      "qa",
      {
        typePrefix: "Qa",
        factory: "createQaClient",
        flowConst: "qaFlow",
        validators: "qaValidators",
        componentStem: "acme.qa",
      },
    ],
    [
      "3m",
      "2fa-check",
      {
        typePrefix: "Flow2faCheck",
        factory: "createFlow2faCheckClient",
        flowConst: "flow2faCheckFlow",
        validators: "flow2faCheckValidators",
        componentStem: "3m.2fa-check",
      },
    ],
  ])("flowNames(%j, %j)", (org, name, want) => {
    expect(flowNames(org, name)).toEqual(want);
  });

  it.each([
    [
      "readable when unique",
      [
        ["acme", "qa"],
        ["globex", "qa"],
      ],
      ["acmeQa", "globexQa"],
    ],
    ["an org starting with a digit", [["3m", "x"]], ["flow3mX"]],
    [
      "the exact form for ids that meet on one readable name",
      [
        ["acme", "qa-x"],
        ["acme-qa", "x"],
        ["acme", "y"],
      ],
      ["acme$qa_x", "acme_qa$x", "acmeY"],
    ],
  ])("index namespaces: %s", (_, ids, want) => {
    expect(
      indexNamespaces(ids.map(([org, name]) => ({ org: org ?? "", name: name ?? "" }))),
    ).toEqual(want);
  });

  it("index namespaces: a readable name the runtime exports takes the exact form", () => {
    const ids = [
      ["is", "flow-error"],
      ["create", "flow-client"],
      ["with", "middleware"],
      ["acme", "flow"],
    ].map(([org, name]) => ({ org: org ?? "", name: name ?? "" }));
    expect(
      indexNamespaces(ids, ["isFlowError", "createFlowClient", "withMiddleware", "FlowError"]),
    ).toEqual(["is$flow_error", "create$flow_client", "with$middleware", "acmeFlow"]);
  });

  it.each([
    [
      "unique ids keep <org>.<flow>",
      [
        ["acme", "qa"],
        ["globex", "qa"],
      ],
      ["acme.qa", "globex.qa"],
    ],
    [
      "ids that fold to the same letters: the first in code-unit order keeps its name",
      [
        ["a1", "deep"],
        ["a-1", "deep"],
      ],
      ["a1.deep.2", "a-1.deep"],
    ],
    [
      "org/name boundary moved",
      [
        ["acme", "qax"],
        ["acmeq", "ax"],
        ["acme-q", "a-x"],
      ],
      ["acme.qax.2", "acmeq.ax.3", "acme-q.a-x"],
    ],
    [
      "a suffix that another flow's name already folds to is skipped",
      [
        ["a1", "deep"],
        ["a-1", "deep"],
        ["a1", "deep2"],
      ],
      ["a1.deep.3", "a-1.deep", "a1.deep2"],
    ],
  ])("operationIds: %s", (_, ids, want) => {
    const result = operationIds(ids.map(([org, name]) => ({ org: org ?? "", name: name ?? "" })));
    expect(result).toEqual(want);
    expect(new Set(result.map(caseFold)).size).toBe(result.length);
  });

  it("foldUnique keeps org tags apart too, whatever order they come in", () => {
    expect(foldUnique(["@a1", "@a-1", "@acme"])).toEqual(["@a1.2", "@a-1", "@acme"]);
    expect(foldUnique(["@acme", "@a-1", "@a1"])).toEqual(["@acme", "@a-1", "@a1.2"]);
  });

  it.each([
    ["a-1.deep", "a1deep"],
    ["A1Deep", "a1deep"],
    ["_shared.money.Currency", "sharedmoneycurrency"],
  ])("caseFold(%j) is %j", (given, want) => {
    expect(caseFold(given)).toBe(want);
  });
});
