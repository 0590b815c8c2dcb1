import { Hono } from "hono";
import { requestId } from "hono/request-id";
import pkg from "../package.json";
import { createDb } from "./db/client";
import { QueryMeter, meterD1 } from "./db/metering";
import type { AppEnv } from "./http/app-env";
import { normalizeBody } from "./http/body";
import { renderError, renderUnknownRoute } from "./http/errors";
import { applicationApi } from "./routes/account";
import { platformApi } from "./routes/platform";
import { publicApi } from "./routes/public";
import { reportsV2Api } from "./routes/reports";

export const app = new Hono<AppEnv>({ strict: false });

app.use("*", requestId());

/** Every request gets a metered database; the cost goes out in the Server-Timing header. */
app.use("*", async (c, next) => {
  const meter = new QueryMeter();
  c.set("meter", meter);
  c.set("db", createDb(meterD1(c.env.DB, meter)));
  await next();
  c.header("Server-Timing", meter.serverTiming());
});

app.use("*", normalizeBody);

/** Chatwoot clients probe this to learn the server version. */
app.get("/api", (c) =>
  c.json({ version: pkg.version, timestamp: new Date().toISOString(), queue_services: "ok", data_services: "ok" }),
);

app.route("/platform/api/v1", platformApi);
app.route("/api/v1", applicationApi);
app.route("/api/v2", reportsV2Api);
app.route("/public/api/v1", publicApi);

app.notFound(renderUnknownRoute);
app.onError(renderError);
