/**
 * Who acts, and in which account. HTTP, the queue consumer, the cron and the public widget API all build
 * the same scope, so a domain function never needs to know which of them called it. Every scope descends
 * from a `TransportScope` built in one place per transport (src/http, src/jobs): the database, the
 * configuration and the ports come from there and nowhere else, and a scope the domain derives (a
 * contact's, the system's, a live ticket's) carries them over.
 */
import type { Database } from "../../db/client";
import type { Shards } from "../../db/shards";
import type { UserRow } from "../identity/rows";
import type { AgentBotRow } from "../people/rows";
import type { ContactRow } from "../contacts/rows";
import type { Role } from "./enums";
import type { Ports } from "./ports";

export type Actor =
  | { type: "user"; user: UserRow }
  | { type: "agent_bot"; bot: AgentBotRow }
  | PlatformAppActor
  /** a visitor of the public widget API, acting as one contact */
  | { type: "contact"; contact: ContactRow }
  /** an automation rule acting on an event it matched */
  | { type: "automation_rule"; ruleId: number; name: string }
  /** a user running one of the account's macros: it reaches what the user reaches, and is named "macro … by …" */
  | MacroActor
  /** auto-assignment handing out a conversation, under the inbox's assignment policy (null: the default) */
  | { type: "auto_assignment"; policyId: number | null }
  /** the service itself, for scheduled work (no key is ever resolved to it) */
  | { type: "system" };

export type MacroActor = { type: "macro"; macroId: number; name: string; user: UserRow };

export type PlatformAppActor = { type: "platform_app"; platformAppId: number };

/**
 * What a transport hands the domain before anyone is known: the databases, the Worker's configuration and
 * bindings (`env`: secrets, the file bucket, the target policy), and the ports, the effects the domain may
 * ask for after a commit (live rooms). The public API's requests and the jobs act with it alone until the
 * domain has found the account.
 *
 * `db` is the database of the account the scope acts in: its shard (docs/shards.md). Before an account
 * is known (platform, profile and sign-in requests) it is the directory. `directory` holds what spans
 * accounts (accounts and their placement, users, memberships, keys, sign-ins, platform apps, agent bots,
 * public routes) and `shards` reaches any account's shard.
 */
export type TransportScope = { db: Database; directory: Database; shards: Shards; env: Env; ports: Ports };

/** What a domain function needs to act inside one account: the account comes from the caller's credentials. */
export type AccountScope = TransportScope & { accountId: number; actor: Actor; role: Role | null };

/** A platform app acting across the accounts, users and bots it created. */
export type PlatformScope = TransportScope & { actor: PlatformAppActor };

/** A signed-in user acting on itself (the profile), in no account. */
export type UserScope = TransportScope & { actor: { type: "user"; user: UserRow } };

/** The transport's part of any scope: what a derived scope carries over. */
export const transportOf = ({ db, directory, shards, env, ports }: TransportScope): TransportScope => ({ db, directory, shards, env, ports });

/** The same transport, acting on another database (an account's shard, once the account is known). */
export const onDatabase = (transport: TransportScope, db: Database): TransportScope => ({ ...transportOf(transport), db });

/** A scope for work the service does by itself in an account (the snooze wake-up, sweeps). */
export function systemScope(transport: TransportScope, accountId: number): AccountScope {
  return { ...transportOf(transport), accountId, actor: { type: "system" }, role: null };
}

/** The user behind the scope (a macro's is the user running it), or null for bots, contacts, rules and the system. */
export const actingUserId = (scope: AccountScope) => (scope.actor.type === "user" || scope.actor.type === "macro" ? scope.actor.user.id : null);

/** Who caused an event or an activity message, as event payloads and activity texts name it. */
export function performer(scope: AccountScope): { type: string; id: number; name: string; user_id?: number } | null {
  const { actor } = scope;
  if (actor.type === "user") return { type: "User", id: actor.user.id, name: actor.user.name };
  if (actor.type === "agent_bot") return { type: "AgentBot", id: actor.bot.id, name: actor.bot.name };
  if (actor.type === "contact") return { type: "Contact", id: actor.contact.id, name: actor.contact.name ?? "" };
  if (actor.type === "automation_rule") return { type: "AutomationRule", id: actor.ruleId, name: actor.name };
  // activity lines read "… by macro "Close and tag" by Jane"
  if (actor.type === "macro") return { type: "Macro", id: actor.macroId, name: `macro "${actor.name}" by ${actor.user.name}`, user_id: actor.user.id };
  if (actor.type === "auto_assignment") return { type: "AssignmentPolicy", id: actor.policyId ?? 0, name: "auto-assignment" };
  return null;
}
