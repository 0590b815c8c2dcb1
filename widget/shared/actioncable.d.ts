// The part of @rails/actioncable (no types of its own) the widget uses.
declare module "@rails/actioncable" {
  export type Subscription = { perform(action: string, data?: object): void; unsubscribe(): void };
  export type Consumer = {
    disconnect(): void;
    subscriptions: { create(params: object, callbacks: { connected?(): void; disconnected?(): void; received?(data: any): void }): Subscription };
  };
  export function createConsumer(url?: string): Consumer;
}
