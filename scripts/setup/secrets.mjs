// The Worker's secrets (docs/deploying.md "Secrets"): which the deployment needs, and where the value of
// one it lacks comes from. A secret the Worker already has is never replaced (a rerun changes nothing);
// `npx wrangler secret put NAME` replaces one by hand.
import { randomBytes } from "node:crypto";
import { StepFailure } from "./failure.mjs";

/**
 * Each secret: `generate` ones are random keys only the Worker needs to know (made here when the
 * environment gives none); `ask` ones belong to another service, so a person types them (or CI sets them
 * in the environment); `optional` ones are set only when the environment has them.
 */
export function wantedSecrets({ mailTransport, pushRelayUrl }) {
  return [
    { name: "ATTACHMENT_URL_SECRET", source: "generate", why: "signs the URLs of message attachments" },
    { name: "WIDGET_TOKEN_SECRET", source: "generate", why: "signs the website widget's visitor tokens" },
    ...(mailTransport === "resend" ? [{ name: "RESEND_API_KEY", source: "ask", why: "MAIL_TRANSPORT is resend: the Resend API key" }] : []),
    ...(pushRelayUrl ? [{ name: "PUSH_RELAY_SECRET", source: "ask", why: "PUSH_RELAY_URL is set: the push relay's signing secret (base64)" }] : []),
    { name: "DESK_USER_HMAC_KEY", source: "optional", why: "the key of users' hmac_identifier" },
  ];
}

/** Where the value of a missing secret will come from, for the plan. */
export function secretOrigin(secret, env) {
  if (env[secret.name]?.trim()) return "from the environment";
  if (secret.source === "generate") return "generated";
  if (secret.source === "ask") return "asked for";
  return null; // optional and not in the environment: left unset
}

/**
 * The values of the `missing` secrets: the environment's, generated, or typed in answer to `ask`
 * (null when no one can answer: no terminal). A secret no one gives fails the step, naming the variable.
 */
export async function secretValues(missing, { env, ask }) {
  const values = {};
  for (const secret of missing) {
    const given = env[secret.name]?.trim();
    if (given) values[secret.name] = given;
    else if (secret.source === "generate") values[secret.name] = randomBytes(32).toString("base64url");
    else if (secret.source === "ask") {
      const typed = (await ask(`${secret.name} (${secret.why}): `, { secret: true }))?.trim();
      if (!typed) {
        throw new StepFailure("secrets", `${secret.name} is needed (${secret.why}) and no value was given.`, `Set ${secret.name} in the environment (as CI does), or run the setup in a terminal to type it.`);
      }
      values[secret.name] = typed;
    }
  }
  return values;
}
