/** `accounts.shard_status`: where an account stands on its shard (docs/shards.md). */
export const SHARD_STATUS = {
  /** the directory row exists; the shard's rows are being written */
  provisioning: 0,
  active: 1,
  /** being copied to another shard: its writes wait (503 with Retry-After) */
  moving: 2,
  /** being deleted: its shard's rows go first, then the directory's */
  deleting: 3,
} as const;
