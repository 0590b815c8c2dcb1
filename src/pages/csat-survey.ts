/**
 * GET /survey/responses/{conversation_uuid}: the page behind the CSAT survey link (the path Chatwoot's
 * links use). The contact picks a rating (emoji or stars, as the inbox's survey is configured), may add
 * a comment, and sends it through the public API (PUT /public/api/v1/csat_survey/{uuid}); a rating can
 * be changed until the survey expires. A link ending in `#rating-N` (a rating clicked in an e-mail)
 * preselects N. Plain HTML and a small script, no build step; everything comes from this Worker, and
 * every text the page shows from the API goes in through textContent, never as markup.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { undocumented } from "../http/openapi";
import { SCRIPTED_PAGE_POLICY } from "../http/secure";
import { layout } from "./kit";

const PAGE = layout({
  title: "Rate the conversation",
  head: '<meta name="referrer" content="no-referrer">',
  style: /* css */ `
  main { max-width: 28rem; margin: 3rem auto; }
  h1 { font-size: 1.2rem; margin: 0 0 1rem; }
  .ratings { display: flex; gap: .5rem; justify-content: center; margin: 1rem 0; }
  .ratings button { font-size: 1.9rem; color: inherit; background: none; border: 2px solid transparent; border-radius: 10px; padding: .2rem .45rem; filter: grayscale(1); opacity: .7; }
  .ratings button[aria-pressed=true] { filter: none; opacity: 1; border-color: var(--accent); }
  .ratings button:disabled { background: none; }
  textarea { width: 100%; box-sizing: border-box; min-height: 5rem; }
  .send { margin-top: .75rem; width: 100%; padding: .6rem; }
  #status { min-height: 1.5em; margin-top: .75rem; }`,
  body: /* html */ `
<main class="card">
  <h1 id="question">Loading the survey…</h1>
  <form id="survey" hidden>
    <div class="ratings" id="ratings" role="group" aria-label="Rating"></div>
    <label for="feedback">Anything you would like to add? (optional)</label>
    <textarea id="feedback" maxlength="10000"></textarea>
    <button class="send" id="send" type="submit" disabled>Send</button>
  </form>
  <p id="status" class="muted" role="status"></p>
</main>`,
  scripts: ["/survey/app.js"],
});

const SCRIPT = /* js */ `"use strict";
const $ = (id) => document.getElementById(id);
const uuid = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const api = "/public/api/v1/csat_survey/" + encodeURIComponent(uuid);
const EMOJI = ["😞", "😑", "😐", "😊", "😍"];
const LABELS = ["Very unsatisfied", "Unsatisfied", "Neutral", "Satisfied", "Very satisfied"];
let rating = null;

function say(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "muted";
  document.body.dataset.state = isError ? "error" : "ready";
}

function choose(value) {
  rating = value;
  for (const button of $("ratings").children) button.setAttribute("aria-pressed", String(Number(button.dataset.rating) === value));
  $("send").disabled = false;
}

function render(survey) {
  $("question").textContent = survey.message || "Please rate the conversation";
  $("ratings").replaceChildren(...[1, 2, 3, 4, 5].map((value) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.rating = String(value);
    button.title = LABELS[value - 1];
    button.setAttribute("aria-label", LABELS[value - 1]);
    button.textContent = survey.display_type === "star" ? "★".repeat(value) : EMOJI[value - 1];
    button.disabled = survey.locked;
    button.addEventListener("click", () => choose(value));
    return button;
  }));
  $("survey").hidden = false;
  const answer = survey.csat_survey_response;
  if (answer) {
    choose(answer.rating);
    $("feedback").value = answer.feedback_message || "";
  }
  $("feedback").disabled = survey.locked;
  if (survey.locked) {
    $("send").disabled = true;
    say(answer ? "Thank you for your feedback. This survey is closed." : "This survey has expired.");
    return;
  }
  const wanted = /^#rating-([1-5])$/.exec(location.hash);
  if (wanted && !answer) choose(Number(wanted[1]));
  say(answer ? "Thank you for your feedback. You can change it until the survey closes." : "");
}

async function load() {
  const res = await fetch(api);
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    $("question").textContent = res.status === 404 ? "This survey does not exist." : "The survey could not be loaded.";
    say((body && body.description) || "", true);
    return;
  }
  render(body);
}

$("survey").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (rating === null) return;
  $("send").disabled = true;
  const feedback = $("feedback").value.trim();
  const answer = { rating };
  if (feedback) answer.feedback_message = feedback;
  const res = await fetch(api, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: { submitted_values: { csat_survey_response: answer } } }),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    $("send").disabled = false;
    say((body && body.description) || "Your rating could not be sent.", true);
    return;
  }
  render(body);
  say("Thank you for your feedback.");
});

load().catch(() => say("The survey could not be loaded.", true));
`;

export const csatSurveyPage = new Hono<AppEnv>()
  .get("/app.js", undocumented("the survey page's script"), (c) => c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }))
  .get("/responses/:conversation_uuid", undocumented("a page for people; its data comes from /public/api/v1/csat_survey"), (c) =>
    // fetches only this Worker's API and script, and shows no image (an avatar could be off-site)
    c.html(PAGE, 200, { "Content-Security-Policy": SCRIPTED_PAGE_POLICY }),
  );
