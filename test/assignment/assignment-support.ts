/** Reading a conversation's assignee as an agent app would, and waiting for auto-assignment to give one. */
import { get } from "../support/http";
import { settle } from "../feed/cable-support";

/** The account in which conversations are read, and a key of one of its administrators. */
type Reader = { base: string; admin: { key: string } };

export const assigneeOf = async (w: Reader, displayId: number): Promise<number | null> =>
  (await get(`${w.base}/conversations/${displayId}`, w.admin.key)).body.meta.assignee?.id ?? null;

/** Waits until the conversation has an assignee (auto-assignment runs on the queue, after the change). */
export async function assignedTo(w: Reader, displayId: number, timeoutMs = 4000): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const id = await assigneeOf(w, displayId);
    if (id !== null) return id;
    if (Date.now() > until) throw new Error(`conversation ${displayId} was not assigned`);
    await settle(40);
  }
}
