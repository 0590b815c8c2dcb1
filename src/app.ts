import { Hono } from "hono";
import { shardCount } from "./db/connect";
import pkg from "../package.json";
import type { AppEnv } from "./http/app-env";
import { dispatchOutboxAfterResponse, requestDatabase } from "./http/database";
import { serverTiming } from "./http/server-timing";
import { configureFileLinks } from "./views/attachments";
import { filesApi } from "./routes/files";
import { renderError, renderUnknownRoute } from "./http/errors";
import { requestId, secureHeaders } from "./http/secure";
import { applicationApi } from "./routes/account";
import { authApi } from "./routes/auth";
import { cableApi } from "./routes/cable";
import { mcpApi } from "./mcp";
import { platformApi } from "./routes/platform";
import { publicApi } from "./routes/public";
import { reportsV2Api } from "./routes/reports";
import { agentDemo } from "./demo/agent-demo";
import { widgetDemo } from "./demo/widget-demo";
import { widgetPage } from "./routes/widget/page";
import { widgetApi } from "./routes/widget/api";
import { csatSurveyPage } from "./pages/csat-survey";
import { homePage } from "./pages/home";
import { helpCenterSite } from "./pages/help-center/site";
import { referencePage } from "./docs/reference-page";
import { doc, openApiDocument, undocumented } from "./http/openapi";
import { ServiceStatus } from "./schemas/responses";
export const app = new Hono<AppEnv>({ strict: false });

/** The Chatwoot release whose API edgedesk answers as (docs/chatwoot-differences.md). */
export const CHATWOOT_API_VERSION = "4.1.0";

app.use("*", secureHeaders());
app.use("*", requestId());

app.use("*", requestDatabase());
app.use("*", serverTiming());
app.use("*", dispatchOutboxAfterResponse());

/** Messages render signed file URLs under the address this request came to (src/views/attachments.ts). */
app.use("*", async (c, next) => {
  configureFileLinks(c.env.ATTACHMENT_URL_SECRET, new URL(c.req.url).origin);
  await next();
});

// No middleware here reads the request body: each surface reads it after its checks (`routeBody`, src/http/body.ts).

/**
 * Chatwoot clients probe this to learn the server version: `version` is the Chatwoot API level edgedesk
 * speaks (Chatwoot's mobile app refuses servers below 4.1.0), `edgedesk_version` edgedesk's own, and
 * `shards` how many shard databases this deployment spreads accounts over (docs/shards.md).
 */
app.get("/api", doc({ summary: "Server version and health", response: ServiceStatus }), (c) =>
  c.json({
    version: CHATWOOT_API_VERSION,
    edgedesk_version: pkg.version,
    timestamp: new Date().toISOString(),
    queue_services: "ok",
    data_services: "ok",
    shards: shardCount(c.env),
  }),
);

app.route("/platform/api/v1", platformApi);
app.route("/api/v1/widget", widgetApi);
app.route("/api/v1", applicationApi);
app.route("/api/v2", reportsV2Api);
app.route("/public/api/v1", publicApi);
app.route("/widget", widgetPage);
app.route("/widget-demo", widgetDemo);
app.route("/agent-demo", agentDemo);
app.route("/survey", csatSurveyPage);
app.route("/hc", helpCenterSite);
app.route("/", homePage);
app.route("/files", filesApi);
app.route("/auth", authApi);
app.route("/cable", cableApi);
app.route("/mcp", mcpApi);

/** The OpenAPI 3.1 document of every route above, and a reference page over it; no key needed. */
app.get("/openapi.json", undocumented("the API document itself"), async (c) => c.json(await openApiDocument(app)));
app.get("/docs", undocumented("the reference page of the document"), referencePage);

app.notFound(renderUnknownRoute);
app.onError(renderError);
