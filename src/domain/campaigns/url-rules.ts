/**
 * An ongoing campaign's `trigger_rules.url`, matched against the page a widget is on the way Chatwoot's
 * widget matches it: the rule is a URL pattern (the URL Pattern standard: `*` for any text,
 * `https://{*.}?shop.example/*` for any subdomain); a rule ending in `/` matches that path and anything
 * below it with any query or fragment; a trailing `/` of the page's path is ignored.
 */

/** The longest rule stored (a URL's usual limit). */
export const MAX_URL_RULE = 2048;

/** The longest page URL a widget may ask about (the rule's limit). */
export const MAX_PAGE_URL = MAX_URL_RULE;

/**
 * The most `*` a rule may hold. A pattern compiles to a regular expression, and each wildcard multiplies
 * the ways a long URL can fail to match: with two (in one part of the URL), a page URL of MAX_PAGE_URL
 * characters fails in about 10 ms; with three, in seconds.
 */
export const MAX_URL_RULE_WILDCARDS = 2;

/** The rule as the pattern it stands for (Chatwoot's widget widens a trailing slash the same way). */
const patternOf = (rule: string) => (rule.endsWith("/") ? `${rule.slice(0, -1)}*\\?*\\#*` : rule);

/** The one group a rule may hold: any subdomain, right after the scheme (`https://{*.}?shop.example`). */
const SUBDOMAIN_GROUP = /^(https?:\/\/)\{\*\.\}\?/i;

/**
 * What is wrong with `rule` as a campaign's URL rule, or null. A rule runs against URLs visitors send,
 * so of the URL Pattern syntax only what matches in bounded time is taken: `*` (at most two, a trailing
 * `/` counting as one) and the subdomain group. Named groups (`:name`), regular-expression groups,
 * other `{...}` groups and the `+` modifier are refused: nested, they make one match take seconds.
 */
export function urlRuleProblem(rule: string): string | null {
  if (rule.length > MAX_URL_RULE) return `is too long (maximum is ${MAX_URL_RULE} characters)`;
  if (!/^https?:\/\//i.test(rule)) return "must start with http:// or https://";
  const wildcards = (rule.match(/\*/g) ?? []).length + (rule.endsWith("/") ? 1 : 0);
  if (wildcards > MAX_URL_RULE_WILDCARDS) return `may hold at most ${MAX_URL_RULE_WILDCARDS} wildcards (*), a trailing / counting as one`;
  const rest = rule.replace(SUBDOMAIN_GROUP, "$1").slice(rule.indexOf("//") + 2);
  if (/[(){}\\+]/.test(rest) || /:[A-Za-z_$]/.test(rest)) {
    return "may hold only * and a leading {*.}? as patterns: no groups, named parts (:name), + or backslashes (write + as %2B)";
  }
  try {
    new URLPattern(patternOf(rule));
    return null;
  } catch {
    return "is not a URL pattern";
  }
}

/** Whether the page at `pageUrl` matches the rule (false for anything that is not a URL). */
export function pageMatchesRule(rule: string, pageUrl: string): boolean {
  try {
    const page = new URL(pageUrl);
    if (page.pathname.endsWith("/")) page.pathname = page.pathname.slice(0, -1);
    return new URLPattern(patternOf(rule)).test(page.toString());
  } catch {
    return false;
  }
}
