/**
 * A conversation's account found by its uuid alone, for the doors that hold nothing but the uuid (a CSAT
 * survey link, an e-mail's `reply+<uuid>@` address): every shard is asked at once (docs/shards.md),
 * since these uuids are not entered in the directory, which would cost a directory write for every
 * conversation created, and both doors are used far less often than conversations are made.
 */
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import type { TransportScope } from "../kernel/scope";

const { conversations } = schema;

export async function accountOfConversationUuid(transport: TransportScope, uuid: string): Promise<number | null> {
  const found = await Promise.all(
    Array.from({ length: transport.shards.count }, async (_, shard) => {
      const db = transport.shards.open(shard);
      const [rows] = await batch(db, [db.select({ accountId: conversations.accountId }).from(conversations).where(eq(conversations.uuid, uuid))]);
      return rows[0]?.accountId ?? null;
    }),
  );
  return found.find((accountId) => accountId !== null) ?? null;
}
