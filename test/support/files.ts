/**
 * Small files of each kind the service accepts (real signatures, enough bytes for their dimensions),
 * and multipart helpers. Setup only.
 */
import { call } from "./http";

const bytes = (...parts: Array<number[] | string | Uint8Array>) => {
  const chunks = parts.map((p) => (typeof p === "string" ? new TextEncoder().encode(p) : p instanceof Uint8Array ? p : new Uint8Array(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
const filler = (n: number) => new Uint8Array(n).fill(7);

export const samples = {
  png: () => bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], be32(13), "IHDR", be32(640), be32(480), [8, 6, 0, 0, 0], filler(40)),
  jpeg: () => bytes([0xff, 0xd8, 0xff, 0xe0], [0, 16], "JFIF\0", filler(9), [0xff, 0xc0, 0, 17, 8], [0, 200], [1, 44], filler(40)),
  gif: () => bytes("GIF89a", le16(32), le16(16), filler(40)),
  webp: () => bytes("RIFF", le32(100), "WEBP", "VP8X", le32(10), [0, 0, 0, 0], [99, 0, 0], [49, 0, 0], filler(40)),
  mp3: () => bytes("ID3", [3, 0, 0, 0, 0, 0, 0], filler(100)),
  ogg: () => bytes("OggS", filler(100)),
  wav: () => bytes("RIFF", le32(100), "WAVE", filler(100)),
  mp4: () => bytes([0, 0, 0, 24], "ftypisom", filler(100)),
  webm: () => bytes([0x1a, 0x45, 0xdf, 0xa3], filler(100)),
  pdf: () => bytes("%PDF-1.7\n", filler(100)),
  docx: () => bytes([0x50, 0x4b, 0x03, 0x04], filler(100)),
  csv: () => bytes("name,email\nAda,ada@example.com\n"),
  html: () => bytes("<!doctype html><script>alert(document.cookie)</script>"),
  svg: () => bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  exe: () => bytes("MZ", filler(100)),
};

export const file = (content: Uint8Array, name: string, type = "application/octet-stream") => new File([content], name, { type });

/** A multipart message body: `content` and the files under attachments[]. */
export function messageForm(files: File[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append("attachments[]", f);
  return form;
}

export const postForm = (path: string, key: string | null, form: FormData) => call("POST", path, { key, rawBody: form });
