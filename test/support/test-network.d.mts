export declare const TEST_NETWORK_HEADER: string;
export declare function testNetwork(request: Request): Promise<Response>;
