/**
 * The visitor's live stream (docs/realtime.md): /cable of this origin, RoomChannel with the contact inbox's
 * pubsub_token, through the ActionCable client Chatwoot's widget uses (it reconnects by itself). Presence
 * every 20 s; after a reconnect, the messages missed meanwhile are fetched with `after`.
 */
import { createConsumer } from "@rails/actioncable";

export type CableEvent = { event: string; data: any };

export type Cable = { close(): void };

export function openCable(pubsubToken: string, receive: (event: CableEvent) => void, reconnected: () => void): Cable {
  if (!pubsubToken) return { close() {} };
  const consumer = createConsumer("/cable");
  let wasConnected = false;
  const subscription = consumer.subscriptions.create(
    { channel: "RoomChannel", pubsub_token: pubsubToken },
    {
      connected() {
        if (wasConnected) reconnected();
        wasConnected = true;
      },
      received(message: CableEvent) {
        if (message && typeof message.event === "string") receive(message);
      },
    },
  );
  const presence = setInterval(() => subscription.perform("update_presence"), 20_000);
  return {
    close() {
      clearInterval(presence);
      subscription.unsubscribe();
      consumer.disconnect();
    },
  };
}
