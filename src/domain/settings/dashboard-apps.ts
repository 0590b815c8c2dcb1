/**
 * Dashboard apps: pages the dashboard embeds beside a conversation. Any member may list them, since
 * every agent's dashboard shows them; administrators manage them.
 */
import { and, eq } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import type { DashboardAppRow } from "./rows";
import { notFound } from "../kernel/errors";

const { dashboardApps } = schema;

export type Frame = { type: "frame"; url: string };
export type DashboardAppInput = { title?: string; content?: Frame[] };

const inAccount = (scope: AccountScope) => eq(dashboardApps.accountId, scope.accountId);

export async function listDashboardApps(scope: AccountScope): Promise<DashboardAppRow[]> {
  const { db } = scope;
  const [rows] = await batch(db, [db.select().from(dashboardApps).where(inAccount(scope)).orderBy(dashboardApps.id)]);
  return rows;
}

export async function getDashboardApp(scope: AccountScope, id: number): Promise<DashboardAppRow> {
  const { db } = scope;
  const [rows] = await batch(db, [db.select().from(dashboardApps).where(and(inAccount(scope), eq(dashboardApps.id, id)))]);
  if (!rows[0]) throw notFound("Dashboard app", id);
  return rows[0];
}

export async function createDashboardApp(scope: AccountScope, input: Required<DashboardAppInput>): Promise<DashboardAppRow> {
  const { db, accountId, actor } = scope;
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(dashboardApps)
      .values({
        accountId,
        // the creator, as Chatwoot records it
        userId: actor.type === "user" ? actor.user.id : null,
        title: input.title,
        content: input.content,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return rows[0];
}

export async function updateDashboardApp(scope: AccountScope, id: number, input: DashboardAppInput): Promise<DashboardAppRow> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db
      .update(dashboardApps)
      .set({ title: input.title, content: input.content, updatedAt: now() })
      .where(and(inAccount(scope), eq(dashboardApps.id, id)))
      .returning(),
  ]);
  if (!rows[0]) throw notFound("Dashboard app", id);
  return rows[0];
}

export async function deleteDashboardApp(scope: AccountScope, id: number): Promise<void> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db.delete(dashboardApps).where(and(inAccount(scope), eq(dashboardApps.id, id))).returning({ id: dashboardApps.id }),
  ]);
  if (!rows[0]) throw notFound("Dashboard app", id);
}
