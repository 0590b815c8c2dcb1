import { z } from "zod";
import { Contact, Conversation, Message } from "./responses";

/** `page` from 1 (Chatwoot's `page`; 15 results of each kind a page), at most 10,000 as the other lists. */
const Page = z
  .string()
  .regex(/^\d+$/, { error: "must be a positive integer" })
  .refine((v) => Number(v) >= 1 && Number(v) <= 10_000, { error: "must be between 1 and 10000" })
  .optional()
  .transform((v) => Number(v ?? 1));

/** GET /search and its sub-routes: the text (trimmed; three characters at least, checked by the domain) and the page. */
export const SearchQuery = z.object({ q: z.string().trim().min(1).max(255), page: Page });

const SearchContact = Contact.pick({ id: true, name: true, email: true, phone_number: true, identifier: true, additional_attributes: true, last_activity_at: true }).meta({
  id: "SearchContact",
});

const SearchConversation = z
  .looseObject({
    id: Conversation.shape.id,
    account_id: z.number().int(),
    created_at: z.number().int(),
    message: z.union([Message, z.object({})]).describe("the conversation's first message"),
    contact: z.union([SearchContact, z.object({})]),
    inbox: z.looseObject({ id: z.number().int().optional(), channel_id: z.number().int().optional(), name: z.string().optional(), channel_type: z.string().optional() }),
    assignee_type: z.enum(["User", "AgentBot"]).optional(),
    agent: z.looseObject({ id: z.number().int() }).optional(),
  })
  .meta({ id: "SearchConversation" });

const SearchArticle = z
  .looseObject({
    id: z.number().int(),
    title: z.string(),
    locale: z.string(),
    content: z.string(),
    slug: z.string(),
    portal_slug: z.string(),
    account_id: z.number().int(),
    category_name: z.string().nullable(),
    status: z.string(),
    updated_at: z.number().int(),
  })
  .meta({ id: "SearchArticle" });

const kinds = { contacts: z.array(SearchContact), conversations: z.array(SearchConversation), messages: z.array(Message), articles: z.array(SearchArticle) };

export const SearchResults = z.looseObject({ payload: z.looseObject(kinds) });
export const searchResultsOf = <K extends keyof typeof kinds>(kind: K) => z.looseObject({ payload: z.looseObject({ [kind]: kinds[kind] } as Pick<typeof kinds, K>) });
