/** The API key of a user or an agent bot: one row in `access_tokens`, found by its digest (access.ts). */
import { and, eq } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import { randomKey, sha256Hex } from "./keys";

const { accessTokens } = schema;

/**
 * Statements that give the owner a new key in place of its old one, which stops working when they
 * commit. Replace rather than update, so an owner that somehow lost its key row gets one.
 */
export async function replaceKeyStatements(db: Database, ownerType: "User" | "AgentBot", ownerId: number) {
  const key = randomKey();
  const statements = [
    db.delete(accessTokens).where(and(eq(accessTokens.ownerType, ownerType), eq(accessTokens.ownerId, ownerId))),
    db.insert(accessTokens).values({ ownerType, ownerId, token: key, tokenDigest: await sha256Hex(key), createdAt: now() }),
  ] as const;
  return { statements, key };
}
