/** The rows the macros aggregate owns. */
import { schema } from "../../db/client";
import type { Action } from "../automation/rows";

export type MacroRow = typeof schema.macros.$inferSelect;

export const MACRO_VISIBILITIES = ["personal", "global"] as const;
export type MacroVisibility = (typeof MACRO_VISIBILITIES)[number];

export const macroActionsOf = (macro: MacroRow) => macro.actions as unknown as Action[];
