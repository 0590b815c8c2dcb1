/**
 * CSAT survey responses (Chatwoot's csat_survey_responses index, metrics and download). The surveys are
 * written by the resolution that sends them and completed by the contact's answer
 * (conversations/csat.ts). Reads go through the (account, answered_at) and (account, sent_at) indexes:
 * they read the surveys of the asked window, not the account's history.
 */
import { type SQL, and, asc, desc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";

const { csatSurveyResponses: responses, contacts, users, conversations } = schema;

/** Chatwoot's CSAT page size. */
export const CSAT_PAGE_SIZE = 25;
/** The most rows one CSV download holds (newest first). */
export const CSAT_DOWNLOAD_LIMIT = 10_000;

export type CsatFilters = {
  sinceMs?: number;
  untilMs?: number;
  userIds?: number[];
  inboxId?: number;
  teamId?: number;
  ratings?: number[];
};

/** The filters other than time, which the answered list and the sent count share. */
function sharedConditions(scope: AccountScope, f: CsatFilters): SQL[] {
  const conditions: SQL[] = [eq(responses.accountId, scope.accountId)];
  if (f.userIds?.length) conditions.push(inArray(responses.assignedAgentId, f.userIds));
  if (f.inboxId !== undefined) conditions.push(eq(responses.inboxId, f.inboxId));
  if (f.teamId !== undefined) conditions.push(eq(responses.teamId, f.teamId));
  return conditions;
}

function answeredConditions(scope: AccountScope, f: CsatFilters) {
  return and(
    ...sharedConditions(scope, f),
    isNotNull(responses.answeredAt),
    f.sinceMs !== undefined ? gte(responses.answeredAt, f.sinceMs) : undefined,
    f.untilMs !== undefined ? lt(responses.answeredAt, f.untilMs) : undefined,
    f.ratings?.length ? inArray(responses.rating, f.ratings) : undefined,
  );
}

export type CsatResponseRow = {
  response: typeof responses.$inferSelect;
  displayId: number | null;
  contact: { id: number; name: string; email: string | null; phoneNumber: string | null; avatarUrl: string | null } | null;
  agent: { id: number; name: string; email: string; avatarUrl: string | null } | null;
};

function responsesQuery(scope: AccountScope, f: CsatFilters, order: "asc" | "desc", limit: number, offset: number) {
  return scope.db
    .select({
      response: responses,
      // joined columns under their own names: D1 answers columns by name, and several tables have `id`
      displayId: sql<number | null>`${conversations.displayId}`.as("conversation_display_id"),
      contactId: sql<number | null>`${contacts.id}`.as("contact_id_joined"),
      contactName: sql<string | null>`${contacts.name}`.as("contact_name"),
      contactEmail: sql<string | null>`${contacts.email}`.as("contact_email"),
      contactPhone: sql<string | null>`${contacts.phoneNumber}`.as("contact_phone"),
      contactAvatar: sql<string | null>`${contacts.avatarUrl}`.as("contact_avatar"),
      agentId: sql<number | null>`${users.id}`.as("agent_id"),
      agentName: sql<string | null>`${users.name}`.as("agent_name"),
      agentEmail: sql<string | null>`${users.email}`.as("agent_email"),
      agentAvatar: sql<string | null>`${users.avatarUrl}`.as("agent_avatar"),
    })
    .from(responses)
    .leftJoin(conversations, and(eq(conversations.id, responses.conversationId), eq(conversations.accountId, responses.accountId)))
    .leftJoin(contacts, and(eq(contacts.id, responses.contactId), eq(contacts.accountId, responses.accountId)))
    .leftJoin(users, eq(users.id, responses.assignedAgentId))
    .where(answeredConditions(scope, f))
    .orderBy(order === "asc" ? asc(responses.answeredAt) : desc(responses.answeredAt), order === "asc" ? asc(responses.id) : desc(responses.id))
    .limit(limit)
    .offset(offset);
}

type Joined = Awaited<ReturnType<typeof responsesQuery>>[number];

const toRow = (r: Joined): CsatResponseRow => ({
  response: r.response,
  displayId: r.displayId,
  contact: r.contactId === null ? null : { id: r.contactId, name: r.contactName ?? "", email: r.contactEmail, phoneNumber: r.contactPhone, avatarUrl: r.contactAvatar },
  agent: r.agentId === null ? null : { id: r.agentId, name: r.agentName ?? "", email: r.agentEmail ?? "", avatarUrl: r.agentAvatar },
});

/** A page of answered surveys, newest answer first unless `order` is asc. */
export async function listCsatResponses(scope: AccountScope, f: CsatFilters, page: number, order: "asc" | "desc"): Promise<CsatResponseRow[]> {
  const { rows } = await batchNamed(scope.db, { rows: responsesQuery(scope, f, order, CSAT_PAGE_SIZE, (page - 1) * CSAT_PAGE_SIZE) });
  return rows.map(toRow);
}

/** Every answered survey of the filters, for the CSV download (at most CSAT_DOWNLOAD_LIMIT, newest first). */
export async function csatResponsesForDownload(scope: AccountScope, f: CsatFilters): Promise<CsatResponseRow[]> {
  const { rows } = await batchNamed(scope.db, { rows: responsesQuery(scope, f, "desc", CSAT_DOWNLOAD_LIMIT, 0) });
  return rows.map(toRow);
}

export type CsatMetrics = { totalCount: number; ratingsCount: Record<string, number>; totalSentMessagesCount: number };

/** Answers per rating and surveys sent, with the same filters (surveys sent by the time they were sent). */
export async function csatMetrics(scope: AccountScope, f: CsatFilters): Promise<CsatMetrics> {
  const read = await batchNamed(scope.db, {
    ratings: scope.db
      .select({ rating: responses.rating, count: sql<number>`count(*)` })
      .from(responses)
      .where(answeredConditions(scope, f))
      .groupBy(responses.rating),
    sent: scope.db
      .select({ count: sql<number>`count(*)` })
      .from(responses)
      .where(
        and(
          ...sharedConditions(scope, f),
          f.sinceMs !== undefined ? gte(responses.sentAt, f.sinceMs) : undefined,
          f.untilMs !== undefined ? lt(responses.sentAt, f.untilMs) : undefined,
        ),
      ),
  });
  const ratingsCount: Record<string, number> = {};
  let totalCount = 0;
  for (const row of read.ratings) {
    ratingsCount[String(row.rating)] = Number(row.count);
    totalCount += Number(row.count);
  }
  return { totalCount, ratingsCount, totalSentMessagesCount: Number(read.sent[0]?.count ?? 0) };
}
