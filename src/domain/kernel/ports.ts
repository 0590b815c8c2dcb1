/**
 * The effects the domain asks for after a change has committed, as interfaces the domain owns. The
 * domain says what happened (a message created, a status changed, someone typing); the implementation
 * (src/ports.ts), put in the scope where a transport builds it (src/http/scopes.ts, src/jobs/scope.ts),
 * renders the frames with the views and reaches the Durable Objects. So the domain imports no transport,
 * no room and no view; a scope the domain derives carries its transport's ports over.
 */
import type { ConversationRow, MessageWithSender } from "../conversations/rows";
import type { AVAILABILITIES } from "./enums";
import type { BulkActionMessage } from "./bulk-inputs";

type Availability = (typeof AVAILABILITIES)[number];

/** Someone who can type in a conversation. */
export type Participant = { type: "contact" | "user" | "agent_bot"; id: number };

/** What a typing change needs to be announced to the room and to webhooks (the conversation by its row id). */
export type TypingContext = {
  accountId: number;
  conversationId: number;
  displayId: number;
  user: Participant & { name: string };
  isPrivate: boolean;
};

/**
 * A conversation's live room. Publishing happens after the batch has committed, so subscribers only
 * ever see what is stored; a room that cannot be reached costs the subscribers a frame, never the
 * change (the implementation logs and swallows its failures).
 */
export interface LiveRooms {
  /** message.created / message.updated; private notes and activity messages reach agents only. */
  publishMessage(conversation: ConversationRow, message: MessageWithSender, event: "message.created" | "message.updated"): Promise<void>;
  /** conversation.status_changed, when a change moved the status (nothing otherwise). */
  publishStatusChange(before: Pick<ConversationRow, "status">, after: ConversationRow): Promise<void>;
  /** Sets a participant's typing state in the room; answers whether it changed. */
  toggleTyping(context: TypingContext, on: boolean): Promise<{ changed: boolean }>;
}

/**
 * What auto-assignment asks of the account's presence (src/domain/assignment): among the candidates (the
 * conversation's eligible member agents, each with their open conversations), the agent to assign.
 */
export type AssigneeClaim = {
  inboxId: number;
  /** the conversation's row id: a conversation is handed out once, however many triggers ask for it */
  conversationId: number;
  candidates: Array<{ userId: number; openConversations: number }>;
  order: "round_robin" | "balanced";
  /** the fair-distribution cap: assignments per agent in the inbox within `windowMs`; null for none */
  limit: number | null;
  windowMs: number;
};

/** Everyone of an account, for `LiveFeed.accessChanged`: its users and its contacts. */
export const EVERYONE = "everyone";

/** The account's live feed, beyond the committed changes it is sent (src/feed): what it keeps of people. */
export interface LiveFeed {
  /** A user chose another availability in an account: their presence shows it from now on. */
  availabilityChanged(accountId: number, userId: number, availability: Availability): Promise<void>;
  /**
   * The agent to assign, or null: only agents online now and available (not busy), under the cap, in the
   * order (round robin: whose turn came longest ago; balanced: fewest open conversations). The pick is
   * remembered (the turn, the cap's count) where presence is kept, one decision at a time per account,
   * so that two agents alternate exactly however many conversations arrive together.
   */
  claimAssignee(accountId: number, claim: AssigneeClaim): Promise<number | null>;
  /**
   * What some users may see in an account changed (a membership, a role, a key, a sign-in ended), after
   * the change has committed: their live sockets in the account (the feed's subscriptions, the
   * conversation rooms they joined) close at once, telling why, and whatever they open again is checked
   * afresh. Frames are never sent on a socket once this has answered. EVERYONE (the account suspended or
   * being deleted) closes every socket of the account, its contacts' room sockets included.
   */
  accessChanged(accountId: number, userIds: number[] | typeof EVERYONE): Promise<void>;
  /**
   * Who may see one conversation (by row id) may have narrowed (it left a team): the users' sockets in its
   * room close as for `accessChanged`, and those who still see it open them again with a new ticket.
   */
  conversationAccessChanged(accountId: number, conversationId: number): Promise<void>;
}

/**
 * One step of a contact import or export, for the queue consumer: the step names where it starts (the
 * import's byte offset, the export's segment), so a message delivered twice, or one the sweep re-sent, is
 * recognised by the job's stored progress and does nothing.
 */
export type ContactTransferMessage =
  | { kind: "contact_import"; accountId: number; importId: number; offset: number }
  | { kind: "contact_export"; accountId: number; exportId: number; segment: number };

/**
 * One step of a one-off campaign's run (src/domain/campaigns/runs.ts): the contacts after `cursor`; a
 * message whose cursor is no longer the run's stored one does nothing.
 */
export type CampaignRunMessage = { kind: "campaign_run"; accountId: number; campaignId: number; cursor: number };

/** A reader opened a published article: counted in batches by the queue consumer, not one write per read. */
export type ArticleViewMessage = { kind: "article_view"; accountId: number; articleId: number };

/** Work the domain hands to the background (the events queue) once the change that asks for it has committed. */
export interface BackgroundWork {
  contactTransfer(message: ContactTransferMessage): Promise<void>;
  /** Slices of a bulk action too large for its request; a send that fails throws (the request then fails). */
  bulkAction(messages: BulkActionMessage[]): Promise<void>;
  /** The next step of a campaign's run; a send that fails is logged, and the minute sweep sends it again. */
  campaignRun(message: CampaignRunMessage): Promise<void>;
  /** Counts one view of the article later; a view that cannot be queued is lost (and logged), never the read. */
  articleViewed(accountId: number, articleId: number): Promise<void>;
}

/**
 * Allowances for effects that leave the service at a user's word (the service's rate limiter): mail to
 * addresses a user typed, so that an account cannot make the service a relay.
 */
export interface Allowances {
  /** Spends `cost` of `subject`'s allowance; over it, spends nothing and throws the rate_limited DomainError. */
  spend(policy: "transcript_mail", subject: string, cost: number): Promise<void>;
}

/** One mail to send, as every sender takes it (the transport builds the MIME or the provider's JSON from it). */
export type MailToSend = {
  from: { email: string; name?: string };
  to: string[];
  subject: string;
  /** the plain-text part; `html`, when given, is the alternative part */
  text: string;
  html?: string;
  replyTo?: string;
  /** copies: Cc is a header every recipient reads; Bcc only ever an envelope recipient */
  cc?: string[];
  bcc?: string[];
  /** files sent with the mail (those too large for it are links in its text instead) */
  attachments?: Array<{ fileName: string; contentType: string; content: Uint8Array }>;
  /** the Message-ID asked for, without brackets (the sender makes one otherwise; a provider may replace it) */
  messageId?: string;
  /** further headers (In-Reply-To, References, Auto-Submitted); never From, To, Subject or Message-ID */
  headers: Record<string, string>;
  /** the same for every attempt at one mail: a provider that knows it sends a repeated attempt once */
  idempotencyKey?: string;
};

/**
 * What a send came to: sent, with the Message-ID the mail went out with (brackets stripped); worth
 * another attempt later (the provider or the network failed); or refused for good (a bad recipient, a
 * sender not allowed), `error` saying why in either case.
 */
export type MailOutcome = { result: "sent"; messageId: string } | { result: "retry" | "refused"; error: string };

/**
 * The one way mail leaves the service (src/email/senders.ts fills it from the configuration:
 * Cloudflare's send_email binding, an HTTP mail API, or a sink that keeps the mail for a developer).
 * It never throws: every failure is an outcome.
 */
export interface Mailer {
  send(mail: MailToSend): Promise<MailOutcome>;
}

export type Ports = { rooms: LiveRooms; feed: LiveFeed; work: BackgroundWork; allowances: Allowances; mail: Mailer };

/** Ports for a scope with no Worker behind it (a script, a test of the domain alone): every frame is lost, as to an unreachable room. */
export const UNREACHABLE_PORTS: Ports = {
  rooms: {
    publishMessage: async () => logUnreachable(),
    publishStatusChange: async () => logUnreachable(),
    toggleTyping: async () => {
      throw new Error("no live rooms are reachable");
    },
  },
  feed: {
    availabilityChanged: async () => logUnreachable(),
    claimAssignee: async () => {
      logUnreachable();
      return null;
    },
    accessChanged: async () => logUnreachable(),
    conversationAccessChanged: async () => logUnreachable(),
  },
  // a job left pending is picked up by the minute sweep of a Worker that has the queue
  work: {
    contactTransfer: async () => logUnreachable(),
    campaignRun: async () => logUnreachable(),
    articleViewed: async () => logUnreachable(),
    bulkAction: async () => {
      throw new Error("no queue is reachable");
    },
  },
  // no limiter to count against: what it guards is refused
  allowances: {
    spend: async () => {
      throw new Error("no rate limiter is reachable");
    },
  },
  // the row stays pending for a Worker that has a sender
  mail: { send: async () => ({ result: "retry", error: "no mail sender is reachable" }) },
};

function logUnreachable() {
  console.error(JSON.stringify({ level: "error", room: "none", error: "no live rooms are reachable" }));
}
