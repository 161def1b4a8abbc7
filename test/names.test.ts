import { describe, expect, it } from "vitest";
import { flowNames, indexNamespaces, pascalCase } from "../src/model/names.js";

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
    ["acme", "qa", { typePrefix: "Qa", factory: "createQaClient", flowConst: "qaFlow", validators: "qaValidators", componentStem: "acme.qa" }],
    ["3m", "2fa-check", { typePrefix: "Flow2faCheck", factory: "createFlow2faCheckClient", flowConst: "flow2faCheckFlow", validators: "flow2faCheckValidators", componentStem: "3m.2fa-check" }],
  ])("flowNames(%j, %j)", (org, name, want) => {
    expect(flowNames(org, name)).toEqual(want);
  });

  it.each([
    ["readable when unique", [["acme", "qa"], ["globex", "qa"]], ["acmeQa", "globexQa"]],
    ["an org starting with a digit", [["3m", "x"]], ["flow3mX"]],
    ["the exact form for ids that meet on one readable name", [["acme", "qa-x"], ["acme-qa", "x"], ["acme", "y"]], ["acme$qa_x", "acme_qa$x", "acmeY"]],
  ])("index namespaces: %s", (_, ids, want) => {
    expect(indexNamespaces((ids as string[][]).map(([org, name]) => ({ org: org ?? "", name: name ?? "" })))).toEqual(want);
  });
});
