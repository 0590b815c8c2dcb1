/**
 * Hostile input on every route of one group: no input a client can send gives a 5xx or a malformed error
 * body, and refused writes change nothing. The route table is in ./hostile/routes.ts, the cases in
 * ./hostile/driver.ts.
 */
import { walkGroup } from "./hostile/walk";

await walkGroup("conversations", "conversations");
