/**
 * /public/api/v1/csat_survey/{conversation_uuid}: the CSAT survey behind the link a contact receives
 * (`/survey/responses/{conversation_uuid}`, src/pages/csat-survey.ts), as Chatwoot serves it. The uuid
 * is the only credential; it reaches the conversation's survey and nothing else
 * (src/domain/widget/csat-survey.ts).
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import { answerCsatSurvey, findCsatSurvey } from "../../domain/widget/csat-survey";
import type { AppEnv } from "../../http/app-env";
import { doc } from "../../http/openapi";
import { rateLimited } from "../../http/rate-limit";
import { shardOfPublicKey } from "../../http/public-route";
import { publicScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { CsatSurvey, CsatSurveyPath, CsatSurveyUpdate } from "../../schemas/widget";
import { csatSurveyView } from "../../views/widget";

export const publicCsatSurveyApi = new Hono<AppEnv>()
  .use("/:conversation_uuid", rateLimited("public_api"), shardOfPublicKey("csat_survey", "conversation_uuid"))
  // the link holds the credential, no cookie does: a survey embedded in any site may call it
  .use("*", cors({ origin: "*", allowMethods: ["GET", "PUT"] }))
  .get("/:conversation_uuid", doc({ summary: "Show a conversation's CSAT survey", response: CsatSurvey }), validate("param", CsatSurveyPath), async (c) =>
    c.json(csatSurveyView(await findCsatSurvey(publicScope(c), c.req.valid("param").conversation_uuid))),
  )
  .put(
    "/:conversation_uuid",
    doc({ summary: "Rate a conversation (answer its CSAT survey)", response: CsatSurvey }),
    rateLimited("public_update"),
    validate("param", CsatSurveyPath),
    validate("json", CsatSurveyUpdate),
    async (c) => {
      const { conversation_uuid } = c.req.valid("param");
      return c.json(csatSurveyView(await answerCsatSurvey(publicScope(c), conversation_uuid, c.req.valid("json").submitted_values)));
    },
  );
