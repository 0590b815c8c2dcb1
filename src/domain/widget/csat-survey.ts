/**
 * The CSAT survey link (`/survey/responses/{conversation uuid}`): a contact who is not in the widget
 * (an API inbox's customer, a mail reader) rates the conversation through the public API with the
 * conversation's uuid alone, as Chatwoot's survey page does. The uuid is random (122 bits) and appears
 * only in the link sent to that contact, so it is the contact's credential for this one survey and
 * nothing else: it reaches the conversation's survey message, never its other messages.
 *
 * The answer goes through the same function as the widget's (`submitMessageValues`), acting as the
 * conversation's contact, so the expiry, the event and the `csat_survey_responses` row are the same.
 */
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { ACCOUNT_STATUS, CONTENT_TYPE } from "../kernel/enums";
import { notFound } from "../kernel/errors";
import { batch } from "../kernel/batch";
import { type TransportScope } from "../kernel/scope";
import type { ConversationChain } from "./chain";
import { type SubmittedValues, csatSurveyLocked, submitMessageValues } from "./conversations";
import type { MessageRow } from "../conversations/rows";
import { accountOfConversationUuid } from "../conversations/by-uuid";
import { WIDGET_CHANNEL } from "../inboxes/inboxes";

const { accounts, inboxes, webWidgetChannels, contactInboxes, contacts, conversations, messages, csatSurveyResponses } = schema;

export type CsatSurveyAnswer = { id: number; rating: number; feedbackMessage: string | null; answeredAt: number; updatedAt: number };

/** A survey as its page shows it: the survey message, the conversation it rates and the answer so far. */
export type CsatSurvey = { chain: ConversationChain; message: MessageRow; answer: CsatSurveyAnswer | null; locked: boolean };

type ConversationColumn = typeof conversations.id | typeof conversations.accountId | typeof conversations.inboxId | typeof conversations.contactInboxId | typeof conversations.contactId;

/** A column of the conversation with this uuid, as a subquery: the whole survey is read in one batch. */
const column = (uuid: string, name: ConversationColumn) => sql<number>`(SELECT ${name} FROM ${conversations} WHERE ${conversations.uuid} = ${uuid})`;

/** The survey of the conversation with this uuid: one batch; a 404 for an unknown uuid, a suspended account or no survey. */
export async function findCsatSurvey(transport: TransportScope, uuid: string): Promise<CsatSurvey> {
  const { db } = transport;
  // Chatwoot's survey is the conversation's first input_csat message
  // the conversation's account, which every row read after it must belong to (a uuid names one conversation)
  const accountId = column(uuid, conversations.accountId);
  const surveyMessageId = sql`(SELECT ${messages.id} FROM ${messages} WHERE ${messages.accountId} = ${accountId} AND ${messages.conversationId} = ${column(uuid, conversations.id)} AND ${messages.contentType} = ${CONTENT_TYPE.input_csat} ORDER BY ${messages.id} LIMIT 1)`;
  const [conversationRows, inboxRows, widgetRows, accountRows, contactInboxRows, contactRows, messageRows, answerRows] = await batch(db, [
    db.select().from(conversations).where(eq(conversations.uuid, uuid)),
    db.select().from(inboxes).where(and(sql`${inboxes.accountId} = ${accountId}`, sql`${inboxes.id} = ${column(uuid, conversations.inboxId)}`)),
    db
      .select()
      .from(webWidgetChannels)
      .where(sql`${webWidgetChannels.accountId} = ${accountId} AND ${webWidgetChannels.id} = (SELECT ${inboxes.channelId} FROM ${inboxes} WHERE ${inboxes.accountId} = ${accountId} AND ${inboxes.id} = ${column(uuid, conversations.inboxId)} AND ${inboxes.channelType} = ${WIDGET_CHANNEL})`),
    db.select({ id: accounts.id, status: accounts.status }).from(accounts).where(sql`${accounts.id} = ${column(uuid, conversations.accountId)}`),
    db.select().from(contactInboxes).where(and(sql`${contactInboxes.accountId} = ${accountId}`, sql`${contactInboxes.id} = ${column(uuid, conversations.contactInboxId)}`)),
    db.select().from(contacts).where(and(sql`${contacts.accountId} = ${accountId}`, sql`${contacts.id} = ${column(uuid, conversations.contactId)}`)),
    db.select().from(messages).where(and(sql`${messages.accountId} = ${accountId}`, sql`${messages.id} = ${surveyMessageId}`)),
    db
      .select({ id: csatSurveyResponses.id, rating: csatSurveyResponses.rating, feedbackMessage: csatSurveyResponses.feedbackMessage, answeredAt: csatSurveyResponses.answeredAt, updatedAt: csatSurveyResponses.updatedAt })
      .from(csatSurveyResponses)
      .where(and(sql`${csatSurveyResponses.accountId} = ${accountId}`, sql`${csatSurveyResponses.messageId} = ${surveyMessageId}`)),
  ]);
  const conversation = conversationRows[0];
  const inbox = inboxRows[0];
  const contactInbox = contactInboxRows[0];
  const contact = contactRows[0];
  const message = messageRows[0];
  const account = accountRows[0];
  if (!conversation || !inbox || !contactInbox || !contact || account?.status !== ACCOUNT_STATUS.active) {
    throw notFound("Conversation", uuid, "conversation_uuid");
  }
  if (!message) throw notFound("CSAT survey", uuid, "conversation_uuid");
  const chain: ConversationChain = { inbox, widget: widgetRows[0] ?? null, contactInbox, contact, conversation };
  const row = answerRows[0];
  const answer = row && row.rating !== null && row.answeredAt !== null ? { ...row, rating: row.rating, answeredAt: row.answeredAt } : null;
  return { chain, message, answer, locked: csatSurveyLocked(inbox, message) };
}

/** The contact's rating and feedback (a later answer replaces them until the survey expires). */
export async function answerCsatSurvey(transport: TransportScope, uuid: string, values: SubmittedValues): Promise<CsatSurvey> {
  const survey = await findCsatSurvey(transport, uuid);
  await submitMessageValues(transport, survey.chain, survey.message.id, values);
  return findCsatSurvey(transport, uuid);
}

/** The account of the survey's conversation (its uuid is the only thing the link holds). */
export const csatSurveyAccount = (transport: TransportScope, uuid: string): Promise<number | null> => accountOfConversationUuid(transport, uuid);
