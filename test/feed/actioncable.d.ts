/** The parts of @rails/actioncable (which ships no types) that the feed tests use. */
declare module "@rails/actioncable" {
  export type Subscription = { identifier: string; perform(action: string, data?: Record<string, unknown>): boolean; unsubscribe(): void };
  export type Mixin = { connected?(): void; disconnected?(): void; rejected?(): void; received?(data: any): void };
  export type Consumer = {
    subscriptions: { create(params: Record<string, unknown>, mixin?: Mixin): Subscription };
    disconnect(): void;
  };
  export const adapters: { WebSocket: typeof WebSocket; logger: Console };
  export const logger: { enabled: boolean };
  export function createConsumer(url?: string): Consumer;
}
