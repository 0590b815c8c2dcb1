/**
 * The website widget's door (the `/widget` page and `/api/v1/widget/*`): a website inbox is named by its
 * `website_token`, and a visitor by the `source_id` of its contact inbox, which the widget's signed token
 * carries (the transport signs and checks the token; the domain sees only what it proved). Unlike the
 * public API's chain, a suspended account is told apart from an unknown token (Chatwoot answers 401 for
 * it), and only website inboxes have a widget.
 */
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { ACCOUNT_STATUS, AGENT_BOT_INBOX_STATUS } from "../kernel/enums";
import { DomainError, notFound } from "../kernel/errors";
import { type TransportScope } from "../kernel/scope";
import { batch } from "../kernel/batch";
import type { InboxRow, WidgetChannelRow } from "../inboxes/rows";
import { WIDGET_CHANNEL } from "../inboxes/inboxes";
import { type ContactChain, findContactChain } from "./chain";
import { createAnonymousVisitor } from "./contacts";

const { accounts, inboxes, webWidgetChannels, agentBotInboxes, agentBots, portals } = schema;

export type WidgetAccount = { id: number; locale: string; features: Record<string, boolean> };
export type WidgetPortal = typeof schema.portals.$inferSelect;

/** A website inbox as its widget is served: the inbox, its channel, its account, its bot's name, its portal. */
export type Website = {
  inbox: InboxRow;
  widget: WidgetChannelRow;
  account: WidgetAccount;
  agentBotName: string | null;
  portal: WidgetPortal | null;
};

/** What the widget's token proved: the visitor's source id in the inbox it was issued for. */
export type WidgetClaim = { sourceId: string; inboxId: number };

const inboxColumn = (token: string, column: typeof inboxes.id | typeof inboxes.accountId | typeof inboxes.channelId | typeof inboxes.portalId) =>
  sql<number>`(SELECT ${column} FROM ${inboxes} WHERE ${inboxes.identifier} = ${token} AND ${inboxes.channelType} = ${WIDGET_CHANNEL})`;

/** Chatwoot's 401 for a widget of a suspended account (`{"error": "Account is suspended"}`). */
const suspended = () =>
  new DomainError("unauthenticated", "Account is suspended", [{ field: "website_token", message: "Account is suspended", code: "account_suspended" }]);

/** The website inbox with this token: a 404 on `website_token` for an unknown one, a 401 for a suspended account. */
export async function findWebsite(transport: TransportScope, token: string): Promise<Website> {
  const { db } = transport;
  const accountId = inboxColumn(token, inboxes.accountId);
  const [inboxRows, widgetRows, accountRows, botRows, portalRows] = await batch(db, [
    db.select().from(inboxes).where(and(eq(inboxes.identifier, token), eq(inboxes.channelType, WIDGET_CHANNEL))),
    db.select().from(webWidgetChannels).where(and(sql`${webWidgetChannels.accountId} = ${accountId}`, sql`${webWidgetChannels.id} = ${inboxColumn(token, inboxes.channelId)}`)),
    db.select({ id: accounts.id, status: accounts.status, locale: accounts.locale, features: accounts.features }).from(accounts).where(sql`${accounts.id} = ${accountId}`),
    db
      .select({ name: agentBots.name })
      .from(agentBotInboxes)
      .innerJoin(agentBots, eq(agentBots.id, agentBotInboxes.agentBotId))
      .where(and(sql`${agentBotInboxes.accountId} = ${accountId}`, sql`${agentBotInboxes.inboxId} = ${inboxColumn(token, inboxes.id)}`, eq(agentBotInboxes.status, AGENT_BOT_INBOX_STATUS.active))),
    db.select().from(portals).where(and(sql`${portals.accountId} = ${accountId}`, sql`${portals.id} = ${inboxColumn(token, inboxes.portalId)}`)),
  ]);
  const [inbox, widget, account] = [inboxRows[0], widgetRows[0], accountRows[0]];
  if (!inbox || !widget || !account) throw notFound("Web widget", token, "website_token");
  if (account.status !== ACCOUNT_STATUS.active) throw suspended();
  return { inbox, widget, account: { id: account.id, locale: account.locale, features: account.features }, agentBotName: botRows[0]?.name ?? null, portal: portalRows[0] ?? null };
}

/** The visitor a claim names, when it is a contact inbox of this website's inbox; null otherwise. */
async function claimedVisitor(transport: TransportScope, website: Website, claim: WidgetClaim | null): Promise<ContactChain | null> {
  if (!claim || claim.inboxId !== website.inbox.id) return null;
  try {
    return await findContactChain(transport, website.inbox.identifier, claim.sourceId);
  } catch (error) {
    if (error instanceof DomainError && error.code === "not_found") return null;
    throw error;
  }
}

/**
 * GET /widget: the visitor the token names, or, without a token that names one of this inbox's
 * visitors, a new anonymous contact with its contact inbox (through the public API's contact create,
 * so its events and counters are the same). `created` says which, so that the transport issues a token.
 * `beforeNewVisitor` runs just before a contact is made, whatever the token was (none, forged, or
 * another inbox's valid one), so that the transport's allowance for new visitors counts every one.
 */
export async function openWebsiteVisitor(
  transport: TransportScope,
  token: string,
  claim: WidgetClaim | null,
  beforeNewVisitor: () => Promise<void>,
): Promise<{ website: Website; chain: ContactChain; created: boolean }> {
  const website = await findWebsite(transport, token);
  const known = await claimedVisitor(transport, website, claim);
  if (known) return { website, chain: known, created: false };
  await beforeNewVisitor();
  const sourceId = await createAnonymousVisitor(transport, website.inbox);
  return { website, chain: await findContactChain(transport, token, sourceId), created: true };
}

/** `/api/v1/widget/*`: the visitor of a valid token of this inbox; anything else is Chatwoot's 404. */
export async function findWebsiteVisitor(transport: TransportScope, token: string, claim: WidgetClaim | null): Promise<{ website: Website; chain: ContactChain }> {
  const website = await findWebsite(transport, token);
  const chain = await claimedVisitor(transport, website, claim);
  if (!chain) throw notFound("Contact", "of this widget token", "X-Auth-Token");
  return { website, chain };
}
