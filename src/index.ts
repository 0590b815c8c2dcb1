import { app } from "./app";
import { runScheduledWork } from "./jobs/cron";
import { type QueueMessage, consumeQueue } from "./jobs/queue";

export { ConversationRoom } from "./realtime/conversation-room";
export { RateLimiter } from "./limits/rate-limiter";
export { AccountFeed } from "./realtime/account-feed";

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeQueue(batch, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(runScheduledWork(env)),
} satisfies ExportedHandler<Env, QueueMessage>;
