/**
 * The domain's ports (src/domain/kernel/ports.ts), filled: what a scope carries for a request
 * (src/http/scopes.ts) and for the queue's jobs and the cron (src/jobs/scope.ts). Live rooms get frames rendered here with
 * the views and sent to the conversation's Durable Object; typing goes to the room, which keeps its
 * state, and each typing change also goes to the account's live feed (src/feed). A room that cannot be
 * reached costs the subscribers a frame, never the change: failures of a publish are logged and swallowed.
 */
import { CONVERSATION_STATUSES, MESSAGE_TYPE, enumName } from "./domain/kernel/enums";
import { EVERYONE, type LiveRooms, type Ports } from "./domain/kernel/ports";
import type { ConversationRow } from "./domain/conversations/rows";
import { roomMessageView } from "./views/widget";
import { type Delivery, type RoomFrame, conversationRoom } from "./realtime/conversation-room";
import type { Shards } from "./db/shards";
import { typingEventRow } from "./events/live";
import { forwardToFeeds } from "./feed/forward";
import { accountFeed } from "./realtime/account-feed";
import { spendAllowance } from "./http/rate-limit";
import { mailer } from "./email/senders";

async function publish(env: Env, conversation: Pick<ConversationRow, "accountId" | "id">, frame: RoomFrame, delivery: Delivery) {
  try {
    await conversationRoom(env, conversation.accountId, conversation.id).publish(frame, delivery);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", room: `${conversation.accountId}:${conversation.id}`, frame: frame.event, error: String(error) }));
  }
}

function liveRooms(env: Env, shards: Shards): LiveRooms {
  return {
    publishMessage(conversation, message, event) {
      const agentsOnly = message.message.private || message.message.messageType === MESSAGE_TYPE.activity;
      return publish(env, conversation, { event, data: roomMessageView(message, conversation) }, { agentsOnly });
    },
    publishStatusChange(before, after) {
      if (before.status === after.status) return Promise.resolve();
      const data = {
        id: after.displayId,
        status: enumName(CONVERSATION_STATUSES, after.status),
        previous_status: enumName(CONVERSATION_STATUSES, before.status),
      };
      return publish(env, after, { event: "conversation.status_changed", data }, {});
    },
    async toggleTyping(context, on) {
      const { changed, expired } = await conversationRoom(env, context.accountId, context.conversationId).toggleTyping(context, on);
      // the account's feed hears what the room announced: indicators that ran out, then this change
      const rows = [...expired.map((c) => typingEventRow(c, false)), ...(changed ? [typingEventRow(context, on)] : [])];
      // the feed's frames read the conversation on the account's shard
      const db = rows.length > 0 ? await shards.ofAccount(context.accountId) : null;
      if (db) {
        await forwardToFeeds(db, env, rows).catch((error) => console.error(JSON.stringify({ level: "error", feed: "typing", error: String(error) })));
      }
      return { changed };
    },
  };
}

/** The ports of a scope in this Worker. */
export function livePorts(env: Env, shards: Shards): Ports {
  return {
    rooms: liveRooms(env, shards),
    feed: {
      async availabilityChanged(accountId, userId, availability) {
        try {
          await accountFeed(env, accountId).setAvailability(accountId, userId, availability);
        } catch (error) {
          console.error(JSON.stringify({ level: "error", feed: accountId, availability: String(error) }));
        }
      },
      // the feed closes the users' sockets and names the rooms where they have some; each room closes its own
      async accessChanged(accountId, userIds) {
        if (userIds !== EVERYONE && userIds.length === 0) return;
        try {
          if (userIds === EVERYONE) {
            const rooms = await accountFeed(env, accountId).everyoneChanged();
            await Promise.all(rooms.map((conversationId) => conversationRoom(env, accountId, conversationId).dropEveryone()));
            return;
          }
          const rooms = await accountFeed(env, accountId).accessChanged(userIds);
          await Promise.all(rooms.map(({ userId, conversationId }) => conversationRoom(env, accountId, conversationId).dropUser(userId)));
        } catch (error) {
          console.error(JSON.stringify({ level: "error", feed: accountId, accessChanged: userIds, error: String(error) }));
        }
      },
      async conversationAccessChanged(accountId, conversationId) {
        try {
          await conversationRoom(env, accountId, conversationId).dropUsers();
        } catch (error) {
          console.error(JSON.stringify({ level: "error", room: `${accountId}:${conversationId}`, accessChanged: String(error) }));
        }
      },
      async claimAssignee(accountId, claim) {
        try {
          return await accountFeed(env, accountId).claimAssignee(claim);
        } catch (error) {
          // presence is out of reach: nobody counts as online, the conversation waits for the next trigger
          console.error(JSON.stringify({ level: "error", feed: accountId, autoAssignment: String(error) }));
          return null;
        }
      },
    },
    work: {
      // a send that fails fails the request: nothing else would ever send the slices
      async bulkAction(messages) {
        // the queue takes at most 100 messages a send
        for (let i = 0; i < messages.length; i += 100) await env.EVENTS.sendBatch(messages.slice(i, i + 100).map((body) => ({ body })));
      },
      // a send that fails leaves the job pending: the minute sweep (src/jobs/cron.ts) sends it again
      async contactTransfer(message) {
        try {
          await env.EVENTS.send(message);
        } catch (error) {
          console.error(JSON.stringify({ level: "error", queue: "contact_transfer", message, error: String(error) }));
        }
      },
      async campaignRun(message) {
        try {
          await env.EVENTS.send(message);
        } catch (error) {
          console.error(JSON.stringify({ level: "error", queue: "campaign_run", message, error: String(error) }));
        }
      },
      async articleViewed(accountId, articleId) {
        try {
          await env.EVENTS.send({ kind: "article_view", accountId, articleId });
        } catch (error) {
          console.error(JSON.stringify({ level: "error", queue: "article_view", articleId, error: String(error) }));
        }
      },
    },
    allowances: {
      spend: (policy, subject, cost) => spendAllowance(env, policy, subject, cost, "recipients"),
    },
    mail: mailer(env),
  };
}
