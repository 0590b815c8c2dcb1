import { z } from "zod";
import { Id, UserIds } from "./common";

export const InboxIdParam = z.object({ inbox_id: Id });

/** PATCH /inbox_members: the new set, which may be empty. */
export const InboxMembersReplace = z.object({ inbox_id: Id, user_ids: UserIds });

/** POST and DELETE /inbox_members */
export const InboxMembersChange = z.object({ inbox_id: Id, user_ids: UserIds.pipe(z.array(z.number()).min(1)) });
