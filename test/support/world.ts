/** Builds accounts and people through the Platform API, as a platform integration would. */
import { createPlatformApp, post } from "./http";

let sequence = 0;
export const uniqueEmail = (name = "person") => `${name}.${Date.now()}.${++sequence}@example.com`;

export type Person = { id: number; key: string; email: string };

export async function createUser(platformKey: string, name = "Agent"): Promise<Person> {
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, "-"));
  const res = await post("/platform/api/v1/users", platformKey, { name, email, password: "Passw0rd!long" });
  if (res.status !== 200) throw new Error(`user create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, key: res.body.access_token, email };
}

export async function addToAccount(platformKey: string, accountId: number, userId: number, role: "agent" | "administrator") {
  const res = await post(`/platform/api/v1/accounts/${accountId}/account_users`, platformKey, { user_id: userId, role });
  if (res.status !== 200) throw new Error(`account user failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A platform app, one account, an administrator and an agent of it. */
export async function createWorld(name = "Acme") {
  const platformKey = await createPlatformApp(`${name} platform`);
  const res = await post("/platform/api/v1/accounts", platformKey, { name });
  if (res.status !== 200) throw new Error(`account create failed: ${res.status} ${JSON.stringify(res.body)}`);
  const accountId: number = res.body.id;
  const admin = await createUser(platformKey, `${name} Admin`);
  const agent = await createUser(platformKey, `${name} Agent`);
  await addToAccount(platformKey, accountId, admin.id, "administrator");
  await addToAccount(platformKey, accountId, agent.id, "agent");
  return { platformKey, accountId, admin, agent, base: `/api/v1/accounts/${accountId}` };
}
