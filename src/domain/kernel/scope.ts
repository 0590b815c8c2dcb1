/**
 * Who acts, and in which account. HTTP, the queue consumer, the cron and the public widget API all build
 * the same scope, so a domain function never needs to know which of them called it.
 */
import type { Database } from "../../db/client";
import type { UserRow } from "../identity/rows";
import type { AgentBotRow } from "../people/rows";
import type { ContactRow } from "../contacts/rows";
import type { Role } from "./enums";
import { type Ports, installedPorts } from "./ports";

export type Actor =
  | { type: "user"; user: UserRow }
  | { type: "agent_bot"; bot: AgentBotRow }
  | { type: "platform_app"; platformAppId: number }
  /** a visitor of the public widget API, acting as one contact */
  | { type: "contact"; contact: ContactRow }
  /** an automation rule acting on an event it matched */
  | { type: "automation_rule"; ruleId: number; name: string }
  /** the service itself, for scheduled work (no key is ever resolved to it) */
  | { type: "system" };

/**
 * What a domain function needs to act inside one account: the account comes from the caller's
 * credentials; `ports` are the effects it may ask for after a commit (live rooms), filled by whoever
 * builds the scope.
 */
export type AccountScope = { db: Database; accountId: number; actor: Actor; role: Role | null; env: Env; ports: Ports };

/** A scope for work the service does by itself in an account (the snooze wake-up, sweeps). */
export function systemScope(db: Database, env: Env, accountId: number): AccountScope {
  return { db, accountId, actor: { type: "system" }, role: null, env, ports: installedPorts(env) };
}

/** The user behind the scope, or null for bots, contacts, rules and the system. */
export const actingUserId = (scope: AccountScope) => (scope.actor.type === "user" ? scope.actor.user.id : null);

/** Who caused an event or an activity message, as event payloads and activity texts name it. */
export function performer(scope: AccountScope): { type: string; id: number; name: string } | null {
  const { actor } = scope;
  if (actor.type === "user") return { type: "User", id: actor.user.id, name: actor.user.name };
  if (actor.type === "agent_bot") return { type: "AgentBot", id: actor.bot.id, name: actor.bot.name };
  if (actor.type === "contact") return { type: "Contact", id: actor.contact.id, name: actor.contact.name ?? "" };
  if (actor.type === "automation_rule") return { type: "AutomationRule", id: actor.ruleId, name: actor.name };
  return null;
}
