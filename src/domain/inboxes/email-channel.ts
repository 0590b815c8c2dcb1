/**
 * The e-mail channel's addresses (Chatwoot's `Channel::Email`): the inbox's own address and its forwarding
 * address, both claimed in the directory's public routes (kind "inbox_email"). The claim keeps each address
 * unique across every account and is what the Worker's `email()` handler reads to find the account of a
 * recipient before it accepts a mail (src/email/receive.ts).
 */
import type { PublicRouteClaim } from "../identity/public-routes";
import type { EmailChannelRow } from "./rows";

export const EMAIL_CHANNEL = "Channel::Email";

/** The channel's editable attributes (Chatwoot's EDITABLE_ATTRS, in the domain's names). */
export type EmailChannelInput = {
  email?: string;
  imapEnabled?: boolean;
  imapLogin?: string;
  imapPassword?: string;
  imapAddress?: string;
  imapPort?: number;
  imapEnableSsl?: boolean;
  smtpEnabled?: boolean;
  smtpLogin?: string;
  smtpPassword?: string;
  smtpAddress?: string;
  smtpPort?: number;
  smtpDomain?: string;
  smtpEnableStarttlsAuto?: boolean;
  smtpEnableSslTls?: boolean;
  smtpOpensslVerifyMode?: string;
  smtpAuthentication?: string;
  provider?: string | null;
  verifiedForSending?: boolean;
};

/**
 * An address as the channel compares it: lower-cased, without a `+tag` in its local part (RFC 5233
 * subaddressing, Chatwoot's `normalize_email_with_plus_addressing`).
 */
export function normalizedAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at < 1) return lower;
  const local = lower.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${lower.slice(at)}`;
}

/** A new forwarding address on the inbound domain: 32 hex characters, as Chatwoot makes them. */
export function newForwardingAddress(inboundDomain: string): string {
  const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex}@${inboundDomain || "localhost"}`;
}

/** The directory claims that lead mail for these addresses to the account. */
export const addressClaims = (channel: Pick<EmailChannelRow, "email" | "forwardToEmail">): PublicRouteClaim[] => [
  { kind: "inbox_email", key: channel.email, field: "channel.email" },
  { kind: "inbox_email", key: channel.forwardToEmail, field: "channel.forward_to_email" },
];

/** The columns an input sets (undefined leaves a column as it is). */
export function emailChannelColumns(input: EmailChannelInput) {
  return { ...input, ...(input.email !== undefined && { email: input.email.toLowerCase() }) };
}
