/**
 * Files for automation rules' `send_attachment` actions. Chatwoot uploads a blob first
 * (POST /automation_rules/attach_file) and names its id in the action's params; here the file goes to R2
 * and into `automation_rule_files`, checked like a message's files. When a rule sends it, the file is
 * copied to an object of the new message, so the message's files are its own: deleting the message
 * leaves the rule's file, and deleting or changing the rule leaves sent messages whole.
 */
import { and, eq } from "drizzle-orm";
import { now, schema } from "../../db/client";
import type { RuleFileRow } from "../attachments/rows";
import { type CheckedFile, removeObjects, storeFiles } from "../attachments/uploads";
import { batchNamed } from "../kernel/batch";
import { notFound } from "../kernel/errors";
import type { AccountScope } from "../kernel/scope";

const { automationRuleFiles } = schema;

export async function attachRuleFile(scope: AccountScope, file: CheckedFile): Promise<RuleFileRow> {
  const [stored] = await storeFiles(scope.env, scope.accountId, [file], "rule-files");
  try {
    const { rows } = await batchNamed(scope.db, {
      rows: scope.db
        .insert(automationRuleFiles)
        .values({
          accountId: scope.accountId,
          fileType: stored.kind.fileType,
          extension: stored.kind.extension,
          contentType: stored.kind.contentType,
          fileName: stored.fileName,
          fileSize: stored.size,
          width: stored.kind.width,
          height: stored.kind.height,
          storageKey: stored.storageKey,
          createdAt: now(),
        })
        .returning(),
    });
    return rows[0];
  } catch (error) {
    await removeObjects(scope.env, [stored.storageKey]);
    throw error;
  }
}

/** A rule file, ready to be stored again as a new message's file (its bytes stream from R2). */
export async function ruleFileForMessage(scope: AccountScope, fileId: number): Promise<CheckedFile> {
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db.select().from(automationRuleFiles).where(and(eq(automationRuleFiles.accountId, scope.accountId), eq(automationRuleFiles.id, fileId))),
  });
  const row = rows[0];
  const object = row ? await scope.env.FILES.get(row.storageKey) : null;
  if (!row || !object) throw notFound("File", fileId, "action_params[0]");
  return {
    body: object.body,
    fileName: row.fileName,
    size: row.fileSize,
    kind: { fileType: row.fileType as CheckedFile["kind"]["fileType"], contentType: row.contentType, extension: row.extension, width: row.width, height: row.height },
  };
}
