export declare const MAX_SHARDS: number;
export declare const LOCAL_SHARDS: number;
export declare function shardBinding(n: number): string;
export declare function shardDatabaseName(n: number): string;
export declare function databaseBindings(count: number): string[];
export declare function declaredDatabases(configPath?: string): Array<{ binding: string; id: string }>;
export declare function declaredBindings(configPath?: string): string[];
export declare function withDatabases(text: string, shards: Array<{ binding: string; name: string; id: string }>, directoryId?: string): string;
export declare function shardedConfig(count: number): string;
