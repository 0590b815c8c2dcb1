import { get } from "./http";

/** The first delivery of a delivery log (e.g. a webhook's), once the queue has made it. */
export async function firstDelivery(path: string, key: string): Promise<{ id: number }> {
  for (let i = 0; i < 200; i++) {
    const res = await get(path, key);
    if (res.status === 200 && res.body.payload.length > 0) return res.body.payload.at(-1);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no delivery appeared in ${path}`);
}
