/**
 * TEST SETUP ONLY: under Node there is no `cloudflare:workers`. The domain reaches it only through the
 * live-room Durable Object class (src/realtime), which the libSQL proof never instantiates.
 */
export class DurableObject {}
