/** A message's files: pictures, video and sound play in place; anything else is a link to the file. */
import type { Attachment } from "../api";
import { h, icon } from "../dom";

const safeUrl = (url: string | undefined) => (url && /^(https?:|\/|blob:)/.test(url) ? url : undefined);

export function renderAttachment(attachment: Attachment): HTMLElement | null {
  const url = safeUrl(attachment.data_url);
  if (!url) return null;
  const name = decodeURIComponent(url.split("?")[0].split("/").pop() || "file");
  switch (attachment.file_type) {
    case "image":
      return h("a", { class: "cw-file cw-file--image", href: url, target: "_blank", rel: "noopener noreferrer" }, h("img", { src: safeUrl(attachment.thumb_url) ?? url, alt: name, loading: "lazy" }));
    case "video":
      return h("video", { class: "cw-file cw-file--video", src: url, controls: true, preload: "metadata" });
    case "audio":
      return h("audio", { class: "cw-file cw-file--audio", src: url, controls: true, preload: "metadata" });
    default:
      return h("a", { class: "cw-file cw-file--link", href: url, target: "_blank", rel: "noopener noreferrer", download: name }, icon("file"), h("span", {}, name));
  }
}

/** The files the server accepts from a visitor (src/domain/attachments/kinds.ts checks their bytes again): media, documents, zip. */
const ALLOWED = [
  /^image\//,
  /^audio\//,
  /^video\//,
  /^text\/(plain|csv|markdown)$/,
  /^application\/(pdf|zip|x-zip-compressed|json|msword|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.oasis\.opendocument\.[\w.-]+|vnd\.openxmlformats-officedocument\.[\w.-]+)$/,
];

const EXTENSIONS = /\.(pdf|txt|csv|md|log|json|docx?|xlsx?|pptx?|od[tsp]|zip)$/i;

/** Markup (SVG) is never accepted: it would run script where it is opened. A file without a type goes by its name. */
export const acceptedType = (file: File) =>
  file.type !== "image/svg+xml" && (file.type ? ALLOWED.some((pattern) => pattern.test(file.type)) : EXTENSIONS.test(file.name));
export const ACCEPT = "image/*,audio/*,video/*,.pdf,.txt,.csv,.md,.json,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.odp,.zip";
