/** Custom-attribute patterns run inside the request: only those with a bounded worst case are accepted. */
import { describe, expect, it } from "vitest";
import { attributePatternProblem, compileAttributePattern } from "../../src/domain/custom-attributes/values";

const SAFE = [
  "^ord-\\d+$",
  "/^ORD-\\d+$/i",
  "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$",
  "^\\+?\\d{10,15}$",
  "^(\\d{3}-)?\\d{4}$",
  "^[A-Z]{2}\\d{6}$",
  "^(foo|bar)$",
  "(?<year>\\d{4})-\\d{2}",
  "^\\d*\\d*\\d*x$",
  "^[a-z]+(?:-[a-z]+)?$",
];

const UNSAFE = [
  "^(a+)+$",
  "(a*)*b",
  "^(a|a)*$",
  "^(a|aa)+$",
  "(x+x+)+y",
  "^(\\w+\\s?)*$",
  "(.*a){20}",
  "^\\d*\\d*\\d*\\d*x$",
  "\\d+\\d+\\d+x",
  "(a)\\1",
  "(?<n>a)\\k<n>",
  "^((ab)*c)*$",
  "^(\\d{1,30})+$",
];

describe("attribute pattern cost", () => {
  it.each(SAFE)("accepts %s", (pattern) => {
    expect(attributePatternProblem(pattern)).toBeNull();
    expect(compileAttributePattern(pattern)).not.toBeNull();
  });

  it.each(UNSAFE)("refuses %s", (pattern) => {
    expect(attributePatternProblem(pattern)).not.toBeNull();
    expect(compileAttributePattern(pattern)).toBeNull();
  });

  // A refused shape (exponential) would not finish at all on 1,500 characters; the slowest accepted one is
  // cubic, about a second here. The bound leaves room for a loaded machine without letting a hang pass.
  it("matches a 1,500-character value against the slowest accepted shape in bounded time", () => {
    const pattern = compileAttributePattern("^\\d*\\d*\\d*x$")!;
    const started = performance.now();
    expect(pattern.test("1".repeat(1500))).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
