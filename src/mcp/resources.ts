/**
 * What an agent reads without acting, as MCP resources (URI templates): a conversation's transcript (its
 * public messages, as the mailed transcript has them: no private note), a contact, a help-center article.
 * Each reads through the domain function of the route it mirrors, with the same permissions; agent bot
 * keys read only the article (the API opens neither conversations nor contacts to bots).
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Variables } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { readTranscript } from "../domain/conversations/transcript";
import { showContact } from "../domain/contacts/contacts";
import { readPublicArticle } from "../domain/help-center/public";
import { invalid } from "../domain/kernel/errors";
import type { AppContext } from "../http/app-env";
import { refuseBot } from "../http/auth";
import { accountScope } from "../http/scopes";
import { issuesToErrors } from "../http/validate";
import { ConversationParam } from "../schemas/conversations";
import { PublicArticleParam } from "../schemas/help-center";
import { IdParam } from "../schemas/common";
import { contactView } from "../views/contacts";
import { publicArticleView } from "../views/help-center";
import { protocolError } from "./answers";
import type { z } from "zod";

type Reader = (c: AppContext, variables: Variables) => Promise<{ mimeType: string; text: string }>;

/** The URI's variables checked by the route's own schema (a 422 with the API's body otherwise). */
async function parsed<S extends z.ZodType>(schema: S, variables: Variables): Promise<z.infer<S>> {
  const result = await schema.safeParseAsync(variables, { reportInput: true });
  if (!result.success) throw invalid(issuesToErrors(result.error.issues as never));
  return result.data;
}

const membersOnly = (c: AppContext) => {
  if (c.var.actor.type === "agent_bot") refuseBot();
};

const RESOURCES: Array<{ name: string; template: string; title: string; description: string; read: Reader }> = [
  {
    name: "conversation_transcript",
    template: "edgedesk://conversations/{conversation_id}/transcript",
    title: "Conversation transcript",
    description: "A conversation's public messages, oldest first (the latest 500), one line each: time, sender, text. Private notes are left out.",
    read: async (c, variables) => {
      membersOnly(c);
      const { conversation_id } = await parsed(ConversationParam, variables);
      const transcript = await readTranscript(accountScope(c), conversation_id);
      return { mimeType: "text/plain", text: `${transcript.subject}\n\n${transcript.body}` };
    },
  },
  {
    name: "contact",
    template: "edgedesk://contacts/{id}",
    title: "Contact",
    description: "A contact of the account, as GET /api/v1/accounts/{id}/contacts/{contact_id} shows it.",
    read: async (c, variables) => {
      membersOnly(c);
      const { id } = await parsed(IdParam, variables);
      return { mimeType: "application/json", text: JSON.stringify(contactView(await showContact(accountScope(c), id, true))) };
    },
  },
  {
    name: "article",
    template: "edgedesk://portals/{portal_slug}/articles/{article_slug}",
    title: "Help-center article",
    description: "A published article of one of the account's portals (its content is Markdown written by the account's people).",
    read: async (c, variables) => {
      const { portal_slug, article_slug } = await parsed(PublicArticleParam, variables);
      return { mimeType: "application/json", text: JSON.stringify(publicArticleView(await readPublicArticle(accountScope(c), portal_slug, article_slug))) };
    },
  },
];

export function registerResources(server: McpServer, c: AppContext) {
  for (const resource of RESOURCES) {
    server.registerResource(
      resource.name,
      new ResourceTemplate(resource.template, { list: undefined }),
      { title: resource.title, description: resource.description },
      async (uri, variables) => {
        try {
          const { mimeType, text } = await resource.read(c, variables);
          return { contents: [{ uri: uri.href, mimeType, text }] };
        } catch (error) {
          throw await protocolError(c, error);
        }
      },
    );
  }
}
