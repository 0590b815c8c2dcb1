export declare function moveAccount(options: {
  directory: D1Database;
  shards: D1Database[];
  accountId: number;
  to: number;
  drainMs?: number;
  log?: (line: string) => void;
}): Promise<Record<string, number>>;
