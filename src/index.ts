import { app } from "./app";
import { runScheduledWork } from "./jobs/cron";
import { type QueueMessage, consumeQueue } from "./jobs/queue";
import { receiveEmail } from "./email/receive";

export { ConversationRoom } from "./realtime/conversation-room";
export { RateLimiter } from "./limits/rate-limiter";
export { AccountFeed } from "./realtime/account-feed";

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeQueue(batch, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(runScheduledWork(env)),
  // inbound mail (Cloudflare Email Routing): kept in R2 and queued; src/email/receive.ts
  email: (message, env, _ctx) => receiveEmail(message, env),
} satisfies ExportedHandler<Env, QueueMessage>;
