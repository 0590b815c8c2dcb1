import { app } from "./app";

export { ConversationRoom } from "./realtime/conversation-room";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
