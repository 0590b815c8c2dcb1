import { type InboxRecord, API_CHANNEL } from "../domain/inboxes/inboxes";
import type { EmailChannelRow } from "../domain/inboxes/rows";
import { REPLY_TIMES, SENDER_NAME_TYPES, WIDGET_FEATURES, enumName } from "../domain/kernel/enums";

export type InboxViewer = {
  isAdministrator: boolean;
  /** where the website widget's script loads from */
  widgetBaseUrl: string;
  /** the configured inbound domain; empty when forwarding is off */
  inboundEmailDomain: string;
};

const featureNames = (bits: number) => WIDGET_FEATURES.filter((_, i) => (bits & (1 << i)) !== 0);

function widgetScript(baseUrl: string, websiteToken: string) {
  return `<script>
  (function(d,t) {
    var BASE_URL=${JSON.stringify(baseUrl)};
    var g=d.createElement(t),s=d.getElementsByTagName(t)[0];
    g.src=BASE_URL+"/packs/js/sdk.js";
    g.defer = true;
    g.async = true;
    s.parentNode.insertBefore(g,s);
    g.onload=function(){
      window.chatwootSDK.run({
        websiteToken: ${JSON.stringify(websiteToken)},
        baseUrl: BASE_URL
      })
    }
  })(document,"script");
</script>
`;
}

/**
 * An inbox as Chatwoot shows it, with the fields of the API and website channels. The public
 * identifiers (inbox_identifier, website_token and the widget script that embeds it) are public by
 * nature and shown to every member; the HMAC key, which proves contact identities, only to administrators.
 */
/**
 * The e-mail channel's fields as Chatwoot's inbox view shows them: the forwarding address only while
 * forwarding is on (an inbound domain is configured), the IMAP and SMTP settings, passwords included,
 * only to administrators.
 */
function emailChannelFields(email: EmailChannelRow, viewer: InboxViewer) {
  return {
    email: email.email,
    forwarding_enabled: viewer.inboundEmailDomain !== "",
    ...(viewer.inboundEmailDomain !== "" && { forward_to_email: email.forwardToEmail }),
    ...(viewer.isAdministrator && {
      imap_login: email.imapLogin,
      imap_password: email.imapPassword,
      imap_address: email.imapAddress,
      imap_port: email.imapPort,
      imap_enabled: email.imapEnabled,
      imap_enable_ssl: email.imapEnableSsl,
      // OAuth mailboxes are not connected here, so none ever needs signing in again
      reauthorization_required: false,
      smtp_login: email.smtpLogin,
      smtp_password: email.smtpPassword,
      smtp_address: email.smtpAddress,
      smtp_port: email.smtpPort,
      smtp_enabled: email.smtpEnabled,
      smtp_domain: email.smtpDomain,
      smtp_enable_ssl_tls: email.smtpEnableSslTls,
      smtp_enable_starttls_auto: email.smtpEnableStarttlsAuto,
      smtp_openssl_verify_mode: email.smtpOpensslVerifyMode,
      smtp_authentication: email.smtpAuthentication,
    }),
  };
}

export function inboxView({ inbox, api, widget, email }: InboxRecord, viewer: InboxViewer) {
  const isApi = inbox.channelType === API_CHANNEL;
  return {
    id: inbox.id,
    avatar_url: inbox.avatarUrl ?? "",
    channel_id: inbox.channelId,
    name: inbox.name,
    channel_type: inbox.channelType,
    greeting_enabled: inbox.greetingEnabled,
    greeting_message: inbox.greetingMessage,
    working_hours_enabled: inbox.workingHoursEnabled,
    enable_email_collect: inbox.enableEmailCollect,
    csat_survey_enabled: inbox.csatSurveyEnabled,
    csat_config: inbox.csatConfig,
    enable_auto_assignment: inbox.enableAutoAssignment,
    auto_assignment_config: inbox.autoAssignmentConfig,
    out_of_office_message: inbox.outOfOfficeMessage,
    working_hours: inbox.workingHours,
    timezone: inbox.timezone,
    callback_webhook_url: null,
    allow_messages_after_resolved: inbox.allowMessagesAfterResolved,
    lock_to_single_conversation: inbox.lockToSingleConversation,
    sender_name_type: enumName(SENDER_NAME_TYPES, inbox.senderNameType),
    business_name: inbox.businessName,
    allowed_domains: widget?.allowedDomains ?? null,
    widget_color: widget?.widgetColor ?? null,
    website_url: widget?.websiteUrl ?? null,
    hmac_mandatory: inbox.hmacMandatory,
    welcome_title: widget?.welcomeTitle ?? null,
    welcome_tagline: widget?.welcomeTagline ?? null,
    selected_feature_flags: widget ? featureNames(widget.featureFlags) : null,
    reply_time: widget ? enumName(REPLY_TIMES, widget.replyTime) : null,
    messaging_service_sid: null,
    phone_number: null,
    provider: email?.provider ?? null,
    ...(widget && {
      pre_chat_form_enabled: widget.preChatFormEnabled,
      pre_chat_form_options: widget.preChatFormOptions,
      continuity_via_email: widget.continuityViaEmail,
    }),
    ...(api && { webhook_url: api.webhookUrl, additional_attributes: api.additionalAttributes }),
    website_token: widget ? inbox.identifier : null,
    web_widget_script: widget ? widgetScript(viewer.widgetBaseUrl, inbox.identifier) : null,
    ...(isApi && { inbox_identifier: inbox.identifier }),
    ...(viewer.isAdministrator && { hmac_token: inbox.hmacToken }),
    ...(email && emailChannelFields(email, viewer)),
  };
}
