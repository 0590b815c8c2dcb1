import { zValidator } from "@hono/zod-validator";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { type ErrorEntry, invalid } from "../domain/kernel/errors";
import { readBody } from "./body";
import type { AppContext } from "./app-env";

type Issue = z.core.$ZodIssue & { input?: unknown };

/** "conditions[0].values" from ["conditions", 0, "values"]. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === "number") return `${acc}[${key}]`;
    return acc ? `${acc}.${String(key)}` : String(key);
  }, "");
}

function describe(issue: Issue): { message: string; code: string } {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return { message: "is required", code: "required" };
      if (issue.input === null) return { message: "must not be null", code: "required" };
      return { message: `must be ${article(issue.expected)}`, code: "invalid_type" };
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) return { message: "must not be blank", code: "blank" };
      if (issue.origin === "string") return { message: `is too short (minimum is ${issue.minimum} characters)`, code: "too_short" };
      if (issue.origin === "array") return { message: `must have at least ${issue.minimum} item(s)`, code: "too_few" };
      // an exclusive bound (`positive()` is "> 0") must not read "at least 0", which 0 satisfies
      if (issue.inclusive === false) return { message: `must be greater than ${issue.minimum}`, code: "out_of_range" };
      return { message: `must be at least ${issue.minimum}`, code: "out_of_range" };
    case "too_big":
      if (issue.origin === "string") return { message: `is too long (maximum is ${issue.maximum} characters)`, code: "too_long" };
      if (issue.origin === "array") return { message: `must have at most ${issue.maximum} item(s)`, code: "too_many" };
      if (issue.inclusive === false) return { message: `must be less than ${issue.maximum}`, code: "out_of_range" };
      return { message: `must be at most ${issue.maximum}`, code: "out_of_range" };
    case "invalid_value":
      return { message: `must be one of: ${issue.values.map((v) => String(v)).join(", ")}`, code: "invalid_value" };
    case "invalid_union":
      // EnumValue and similar "one of these shapes" schemas carry their own message
      return { message: issue.message, code: "invalid_value" };
    case "invalid_format":
      return { message: issue.message || `is not a valid ${issue.format}`, code: "invalid_format" };
    case "unrecognized_keys":
      return { message: `has unknown keys: ${issue.keys.join(", ")}`, code: "unknown_keys" };
    case "custom":
      return { message: issue.message, code: String(issue.params?.code ?? "invalid") };
    default:
      return { message: issue.message, code: "invalid" };
  }
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

export function issuesToErrors(issues: readonly Issue[], prefix = ""): ErrorEntry[] {
  return issues.map((issue) => {
    const path = fieldPath(issue.path);
    const field = prefix && path ? `${prefix}.${path}` : prefix || path;
    return { field, ...describe(issue) };
  });
}

/**
 * zod validation for one request target. A failure is a 422 with one entry per problem, whose `field` is
 * the path of the offending value. Handlers read the parsed value with `c.req.valid(target)`.
 * `validate("json", ...)` makes sure the body was read (src/http/body.ts; a surface's `routeBody`
 * normally read it already).
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  const validator = zValidator(
    target,
    schema,
    (result) => {
      if (!result.success) throw invalid(issuesToErrors(result.error.issues as Issue[]));
    },
    // reportInput lets `describe` tell a missing value from a wrong one; the cast bridges zod-validator's
    // own copy of the zod result type.
    { validationFunction: (s, value) => s.safeParseAsync(value, { reportInput: true }) as never },
  );
  const middleware: typeof validator =
    target === "json"
      ? async (c, next) => {
          await readBody(c as unknown as AppContext);
          return validator(c, next);
        }
      : validator;
  // The API document (src/http/openapi.ts, through hono-openapi) reads the request's parameters and body
  // from this mark: the schema that validates is the schema that is documented.
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}
