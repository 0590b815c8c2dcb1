export declare const LOCAL_APP_NAME: string;
export declare function generateKey(): string;
export declare function sha256Hex(value: string): string;
export declare function createAppSql(name: string, digest: string, at?: number): string;
export declare function ensureAppKeySql(name: string, digest: string, at?: number): string;
