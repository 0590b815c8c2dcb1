/** Setup of the website widget's tests: a website inbox made through the account API, and its visitors. */
import { call, made } from "../support/http";
import { createWorld } from "../support/world";

export type Website = Awaited<ReturnType<typeof websiteWorld>>;

/** An account with a website inbox (its agent a member) whose channel takes `channel`'s settings. */
export async function websiteWorld(name = "Shop", channel: Record<string, unknown> = {}) {
  const world = await createWorld(name);
  const inbox = await made(`${world.base}/inboxes`, world.admin.key, { name: `${name} site`, channel: { type: "web_widget", website_url: "https://shop.example", ...channel } });
  await made(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
  return { ...world, inbox, token: inbox.website_token as string, hmacToken: inbox.hmac_token as string };
}

/** The globals the page hands the widget app, read from its JSON script element. */
export function pageGlobals(html: string): any {
  const match = /<script id="widget-globals" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error(`no globals in ${html.slice(0, 300)}`);
  return JSON.parse(match[1]);
}

/** GET /widget as a browser loads it, from the address `ip`. */
export const loadPage = (query: string, ip = "203.0.113.7") => call("GET", `/widget?${query}`, { headers: { accept: "text/html", "cf-connecting-ip": ip } });

/** A new visitor of the website: the token and pubsub token its page load issued. */
export async function pageVisitor(w: Pick<Website, "token">) {
  const res = await loadPage(`website_token=${w.token}`, `198.51.100.${Math.floor(Math.random() * 250) + 1}`);
  if (res.status !== 200) throw new Error(`widget page failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  const globals = pageGlobals(res.body);
  return { authToken: globals.authToken as string, pubsubToken: globals.chatwootPubsubToken as string };
}

/** A call to /api/v1/widget/* as the widget makes it: website_token in the query, the visitor's token in X-Auth-Token. */
export function widgetCall(method: string, path: string, token: string, authToken: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const [route, search] = path.split("?");
  const query = new URLSearchParams(search ?? "");
  query.set("website_token", token);
  return call(method, `/api/v1/widget${route}?${query}`, { body, headers: { ...(authToken === null ? {} : { "x-auth-token": authToken }), ...headers } });
}

/** The JWT's payload, read without checking it. */
export const tokenPayload = (jwt: string) => JSON.parse(atob(jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
