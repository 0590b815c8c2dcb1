import type { AgentRow } from "../domain/people/agents";
import type { ShownMacros } from "../domain/macros/macros";
import type { MacroRow } from "../domain/macros/rows";
import type { MacroRun } from "../domain/macros/execute";
import { agentView } from "./agents";
import { iso } from "./time";

/** Chatwoot's macro partial (creator and last editor as agents, null once gone), with its times. */
export function macroView(macro: MacroRow, people: readonly AgentRow[]) {
  const person = (userId: number) => {
    const row = people.find((p) => p.userId === userId);
    return row ? agentView(row, macro.accountId) : null;
  };
  return {
    id: macro.id,
    name: macro.name,
    visibility: macro.visibility,
    created_by: person(macro.createdById),
    updated_by: person(macro.updatedById),
    account_id: macro.accountId,
    actions: macro.actions,
    created_at: iso(macro.createdAt),
    updated_at: iso(macro.updatedAt),
  };
}

export const macrosView = ({ macros, people }: ShownMacros) => macros.map((m) => macroView(m, people));

export const macroRunView = (run: MacroRun) => ({ conversation_ids: run.ran, skipped: run.skipped, failures: run.failures });
