/** Who is live in the request's account (one call to its feed), for the routes that show agents. */
import type { AppContext } from "../../http/app-env";
import { onlineContactIds, onlineUserIds } from "../../realtime/account-feed";
import type { OnlineUsers } from "../../views/agents";

export const onlineInAccount = (c: AppContext): Promise<OnlineUsers> => onlineUserIds(c.env, c.var.account.id);

/** The contacts online in the request's account: a socket of theirs is open in one of its conversation rooms. */
export const onlineContactsInAccount = (c: AppContext): Promise<number[]> => onlineContactIds(c.env, c.var.account.id);
