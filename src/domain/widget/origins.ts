/**
 * Which web pages may call the public API of an inbox from a browser. A website inbox may list its
 * `allowed_domains` (comma or newline separated host names, `*.example.com` for subdomains); an empty
 * list, and every API inbox, allow any origin, since the widget runs on the customer's own site.
 */
import { eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { TransportScope } from "../kernel/scope";
import { WIDGET_CHANNEL } from "../inboxes/inboxes";
import { batch } from "../kernel/batch";

const { inboxes, webWidgetChannels } = schema;

export function parseAllowedDomains(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/\/.*$/, ""))
    .filter((d) => d !== "");
}

/** Whether `origin` (scheme://host[:port]) is one of `domains`; a domain without a port matches any port. */
export function originMatches(origin: string, domains: string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return domains.some((domain) => {
    const [name, port] = domain.split(":");
    if (port && port !== url.port) return false;
    if (name.startsWith("*.")) return host.endsWith(name.slice(1)) && host.length > name.length - 1;
    return host === name;
  });
}

/** Whether a page at `origin` may call the inbox's public API; an unknown inbox answers its own 404 later. */
export async function originAllowed(scope: TransportScope, identifier: string, origin: string): Promise<boolean> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db
      .select({ allowedDomains: webWidgetChannels.allowedDomains })
      .from(webWidgetChannels)
      .where(
        eq(
          webWidgetChannels.id,
          sql`(SELECT ${inboxes.channelId} FROM ${inboxes} WHERE ${inboxes.identifier} = ${identifier} AND ${inboxes.channelType} = ${WIDGET_CHANNEL})`,
        ),
      ),
  ]);
  const domains = parseAllowedDomains(rows[0]?.allowedDomains ?? "");
  return domains.length === 0 || originMatches(origin, domains);
}
