/**
 * Cost of the reports at 1,000 and 100,000 conversations, beside GET /api measured in the same run: the
 * time series (a few metrics, group_by day and hour, type account, agent and inbox), reports/summary,
 * reports/conversations, every summary_reports route, the breakdown reports (bot_summary, bot_metrics,
 * inbox_label_matrix, first_response_time_distribution, outgoing_messages_count) and one CSV download. Round trips and rows read come
 * from the Server-Timing header.
 *
 * The history is seeded in SQL (recursive CTEs, a handful of statements): conversations, their messages,
 * labels, reporting_events, counters, and report_rollups derived from those facts by the rules of
 * src/domain/reports/facts.ts. Before it measures, the bench checks the seed against the domain: the same
 * plan of conversations is replayed through the HTTP API (the Worker's clock faked) in one account and
 * seeded in another, and their rollups, reporting_events, counters, conversations and messages must be
 * the same (ids mapped to names).
 *
 * The account grows in two ways. By its past: 1,000 and 100,000 conversations share their last 14 days
 * (conversation k is created k × 1,240 s before the newest, whatever the size), so 100,000 are the same
 * two weeks plus almost four years before. By its traffic: 100,000 conversations in the same 14 days
 * (k × 12.4 s). The measured window is the week before the anchor hour (summary also reads the week
 * before it); one more request asks for a whole year.
 */
import { afterAll, expect, it, vi } from "vitest";
import { type Reply, call, get, post } from "../test/support/http";
import { addToAccount, createUser, createWorld } from "../test/support/world";
import { shardOf } from "../test/support/databases";
import { addInboxMember, createContact, createContactInbox, createInbox, createTeam } from "../test/support/fixtures";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Conversation k is created k intervals before the newest one. */
const INTERVAL = 1_240_000;
/** The newest conversation is this old at the anchor, so that all of its facts (3 hours) are past. */
const NEWEST_AGE = 4 * HOUR;
/** The anchor: the start of the current hour (the window's end), the same for both sizes. */
const ANCHOR = Math.floor(Date.now() / HOUR) * HOUR;
const LABELS = ["billing", "vip", "spam"] as const;
const INBOXES = 3;
const AGENTS = 4;
const TEAMS = 2;

const BLOCKS = 7;
const PER_BLOCK = 3;

afterAll(() => vi.useRealTimers());

// ---------------------------------------------------------------- the plan of conversation k

/**
 * Conversation k (0 is the newest): created in inbox k % 3, assigned to agent k % 4 (none when k % 5 = 0,
 * the administrator answers those), in team k % 2 (none when k % 7 = 3), labelled billing (k % 3 = 0)
 * and vip (k % 10 = 0) a minute after creation. The contact writes after 2 minutes and is answered
 * 5 to 34 minutes later (the first response); for even k the contact writes again at 60 minutes and is
 * answered 1 to 20 minutes later (a reply time), except when k % 8 = 0 (it stays waiting). Three in four
 * are resolved at 3 hours; the others stay open.
 */
type Plan = {
  created: number;
  inbox: number;
  agent: number | null;
  team: number | null;
  labels: string[];
  steps: Array<{ at: number; kind: "labels" | "incoming" | "reply" | "resolve" }>;
};

const createdAt = (k: number) => ANCHOR - NEWEST_AGE - k * INTERVAL;
const firstReplyDelay = (k: number) => (5 + (k % 30)) * MIN;
const replyDelay = (k: number) => (1 + (k % 20)) * MIN;

function planOf(k: number): Plan {
  const created = createdAt(k);
  const labels = [...(k % 3 === 0 ? ["billing"] : []), ...(k % 10 === 0 ? ["vip"] : [])];
  const steps: Plan["steps"] = [];
  if (labels.length) steps.push({ at: created + MIN, kind: "labels" });
  steps.push({ at: created + 2 * MIN, kind: "incoming" }, { at: created + 2 * MIN + firstReplyDelay(k), kind: "reply" });
  if (k % 2 === 0) {
    steps.push({ at: created + 60 * MIN, kind: "incoming" });
    if (k % 8 !== 0) steps.push({ at: created + 60 * MIN + replyDelay(k), kind: "reply" });
  }
  if (k % 4 !== 0) steps.push({ at: created + 180 * MIN, kind: "resolve" });
  return { created, inbox: k % INBOXES, agent: k % 5 === 0 ? null : k % AGENTS, team: k % 7 === 3 ? null : k % TEAMS, labels, steps };
}

// ---------------------------------------------------------------- an account with its people

type Desk = Awaited<ReturnType<typeof createDesk>>;

/** An account with 3 API inboxes, 4 agents (members of every inbox), 2 teams, 3 labels and one contact. */
async function createDesk(name: string) {
  const world = await createWorld(name);
  const agents = [world.agent];
  for (let i = 1; i < AGENTS; i++) {
    const agent = await createUser(world.platformKey, `${name} Agent ${i}`);
    await addToAccount(world.platformKey, world.accountId, agent.id, "agent");
    agents.push(agent);
  }
  const inboxes: number[] = [];
  for (let i = 0; i < INBOXES; i++) {
    const inbox = await createInbox(world.accountId, { name: `Inbox ${i}` });
    for (const agent of agents) await addInboxMember(world.accountId, inbox, agent.id);
    inboxes.push(inbox);
  }
  const teams: number[] = [];
  for (let i = 0; i < TEAMS; i++) teams.push(await createTeam(world.accountId, `team ${i}`, agents.filter((_, a) => a % TEAMS === i).map((a) => a.id)));
  const labels: number[] = [];
  for (const title of LABELS) {
    const res = await post(`${world.base}/labels`, world.admin.key, { title });
    if (res.status !== 200) throw new Error(`label: ${res.status} ${JSON.stringify(res.body)}`);
    labels.push(res.body.id);
  }
  const contact = await createContact(world.accountId, { name: "Customer" });
  return { ...world, name, agents, inboxes, teams, labels, contact, v2: `/api/v2/accounts/${world.accountId}` };
}

// ---------------------------------------------------------------- the history, seeded in SQL

/** A statement runner on one database (the seeded account's shard). */
const runOn = (db: D1Database) => (sql: string, ...values: unknown[]) => db.prepare(sql).bind(...values).run();

/**
 * Seeds conversations k = 0 .. count-1 of the plan (planOf, here in SQL; `interval` apart) into `desk`: conversations,
 * messages (incoming, replies, the "resolved" activity line), taggings, reporting_events, the
 * conversation counters and the report rollups. Not seeded: outbox events, the message search index and
 * the contact's last activity, which reports do not read.
 */
async function seedHistory(desk: Desk, count: number, progress: (step: string) => void, interval = INTERVAL) {
  const a = desk.accountId;
  const run = runOn(await shardOf(a));
  const admin = desk.admin.id;
  const json = (ids: number[]) => JSON.stringify(ids);
  const contactInboxes: number[] = [];
  for (const inbox of desk.inboxes) contactInboxes.push((await createContactInbox(a, desk.contact, inbox)).id);

  // k of a seeded conversation row c, and the plan's times in SQL
  const k = `(${count} - c.display_id)`;
  const firstReply = `c.created_at + ${2 * MIN} + (5 + ${k} % 30) * ${MIN}`;
  const secondIncoming = `c.created_at + ${60 * MIN}`;
  const secondReply = `c.created_at + ${60 * MIN} + (1 + ${k} % 20) * ${MIN}`;
  const resolvedAt = `c.created_at + ${180 * MIN}`;
  const replier = `coalesce(c.assignee_id, ${admin})`;

  await run(
    `WITH RECURSIVE seq(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM seq WHERE k < ?1 - 1)
     INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, assignee_id, team_id, status,
       waiting_since, first_reply_created_at, last_activity_at, additional_attributes, custom_attributes, created_at, updated_at)
     SELECT ?2, ?1 - k, ?2 || '-' || k, json_extract(?3, '$[' || (k % ${INBOXES}) || ']'), ?4, json_extract(?5, '$[' || (k % ${INBOXES}) || ']'),
       CASE WHEN k % 5 = 0 THEN NULL ELSE json_extract(?6, '$[' || (k % ${AGENTS}) || ']') END,
       CASE WHEN k % 7 = 3 THEN NULL ELSE json_extract(?7, '$[' || (k % ${TEAMS}) || ']') END,
       CASE WHEN k % 4 = 0 THEN 0 ELSE 1 END,
       CASE WHEN k % 8 = 0 THEN t + ${60 * MIN} END,
       t + ${2 * MIN} + (5 + k % 30) * ${MIN},
       CASE WHEN k % 8 = 0 THEN t + ${60 * MIN} WHEN k % 2 = 0 THEN t + ${60 * MIN} + (1 + k % 20) * ${MIN} ELSE t + ${2 * MIN} + (5 + k % 30) * ${MIN} END,
       '{}', '{}', t, t
     FROM (SELECT k, ${ANCHOR - NEWEST_AGE} - k * ${interval} AS t FROM seq)`,
    count,
    a,
    json(desk.inboxes),
    desk.contact,
    json(contactInboxes),
    json(desk.agents.map((x) => x.id)),
    json(desk.teams),
  );
  progress("conversations");

  const messageColumns = "account_id, inbox_id, conversation_id, message_type, content, processed_message_content, private, sender_type, sender_id, created_at, updated_at";
  const messageRows = (type: number, content: string, processed: string, senderType: string, senderId: string, at: string, where = "") =>
    `SELECT c.account_id, c.inbox_id, c.id, ${type}, ${content}, ${processed}, 0, ${senderType}, ${senderId}, ${at}, ${at} FROM conversations c WHERE c.account_id = ?1 ${where}`;
  const text = (s: string) => `'${s} ' || c.display_id`;
  await run(
    `INSERT INTO messages (${messageColumns})
     ${messageRows(0, text("Where is order"), text("Where is order"), "'Contact'", "c.contact_id", "c.created_at + " + 2 * MIN)}
     UNION ALL ${messageRows(1, text("It ships today, order"), text("It ships today, order"), "'User'", replier, firstReply)}
     UNION ALL ${messageRows(0, text("Any news on order"), text("Any news on order"), "'Contact'", "c.contact_id", secondIncoming, `AND ${k} % 2 = 0`)}
     UNION ALL ${messageRows(1, text("Here it is, order"), text("Here it is, order"), "'User'", replier, secondReply, `AND ${k} % 2 = 0 AND ${k} % 8 <> 0`)}
     UNION ALL ${messageRows(2, "'Conversation was marked resolved by ' || ?2", "NULL", "NULL", "NULL", resolvedAt, `AND ${k} % 4 <> 0`)}`,
    a,
    `${desk.name} Admin`,
  );
  progress("messages");

  await run(
    `INSERT INTO taggings (account_id, taggable_type, taggable_id, tag, created_at)
     SELECT c.account_id, 'Conversation', c.id, 'billing', c.created_at + ${MIN} FROM conversations c WHERE c.account_id = ?1 AND ${k} % 3 = 0
     UNION ALL SELECT c.account_id, 'Conversation', c.id, 'vip', c.created_at + ${MIN} FROM conversations c WHERE c.account_id = ?1 AND ${k} % 10 = 0`,
    a,
  );
  const event = (name: string, value: string, user: string, at: string, where = "") =>
    `SELECT c.account_id, '${name}', ${value}, c.id, c.inbox_id, ${user}, ${at} FROM conversations c WHERE c.account_id = ?1 ${where}`;
  await run(
    `INSERT INTO reporting_events (account_id, name, value, conversation_id, inbox_id, user_id, created_at)
     ${event("conversation_created", "0", String(admin), "c.created_at")}
     UNION ALL ${event("first_response", `(${firstReply} - c.created_at) / 1000`, replier, firstReply)}
     UNION ALL ${event("reply_time", `(${secondReply} - (${secondIncoming})) / 1000`, replier, secondReply, `AND ${k} % 2 = 0 AND ${k} % 8 <> 0`)}
     UNION ALL ${event("conversation_resolved", "(" + 180 * MIN + ") / 1000", "c.assignee_id", resolvedAt, `AND ${k} % 4 <> 0`)}`,
    a,
  );
  progress("labels and reporting events");

  // The rollups, from the facts just seeded, by the attribution of facts.ts: assignee, team and labels are
  // fixed from the first minute of each conversation here, so "at that moment" and "now" agree.
  await run(
    `WITH facts AS MATERIALIZED (
       SELECT e.name AS metric, e.created_at AS at, e.value AS value, c.id AS conv, c.inbox_id AS inbox, c.team_id AS team,
         CASE WHEN e.name = 'conversation_created' THEN c.assignee_id ELSE e.user_id END AS agent
       FROM reporting_events e JOIN conversations c ON c.id = e.conversation_id WHERE e.account_id = ?1
       UNION ALL
       SELECT CASE m.message_type WHEN 0 THEN 'incoming_message' ELSE 'outgoing_message' END, m.created_at, 0, c.id, c.inbox_id, c.team_id,
         CASE m.message_type WHEN 0 THEN c.assignee_id ELSE m.sender_id END
       FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.account_id = ?1 AND m.message_type IN (0, 1) AND m.private = 0
     ),
     counted(metric, dimension, dimension_id, at, value) AS (
       SELECT metric, 'account', 0, at, value FROM facts
       UNION ALL SELECT metric, 'inbox', inbox, at, value FROM facts
       UNION ALL SELECT metric, 'team', team, at, value FROM facts WHERE team IS NOT NULL
       UNION ALL SELECT metric, 'agent', agent, at, value FROM facts WHERE agent IS NOT NULL
       UNION ALL SELECT f.metric, 'label', l.id, f.at, f.value FROM facts f
         JOIN taggings t ON t.taggable_type = 'Conversation' AND t.taggable_id = f.conv
         JOIN labels l ON l.account_id = ?1 AND l.title = lower(t.tag)
     )
     INSERT INTO report_rollups (account_id, metric, dimension, dimension_id, bucket, count, total)
     SELECT ?1, metric, dimension, dimension_id, at / ${HOUR} * ${HOUR} AS bucket, count(*), sum(value) FROM counted WHERE true
     GROUP BY metric, dimension, dimension_id, bucket`,
    a,
  );
  // The breakdown rollups, as facts.ts keeps them and the migration that introduced them backfilled them:
  // conversations by status now and by current labels per inbox (the hour each was created), first
  // responses per inbox by how long they took (the hour of the response).
  await run(
    `INSERT INTO report_rollups (account_id, metric, dimension, dimension_id, bucket, count, total)
     SELECT account_id, CASE status WHEN 0 THEN 'status_open' WHEN 1 THEN 'status_resolved' WHEN 2 THEN 'status_pending' ELSE 'status_snoozed' END,
       'inbox', inbox_id, created_at / ${HOUR} * ${HOUR} AS bucket, count(*), 0
     FROM conversations WHERE account_id = ?1 GROUP BY 2, 4, 5`,
    a,
  );
  await run(
    `INSERT INTO report_rollups (account_id, metric, dimension, dimension_id, bucket, count, total)
     SELECT account_id, CASE WHEN value < 3600 THEN 'first_response_0_1h' WHEN value < 14400 THEN 'first_response_1_4h'
       WHEN value < 28800 THEN 'first_response_4_8h' WHEN value < 86400 THEN 'first_response_8_24h' ELSE 'first_response_24h_plus' END,
       'inbox', inbox_id, created_at / ${HOUR} * ${HOUR} AS bucket, count(*), sum(value)
     FROM reporting_events WHERE account_id = ?1 AND name = 'first_response' GROUP BY 2, 4, 5`,
    a,
  );
  await run(
    `INSERT INTO report_rollups (account_id, metric, dimension, dimension_id, bucket, count, total)
     SELECT c.account_id, 'inbox_conversations:' || c.inbox_id, 'label', l.id, c.created_at / ${HOUR} * ${HOUR} AS bucket, count(*), 0
     FROM conversations c
     JOIN taggings t ON t.account_id = c.account_id AND t.taggable_type = 'Conversation' AND t.taggable_id = c.id
     JOIN labels l ON l.account_id = t.account_id AND l.title = lower(t.tag)
     WHERE c.account_id = ?1 GROUP BY 2, 4, 5`,
    a,
  );
  progress("report rollups");

  // The conversation counters, by the keys of src/domain/conversations/counters.ts
  await run(
    `WITH c AS MATERIALIZED (
       SELECT status, 'i:' || inbox_id AS si, 't:' || team_id AS st, 'i:' || inbox_id || ':t:' || team_id AS sit,
         CASE WHEN assignee_id IS NULL THEN 'unassigned' ELSE 'assignee:' || assignee_id END AS bucket, assignee_id,
         (first_reply_created_at IS NULL OR waiting_since IS NOT NULL) AS unattended
       FROM conversations WHERE account_id = ?1
     ),
     scoped(scope, status, bucket) AS (
       SELECT 'a', status, bucket FROM c UNION ALL SELECT si, status, bucket FROM c
       UNION ALL SELECT st, status, bucket FROM c WHERE st IS NOT NULL UNION ALL SELECT sit, status, bucket FROM c WHERE sit IS NOT NULL
     ),
     keyed(key) AS (
       SELECT 'conversations.' || scope || '.' || status || '.all' FROM scoped
       UNION ALL SELECT 'conversations.' || scope || '.' || status || '.' || bucket FROM scoped
       UNION ALL SELECT 'conversations.a.' || status || '.unattended' FROM c WHERE unattended
       UNION ALL SELECT 'conversations.a.' || status || '.unattended:assignee:' || assignee_id FROM c WHERE unattended AND assignee_id IS NOT NULL
     )
     INSERT INTO counters (account_id, key, value) SELECT ?1, key, count(*) FROM keyed WHERE true GROUP BY key`,
    a,
  );
  progress("counters");
}

// ---------------------------------------------------------------- the same plan through the domain

/** Replays conversations k = 0 .. count-1 of the plan through the HTTP API, in time order, on a faked clock. */
async function replayHistory(desk: Desk, count: number) {
  const steps: Array<{ at: number; k: number; kind: Plan["steps"][number]["kind"] | "create" }> = [];
  const plans = Array.from({ length: count }, (_, k) => planOf(k));
  plans.forEach((plan, k) => steps.push({ at: plan.created, k, kind: "create" }, ...plan.steps.map((s) => ({ ...s, k }))));
  steps.sort((x, y) => x.at - y.at || y.k - x.k);
  const ids = new Map<number, number>();
  const ok = (what: string, reply: Reply) => {
    if (reply.status !== 200) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply;
  };
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    for (const step of steps) {
      vi.setSystemTime(step.at);
      const plan = plans[step.k];
      const path = `${desk.base}/conversations/${ids.get(step.k)}`;
      const admin = desk.admin.key;
      const replier = plan.agent === null ? admin : desk.agents[plan.agent].key;
      switch (step.kind) {
        case "create": {
          const body = {
            inbox_id: desk.inboxes[plan.inbox],
            contact_id: desk.contact,
            ...(plan.agent !== null && { assignee_id: desk.agents[plan.agent].id }),
            ...(plan.team !== null && { team_id: desk.teams[plan.team] }),
          };
          ids.set(step.k, ok("create", await post(`${desk.base}/conversations`, admin, body)).body.id);
          break;
        }
        case "labels":
          ok("labels", await post(`${path}/labels`, admin, { labels: plan.labels }));
          break;
        case "incoming":
          ok("incoming", await post(`${path}/messages`, admin, { content: "Where is my order?", message_type: "incoming" }));
          break;
        case "reply":
          ok("reply", await post(`${path}/messages`, replier, { content: "On its way." }));
          break;
        case "resolve":
          ok("resolve", await post(`${path}/toggle_status`, admin, { status: "resolved" }));
          break;
      }
    }
  } finally {
    vi.useRealTimers();
  }
}

/** What the account holds that reports depend on, with ids replaced by names and times by offsets from the anchor. */
async function snapshot(desk: Desk) {
  const names = new Map<string, string>();
  desk.inboxes.forEach((id, i) => names.set(`inbox:${id}`, `inbox ${i}`));
  desk.agents.forEach((agent, i) => names.set(`agent:${agent.id}`, `agent ${i}`));
  names.set(`agent:${desk.admin.id}`, "admin");
  desk.teams.forEach((id, i) => names.set(`team:${id}`, `team ${i}`));
  desk.labels.forEach((id, i) => names.set(`label:${id}`, LABELS[i]));
  const name = (kind: string, id: number | null) => (id === null ? "-" : (names.get(`${kind}:${id}`) ?? `${kind}?${id}`));
  const rel = (at: number | null) => (at === null ? "-" : `${(at - ANCHOR) / 1000}s`);
  const all = async <T,>(sql: string) => (await (await shardOf(desk.accountId)).prepare(sql).bind(desk.accountId).all<T>()).results;

  const rollups = (await all<{ metric: string; dimension: string; dimension_id: number; bucket: number; count: number; total: number }>(
    "SELECT metric, dimension, dimension_id, bucket, count, total FROM report_rollups WHERE account_id = ?1 AND count <> 0",
  )).map((r) => {
    // the inbox × label rollups name their inbox in the metric
    const metric = r.metric.replace(/^inbox_conversations:(\d+)$/, (_, id: string) => `inbox_conversations:${name("inbox", Number(id))}`);
    return `${metric} ${r.dimension === "account" ? "account" : name(r.dimension, r.dimension_id)} ${rel(r.bucket)} ${r.count} ${r.total}`;
  });
  const events = (await all<{ name: string; value: number; display_id: number; inbox_id: number; user_id: number | null; created_at: number }>(
    "SELECT e.name, e.value, c.display_id, e.inbox_id, e.user_id, e.created_at FROM reporting_events e JOIN conversations c ON c.id = e.conversation_id WHERE e.account_id = ?1",
  )).map((e) => `${e.name} #${e.display_id} ${e.value} ${name("inbox", e.inbox_id)} ${name("agent", e.user_id)} ${rel(e.created_at)}`);
  const counters = (await all<{ key: string; value: number }>("SELECT key, value FROM counters WHERE account_id = ?1 AND key LIKE 'conversations.%' AND value <> 0")).map(
    (c) =>
      `${c.key.replace(/(i:|t:|assignee:)(\d+)/g, (_, prefix: string, id: string) => `${prefix}${name(prefix === "i:" ? "inbox" : prefix === "t:" ? "team" : "agent", Number(id))}`)} ${c.value}`,
  );
  const conversations = (await all<Record<string, number | null>>(
    "SELECT display_id, inbox_id, assignee_id, team_id, status, waiting_since, first_reply_created_at, last_activity_at, created_at FROM conversations WHERE account_id = ?1",
  )).map(
    (c) =>
      `#${c.display_id} ${name("inbox", c.inbox_id)} ${name("agent", c.assignee_id)} ${name("team", c.team_id)} status ${c.status} waiting ${rel(c.waiting_since)} first reply ${rel(c.first_reply_created_at)} active ${rel(c.last_activity_at)} created ${rel(c.created_at)}`,
  );
  const messages = (await all<{ display_id: number; message_type: number; private: number; sender_type: string | null; sender_id: number | null; created_at: number }>(
    "SELECT c.display_id, m.message_type, m.private, m.sender_type, m.sender_id, m.created_at FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.account_id = ?1",
  )).map(
    (m) =>
      `#${m.display_id} type ${m.message_type} private ${m.private} ${m.sender_type ?? "-"} ${m.sender_type === "User" ? name("agent", m.sender_id) : m.sender_type === "Contact" ? "contact" : "-"} ${rel(m.created_at)}`,
  );
  const taggings = (await all<{ display_id: number; tag: string; created_at: number }>(
    "SELECT c.display_id, t.tag, t.created_at FROM taggings t JOIN conversations c ON c.id = t.taggable_id WHERE t.account_id = ?1 AND t.taggable_type = 'Conversation'",
  )).map((t) => `#${t.display_id} ${t.tag} ${rel(t.created_at)}`);
  return { rollups, events, counters, conversations, messages, taggings };
}

/** Throws unless the seeded account holds what the domain wrote for the same plan. */
async function checkSeedAgainstDomain(log: (line: string) => void) {
  const COUNT = 48;
  const replayed = await createDesk("Reports replay");
  const seeded = await createDesk("Reports seed check");
  const started = performance.now();
  await replayHistory(replayed, COUNT);
  await seedHistory(seeded, COUNT, () => {});
  const [fromDomain, fromSeed] = [await snapshot(replayed), await snapshot(seeded)];
  const sizes: string[] = [];
  for (const part of Object.keys(fromDomain) as Array<keyof typeof fromDomain>) {
    const domain = [...fromDomain[part]].sort();
    const seed = [...fromSeed[part]].sort();
    const onlyDomain = domain.filter((line) => !seed.includes(line));
    const onlySeed = seed.filter((line) => !domain.includes(line));
    if (onlyDomain.length || onlySeed.length || domain.length !== seed.length) {
      throw new Error(`the seed's ${part} differ from the domain's:\n only the domain: ${onlyDomain.slice(0, 10).join("\n  ")}\n only the seed: ${onlySeed.slice(0, 10).join("\n  ")}`);
    }
    sizes.push(`${domain.length} ${part}`);
  }
  log(`seed = domain for ${COUNT} conversations replayed through the API (${sizes.join(", ")}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------- measuring

type Sample = { ms: number; roundTrips: number; rowsRead: number };

function parseTiming(header: string | null) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read") };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** BLOCKS blocks of PER_BLOCK back-to-back requests (the clock is coarse): per-request medians. */
async function measure(path: string, key: string | null): Promise<{ sample: Sample; reply: Reply }> {
  const times: number[] = [];
  const costs: Array<{ roundTrips: number; rowsRead: number }> = [];
  let reply: Reply | undefined;
  for (let b = 0; b < BLOCKS; b++) {
    const started = performance.now();
    for (let i = 0; i < PER_BLOCK; i++) {
      reply = await call("GET", path, { key });
      if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
      costs.push(parseTiming(reply.headers.get("server-timing")));
    }
    times.push((performance.now() - started) / PER_BLOCK);
  }
  return { sample: { ms: median(times), roundTrips: median(costs.map((c) => c.roundTrips)), rowsRead: median(costs.map((c) => c.rowsRead)) }, reply: reply! };
}

type Point = { value: number; timestamp: number; count?: number };
const round = (n: number) => Math.round(n * 10) / 10;

/** A short account of what an answer found, to show that both sizes answer the same window. */
function found(path: string, body: unknown): string {
  if (typeof body === "string") return `${body.trim().split("\n").length} CSV lines`;
  if (Array.isArray(body) && path.includes("/summary_reports/")) {
    const rows = body as Array<{ conversations_count: number }>;
    return `${rows.length} rows, Σ conversations ${rows.reduce((s, r) => s + r.conversations_count, 0)}`;
  }
  if (Array.isArray(body) && path.includes("/reports/conversations")) return `${body.length} agents`;
  if (Array.isArray(body) && path.includes("/outgoing_messages_count")) {
    return `${body.length} rows, Σ ${(body as Array<{ outgoing_messages_count: number }>).reduce((s, r) => s + r.outgoing_messages_count, 0)}`;
  }
  if (path.includes("/inbox_label_matrix")) {
    const { matrix } = body as { matrix: number[][] };
    return `${matrix.length} × ${matrix[0]?.length ?? 0}, Σ ${matrix.flat().reduce((s, n) => s + n, 0)}`;
  }
  if (path.includes("/summary_reports/channel") || path.includes("/first_response_time_distribution")) {
    const channels = body as Record<string, Record<string, number>>;
    return Object.entries(channels)
      .map(([channel, counts]) => `${channel.replace("Channel::", "")}: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(" ")}`)
      .join("; ");
  }
  if (Array.isArray(body)) {
    const points = body as Point[];
    const averages = points.some((p) => p.count !== undefined);
    const n = points.reduce((s, p) => s + (averages ? (p.count ?? 0) : p.value), 0);
    return averages ? `${points.length} points, ${n} facts` : `${points.length} points, Σ ${n}`;
  }
  const record = body as Record<string, number>;
  if ("conversations_count" in record) return `conversations ${record.conversations_count}, resolutions ${record.resolutions_count}, first response ${round(record.avg_first_response_time)} s`;
  return Object.entries(record)
    .filter(([, v]) => typeof v !== "object")
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
}

/** Throws unless the summary of the window agrees with the seeded rows themselves. */
async function checkSummary(desk: Desk, window: string, since: number, until: number) {
  const reply = await get(`${desk.v2}/reports/summary?${window}`, desk.admin.key);
  const count = async (sql: string) => (await (await shardOf(desk.accountId)).prepare(sql).bind(desk.accountId, since * 1000, until * 1000).first<{ n: number }>())!.n;
  const expected = {
    conversations_count: await count("SELECT count(*) AS n FROM conversations WHERE account_id = ?1 AND created_at >= ?2 AND created_at < ?3"),
    incoming_messages_count: await count("SELECT count(*) AS n FROM messages WHERE account_id = ?1 AND message_type = 0 AND created_at >= ?2 AND created_at < ?3"),
    outgoing_messages_count: await count("SELECT count(*) AS n FROM messages WHERE account_id = ?1 AND message_type = 1 AND created_at >= ?2 AND created_at < ?3"),
    resolutions_count: await count("SELECT count(*) AS n FROM reporting_events WHERE account_id = ?1 AND name = 'conversation_resolved' AND created_at >= ?2 AND created_at < ?3"),
    avg_first_response_time: await count("SELECT avg(value) AS n FROM reporting_events WHERE account_id = ?1 AND name = 'first_response' AND created_at >= ?2 AND created_at < ?3"),
  };
  const { avg_first_response_time, ...counts } = expected;
  expect(reply.body).toMatchObject(counts);
  expect(reply.body.avg_first_response_time).toBeCloseTo(avg_first_response_time, 6);
}

it("records the cost of the reports at 1,000 and 100,000 conversations", async () => {
  const log = (line: string) => console.log(`[bench:reports] ${line}`);
  await checkSeedAgainstDomain(log);

  const since = (ANCHOR - 7 * DAY) / 1000;
  const until = ANCHOR / 1000;
  const window = `since=${since}&until=${until}`;
  const lines: string[] = [];
  // the account grows by its past (same two recent weeks), then by its traffic (the same two weeks, 100 times busier)
  const accounts = [
    { size: 1_000, interval: INTERVAL, name: "1,000" },
    { size: 100_000, interval: INTERVAL, name: "100,000 over 4 years" },
    { size: 100_000, interval: INTERVAL / 100, name: "100,000 in 2 weeks" },
  ];
  for (const { size, interval, name } of accounts) {
    const desk = await createDesk(`Reports bench ${name}`);
    const started = performance.now();
    let last = started;
    await seedHistory(
      desk,
      size,
      (step) => {
        const now = performance.now();
        log(`${name}: ${step} seeded in ${((now - last) / 1000).toFixed(1)} s`);
        last = now;
      },
      interval,
    );
    const rows = async (table: string) => (await (await shardOf(desk.accountId)).prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?1`).bind(desk.accountId).first<{ n: number }>())!.n;
    log(
      `${name}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${await rows("conversations")} conversations, ${await rows("messages")} messages, ` +
        `${await rows("reporting_events")} reporting events, ${await rows("report_rollups")} rollup rows`,
    );
    await checkSummary(desk, window, since, until);

    const v2 = desk.v2;
    const agent = desk.agents[1].id;
    const inbox = desk.inboxes[0];
    const cases: Array<[string, string]> = [];
    for (const metric of ["conversations_count", "incoming_messages_count", "avg_first_response_time", "resolutions_count"]) {
      for (const groupBy of ["day", "hour"]) {
        cases.push([`reports ${metric} account by ${groupBy}`, `${v2}/reports?${window}&metric=${metric}&group_by=${groupBy}`]);
        cases.push([`reports ${metric} agent by ${groupBy}`, `${v2}/reports?${window}&metric=${metric}&group_by=${groupBy}&type=agent&id=${agent}`]);
        cases.push([`reports ${metric} inbox by ${groupBy}`, `${v2}/reports?${window}&metric=${metric}&group_by=${groupBy}&type=inbox&id=${inbox}`]);
      }
    }
    cases.push(
      ["reports/summary account", `${v2}/reports/summary?${window}`],
      ["reports/summary agent", `${v2}/reports/summary?${window}&type=agent&id=${agent}`],
      ["reports/summary inbox", `${v2}/reports/summary?${window}&type=inbox&id=${inbox}`],
      ["reports/conversations account", `${v2}/reports/conversations?type=account`],
      ["reports/conversations agent", `${v2}/reports/conversations?type=agent`],
      ["summary_reports/agent", `${v2}/summary_reports/agent?${window}`],
      ["summary_reports/team", `${v2}/summary_reports/team?${window}`],
      ["summary_reports/inbox", `${v2}/summary_reports/inbox?${window}`],
      ["summary_reports/label", `${v2}/summary_reports/label?${window}`],
      ["reports/agents (CSV)", `${v2}/reports/agents?${window}`],
      ["summary_reports/channel", `${v2}/summary_reports/channel?${window}`],
      ["reports/bot_summary account", `${v2}/reports/bot_summary?${window}`],
      ["reports/bot_metrics", `${v2}/reports/bot_metrics?${window}`],
      ["reports/inbox_label_matrix", `${v2}/reports/inbox_label_matrix?${window}`],
      ["reports/first_response_time_distribution", `${v2}/reports/first_response_time_distribution?${window}`],
      ["reports/outgoing_messages_count by agent", `${v2}/reports/outgoing_messages_count?${window}&group_by=agent`],
      ["reports/outgoing_messages_count by label", `${v2}/reports/outgoing_messages_count?${window}&group_by=label`],
      // a window that holds the whole history at 1,000: it reads what the account had in that year
      ["reports conversations_count account by month, 365 days", `${v2}/reports?since=${since - 358 * 86_400}&until=${until}&metric=conversations_count&group_by=month`],
    );

    const baseline: number[] = [];
    const results: Array<[string, Sample, string]> = [];
    baseline.push((await measure("/api", null)).sample.ms);
    for (const [request, path] of cases) {
      const { sample, reply } = await measure(path, desk.admin.key);
      results.push([request, sample, found(path, reply.body)]);
      if (results.length % 10 === 0) baseline.push((await measure("/api", null)).sample.ms);
    }
    baseline.push((await measure("/api", null)).sample.ms);
    const base = median(baseline);
    log(`${name}: measured ${cases.length} requests; GET /api median ${base.toFixed(2)} ms`);
    lines.push(`| ${name} | GET /api (baseline) | 0 | 0 | ${base.toFixed(2)} | 1.0 | – |`);
    for (const [request, s, answer] of results) {
      lines.push(`| ${name} | ${request} | ${s.roundTrips} | ${s.rowsRead} | ${s.ms.toFixed(2)} | ${(s.ms / base).toFixed(1)} | ${answer} |`);
    }
  }
  console.log(["| conversations | request | round trips | rows read | median ms | × GET /api | answer |", "|---|---|---|---|---|---|---|", ...lines].join("\n"));
});
