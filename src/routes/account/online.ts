/** Who is live in the request's account (one call to its feed), for the routes that show agents. */
import type { AppContext } from "../../http/app-env";
import { onlineUserIds } from "../../realtime/account-feed";
import type { OnlineUsers } from "../../views/agents";

export const onlineInAccount = (c: AppContext): Promise<OnlineUsers> => onlineUserIds(c.env, c.var.account.id);
