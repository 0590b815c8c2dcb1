/**
 * Hostile input on the website widget's page and API (/widget, /api/v1/widget/*): no input a client can
 * send gives a 5xx or a malformed error body, and refused writes change nothing. The route table is in
 * ./hostile/routes.ts, the cases in ./hostile/driver.ts.
 */
import { walkGroup } from "./hostile/walk";

await walkGroup("widget-api", "website widget page and API");
