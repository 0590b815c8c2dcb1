/**
 * The network as the test runtime sees it (this module runs in Node, in the vitest process). Every
 * fetch the Worker makes that a test did not intercept itself (see receivers.ts) ends here instead of
 * on the internet: webhooks created at public host names by tests about something else, agent-bot and
 * API-inbox callbacks. It accepts every request, so nothing is retried and no test waits on a timeout.
 */
export const TEST_NETWORK_HEADER = "x-edgedesk-test-network";

/** @param {Request} request */
export async function testNetwork(request) {
  await request.body?.cancel();
  return new Response(null, { status: 204, headers: { [TEST_NETWORK_HEADER]: "accepted" } });
}
