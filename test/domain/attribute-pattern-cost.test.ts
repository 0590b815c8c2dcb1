/** Custom-attribute patterns run inside the request: only those with a bounded worst case are accepted. */
import { describe, expect, it } from "vitest";
import { attributePatternProblem, checkCustomAttributeValues, compileAttributePattern } from "../../src/domain/custom-attributes/values";
import type { AttributeDefinition } from "../../src/domain/custom-attributes/rows";

const SAFE = [
  "^ord-\\d+$",
  "/^ORD-\\d+$/i",
  "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$",
  "^\\+?\\d{10,15}$",
  "^(\\d{3}-)?\\d{4}$",
  "^[A-Z]{2}\\d{6}$",
  "^(foo|bar)$",
  "(?<year>\\d{4})-\\d{2}",
  "^\\d*\\d*x$",
  "\\d*x",
  "^[a-z]+(?:-[a-z]+)?$",
  "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
  "^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$",
  "^(?:\\+|00)\\d{6,14}$",
  "^(?:[A-Z]{2}-){0,3}\\d{4}$",
  "^https?://[^\\s/$.?#].[^\\s]*$",
  "/^\\p{Lu}\\p{Ll}+$/u",
  "/^[a-z]+$/m",
  "^(?:foo|bar)-(?:one|two|three)$",
  "^(?=.*\\d)[A-Za-z\\d]{8,64}$",
];

const UNSAFE = [
  "^\\d*\\d*\\d*x$",
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

/** Shapes from published ReDoS write-ups (OWASP, the Cloudflare and Stack Overflow outages, CVE advisories). */
const KNOWN_REDOS = [
  // the report's finding: nested bounded repeats over an alternation of equal branches
  "^(?:(?:a|a){20}){20}$",
  "^(?:a{1,30}){1,30}$",
  "^(?:(?:ab|a){10}){10}$",
  "(.{0,1000}){0,1000}",
  "^(a?){40}a{40}$",
  // nested quantifiers
  "^(\\d+)*$",
  "(\\w+)+$",
  "^(([a-z])+.)+[A-Z]([a-z])+$",
  "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
  "^(\\s*,?\\s*)*$",
  "(?:a+){2,}",
  "^(?=(a+)+$)",
  "(?<=(a+)+)b",
  "/^(\\w+\\.?)+@/i",
  // overlapping alternation under a repeat
  "(a|b|ab)*c",
  "^(a|a?)+$",
  "(\\d|\\d\\d)+",
  "^(?:x|x?)*$",
  "((a+)|b)+",
  // polynomial: repetitions in sequence, or repeated
  "^(.*?,){11}P",
  ".*.*=.*",
  "[\\s\\S]*[\\s\\S]*[\\s\\S]*[\\s\\S]*$",
  "^\\d*\\d*\\d*\\d*\\d*$",
  "\\s*\\s*\\s*#",
  // backreferences, and the v flag's string classes
  "^(a+)\\1$",
  "/^[\\q{a|aa}]*$/v",
];

describe("attribute pattern cost", () => {
  it.each(SAFE)("accepts %s", (pattern) => {
    expect(attributePatternProblem(pattern)).toBeNull();
    expect(compileAttributePattern(pattern)).not.toBeNull();
  });

  it.each([...UNSAFE, ...KNOWN_REDOS])("refuses %s", (pattern) => {
    expect(attributePatternProblem(pattern)).toMatchObject({ code: expect.stringMatching(/^(slow_regex|invalid_regex)$/) });
    expect(compileAttributePattern(pattern)).toBeNull();
  });

  it("names a slow shape slow_regex and a broken one invalid_regex", () => {
    expect(attributePatternProblem("^(?:(?:a|a){20}){20}$")).toEqual({ message: expect.stringContaining("too long to match"), code: "slow_regex" });
    expect(attributePatternProblem("^(a")).toEqual({ message: "is not a valid regular expression", code: "invalid_regex" });
  });

  const definition = (regexPattern: string): AttributeDefinition =>
    ({ attributeKey: "code", attributeDisplayType: 0, regexPattern, regexCue: null, attributeValues: [] }) as unknown as AttributeDefinition;

  // Patterns saved before the check are still stored: matching bounds them by the value's length first.
  it.each(KNOWN_REDOS.filter((p) => !p.includes("\\1") && !p.endsWith("/v")))("never runs the stored pattern %s away", (pattern) => {
    for (const value of ["a".repeat(31), "a".repeat(1499) + "!", "1,".repeat(700)]) {
      const started = performance.now();
      const errors = checkCustomAttributeValues([definition(pattern)], { code: value });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(errors.every((e) => e.code === "pattern_unusable" || e.code === "pattern_mismatch")).toBe(true);
    }
  });

  it("answers a stored catastrophic pattern as unusable, and a value longer than an anchored pattern allows as a mismatch", () => {
    expect(checkCustomAttributeValues([definition("^(?:(?:a|a){20}){20}$")], { code: "a".repeat(31) })).toEqual([
      { field: "custom_attributes.code", message: expect.stringContaining("an administrator must change it"), code: "pattern_unusable" },
    ]);
    expect(checkCustomAttributeValues([definition("^\\d{3}$")], { code: "1".repeat(1500) })).toEqual([
      { field: "custom_attributes.code", message: "does not match the required pattern", code: "pattern_mismatch" },
    ]);
    expect(checkCustomAttributeValues([definition("^\\d{3}$")], { code: "123" })).toEqual([]);
  });

  // A refused shape (exponential) would not finish at all on 1,500 characters; the slowest accepted ones
  // are quadratic or a bounded nest near the budget, tens of milliseconds. The bound leaves room for a
  // loaded machine without letting a hang pass.
  it.each([
    ["^\\d*\\d*x$", "1".repeat(1500)],
    ["^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "a@" + ".".repeat(1497) + "@"],
    ["^(?:a|a){16}$", "a".repeat(15) + "!"],
  ])("matches a 1,500-character value against the accepted shape %s in bounded time", (source, value) => {
    const pattern = compileAttributePattern(source)!;
    expect(pattern).not.toBeNull();
    const started = performance.now();
    expect(pattern.test(value)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
