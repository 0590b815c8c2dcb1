/**
 * Macros of an account (Chatwoot's policy): a personal macro is its creator's alone (anyone else, an
 * administrator included, finds no such macro); a global one every member lists, shows and runs. A global
 * macro is changed or deleted by administrators, a personal one by its creator. An agent's macro is always
 * personal, as Chatwoot sets it whatever visibility the agent asked for. Actions are checked at save exactly
 * as an automation rule's, from the part of the vocabulary that acts on a conversation on demand.
 */
import { and, asc, eq, inArray, or } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { validatedActions } from "../automation/rules";
import type { RawAction } from "../automation/validation";
import { ACTION_NAMES, type ActionName } from "../automation/vocabulary";
import { batchNamed } from "../kernel/batch";
import { type ErrorEntry, forbidden, invalid, notFound } from "../kernel/errors";
import type { AccountScope } from "../kernel/scope";
import { type AgentRow, usersAsAgentsQuery } from "../people/agents";
import type { MacroRow, MacroVisibility } from "./rows";

const { macros, users } = schema;

/** Macros with the users who created and last changed them (null in the view once a user is gone). */
export type ShownMacros = { macros: MacroRow[]; people: AgentRow[] };

async function shown(scope: AccountScope, rows: MacroRow[]): Promise<ShownMacros> {
  const ids = [...new Set(rows.flatMap((m) => [m.createdById, m.updatedById]))];
  if (ids.length === 0) return { macros: rows, people: [] };
  const { people } = await batchNamed(scope.db, { people: usersAsAgentsQuery(scope.db, scope.accountId, inArray(users.id, ids)) });
  return { macros: rows, people };
}

/**
 * The rule actions a macro may hold: all but those that only make sense for a rule (its signed webhook
 * names the rule and uses the rule's secret; the team e-mail is a rule's notification).
 */
const RULE_ONLY_ACTIONS: ReadonlySet<ActionName> = new Set<ActionName>(["send_webhook_event", "send_email_to_team"]);
export const MACRO_ACTIONS: ReadonlySet<ActionName> = new Set(ACTION_NAMES.filter((name) => !RULE_ONLY_ACTIONS.has(name)));

export type MacroInput = { name?: string; visibility?: MacroVisibility; actions?: RawAction[] };

function userOf(scope: AccountScope) {
  // bot keys never reach these routes (auth refuses them); this keeps the domain honest if one ever did
  if (scope.actor.type !== "user") throw forbidden("Only users have macros", "user_required");
  return scope.actor.user;
}

/** What the scope's user may see: the account's global macros and their own personal ones. */
const visible = (scope: AccountScope) =>
  and(eq(macros.accountId, scope.accountId), or(eq(macros.visibility, "global"), eq(macros.createdById, userOf(scope).id)));

/** Agents' macros are personal whatever they asked (Chatwoot's set_visibility). */
const visibilityFor = (scope: AccountScope, asked: MacroVisibility | undefined) => (scope.role === "administrator" ? asked : asked && "personal");

/** The actions as stored, or a 422 naming each action a macro cannot hold and every problem the rule validator finds. */
async function checkedActions(scope: AccountScope, actions: RawAction[]) {
  const refused: ErrorEntry[] = actions.flatMap((action, i) =>
    MACRO_ACTIONS.has(action.action_name as ActionName)
      ? []
      : [{ field: `actions[${i}].action_name`, message: `${action.action_name} is not supported in a macro (supported: ${[...MACRO_ACTIONS].join(", ")})`, code: "unsupported_action" }],
  );
  if (refused.length) throw invalid(refused);
  return validatedActions(scope, actions);
}

export async function listMacros(scope: AccountScope): Promise<ShownMacros> {
  const { rows } = await batchNamed(scope.db, { rows: scope.db.select().from(macros).where(visible(scope)).orderBy(asc(macros.id)) });
  return shown(scope, rows);
}

export async function showMacro(scope: AccountScope, id: number): Promise<ShownMacros> {
  return shown(scope, [await getMacro(scope, id)]);
}

export async function getMacro(scope: AccountScope, id: number): Promise<MacroRow> {
  const { rows } = await batchNamed(scope.db, { rows: scope.db.select().from(macros).where(and(visible(scope), eq(macros.id, id))) });
  if (!rows[0]) throw notFound("Macro", id);
  return rows[0];
}

export async function createMacro(scope: AccountScope, input: Required<Pick<MacroInput, "name" | "actions">> & MacroInput): Promise<ShownMacros> {
  const user = userOf(scope);
  const actions = await checkedActions(scope, input.actions);
  const at = now();
  const { rows, people } = await batchNamed(scope.db, {
    rows: scope.db
      .insert(macros)
      .values({
        accountId: scope.accountId,
        name: input.name,
        visibility: visibilityFor(scope, input.visibility) ?? "personal",
        actions,
        createdById: user.id,
        updatedById: user.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
    // the macro's creator and updater are the caller: read with the insert, not after it
    people: usersAsAgentsQuery(scope.db, scope.accountId, eq(users.id, user.id)),
  });
  return { macros: rows, people };
}

/** 403 unless the scope may change the (visible) macro: administrators a global one, the creator a personal one. */
function ensureEditable(scope: AccountScope, macro: MacroRow) {
  const allowed = macro.visibility === "global" ? scope.role === "administrator" : macro.createdById === userOf(scope).id;
  if (!allowed) throw forbidden(`Only administrators may change or delete the global macro ${macro.id}`, "administrator_required");
}

/** PATCH and PUT: the given fields replace the stored ones (actions as a whole list). */
export async function updateMacro(scope: AccountScope, id: number, input: MacroInput): Promise<ShownMacros> {
  ensureEditable(scope, await getMacro(scope, id));
  const actions = input.actions !== undefined ? await checkedActions(scope, input.actions) : undefined;
  const visibility = visibilityFor(scope, input.visibility);
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .update(macros)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(visibility !== undefined && { visibility }),
        ...(actions !== undefined && { actions }),
        updatedById: userOf(scope).id,
        updatedAt: now(),
      })
      .where(and(visible(scope), eq(macros.id, id)))
      .returning(),
  });
  if (!rows[0]) throw notFound("Macro", id);
  return shown(scope, rows);
}

export async function deleteMacro(scope: AccountScope, id: number): Promise<void> {
  ensureEditable(scope, await getMacro(scope, id));
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db.delete(macros).where(and(visible(scope), eq(macros.id, id))).returning({ id: macros.id }),
  });
  if (!rows[0]) throw notFound("Macro", id);
}
