/**
 * Running a macro on chosen conversations. Each action goes through `runAction`, the automation engine's
 * own path to the domain functions of the HTTP routes, with the actor "macro N by user M": the changes,
 * events (performer `Macro`, with the user) and activity lines ("… by macro "X" by Jane") are those of the
 * routes. The macro reaches what its user reaches: conversations the user cannot see are skipped and
 * reported, as are display ids the account does not have (Chatwoot's job looks them up and ignores the
 * rest). An action that is refused on one conversation is reported and the next one runs (Chatwoot logs
 * and goes on). It runs in the request, so the ids are bounded (see the route).
 */
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { runAction } from "../automation/actions";
import { reachableCondition } from "../conversations/access";
import { batchNamed } from "../kernel/batch";
import { DomainError, forbidden } from "../kernel/errors";
import { type AccountScope, transportOf } from "../kernel/scope";
import { getMacro } from "./macros";
import { macroActionsOf } from "./rows";

const { conversations } = schema;

export type MacroRun = {
  /** display ids the actions ran on */
  ran: number[];
  skipped: Array<{ conversation_id: number; reason: "not_found" | "not_accessible" }>;
  failures: Array<{ conversation_id: number; action_name: string; message: string }>;
};

export async function executeMacro(scope: AccountScope, id: number, displayIds: readonly number[]): Promise<MacroRun> {
  if (scope.actor.type !== "user") throw forbidden("Only users run macros", "user_required");
  const macro = await getMacro(scope, id);
  const ids = [...new Set(displayIds)];
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db
      .select({ conversation: conversations, reachable: sql<number | null>`${reachableCondition(scope) ?? sql`1`}`.as("reachable") })
      .from(conversations)
      .where(and(eq(conversations.accountId, scope.accountId), sql`${conversations.displayId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)),
  });
  const byId = new Map(rows.map((r) => [r.conversation.displayId, r]));
  const macroScope: AccountScope = {
    ...transportOf(scope),
    accountId: scope.accountId,
    actor: { type: "macro", macroId: macro.id, name: macro.name, user: scope.actor.user },
    role: scope.role,
  };
  const run: MacroRun = { ran: [], skipped: [], failures: [] };
  for (const displayId of ids) {
    const row = byId.get(displayId);
    if (!row || !row.reachable) {
      run.skipped.push({ conversation_id: displayId, reason: row ? "not_accessible" : "not_found" });
      continue;
    }
    for (const action of macroActionsOf(macro)) {
      try {
        await runAction({ scope: macroScope, rule: null, conversation: row.conversation, eventName: "macro_executed" }, action);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        run.failures.push({ conversation_id: displayId, action_name: action.action_name, message: error.description });
      }
    }
    run.ran.push(displayId);
  }
  return run;
}
