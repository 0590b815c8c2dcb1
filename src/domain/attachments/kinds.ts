/**
 * What a file is, from its first bytes: the declared content type and the file name are a client's claim,
 * and a page of HTML named `photo.png` must not be stored, nor ever served, as an image. Only the kinds
 * below are accepted (Chatwoot's images, audio, video and listed documents); SVG, HTML, XML, scripts and
 * executables never are, whatever they are called.
 */

export type FileType = "image" | "audio" | "video" | "file";

export type FileKind = {
  fileType: FileType;
  contentType: string;
  extension: string;
  width: number | null;
  height: number | null;
};

/** How many leading bytes the sniffing reads (JPEG dimensions can sit behind large metadata blocks). */
export const SNIFF_BYTES = 64 * 1024;

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};
const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const i32le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);

const image = (contentType: string, extension: string, size: { width: number; height: number } | null): FileKind => ({
  fileType: "image",
  contentType,
  extension,
  width: size?.width ?? null,
  height: size?.height ?? null,
});
const other = (fileType: FileType, contentType: string, extension: string): FileKind => ({ fileType, contentType, extension, width: null, height: null });

/** The dimensions in a JPEG's first start-of-frame segment, if the sniffed bytes reach it. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = u16be(b, at + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  if (ascii(b, 12, "VP8 ") && b.length >= 30) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (ascii(b, 12, "VP8L") && b.length >= 25) {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, "VP8X") && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** Zip containers: office documents by their name, anything else a plain zip. */
const ZIP_DOCUMENTS: Record<string, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
};
/** Old binary office documents (OLE2 containers), by their name. */
const OLE_DOCUMENTS: Record<string, string> = {
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
};
/** Text documents have no signature: accepted by name, when their bytes are text and not markup. */
const TEXT_DOCUMENTS: Record<string, string> = { txt: "text/plain", csv: "text/csv", json: "application/json", md: "text/plain", log: "text/plain" };

function isText(b: Uint8Array): boolean {
  if (b.includes(0)) return false;
  let text: string;
  try {
    // a file cut inside a multi-byte character at the sniffing limit is still text
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(b.length === SNIFF_BYTES ? b.subarray(0, SNIFF_BYTES - 4) : b);
  } catch {
    return false;
  }
  // markup (HTML, SVG, XML) renders in a browser however it is served: never accepted as text
  return !/^\s*</.test(text.replace(/^\uFEFF/, ""));
}

/** The kind of a file from its first bytes (`head`) and its name's extension; null when it is not accepted. */
export function sniffFile(head: Uint8Array, nameExtension: string): FileKind | null {
  const b = head;
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return image("image/png", "png", b.length >= 24 ? { width: u32be(b, 16), height: u32be(b, 20) } : null);
  }
  if (startsWith(b, [0xff, 0xd8, 0xff])) return image("image/jpeg", "jpg", jpegSize(b));
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return image("image/gif", "gif", b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : null);
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return image("image/webp", "webp", webpSize(b));
  if (ascii(b, 0, "BM") && b.length >= 26) return image("image/bmp", "bmp", { width: Math.abs(i32le(b, 18)), height: Math.abs(i32le(b, 22)) });
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return image("image/tiff", "tiff", null);

  if (ascii(b, 0, "ID3") || (b[0] === 0xff && (b[1] & 0xe6) === 0xe2)) return other("audio", "audio/mpeg", "mp3");
  if (ascii(b, 0, "OggS")) return other("audio", "audio/ogg", "ogg");
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WAVE")) return other("audio", "audio/wav", "wav");
  if (ascii(b, 0, "fLaC")) return other("audio", "audio/flac", "flac");
  if (ascii(b, 0, "#!AMR")) return other("audio", "audio/amr", "amr");
  if (ascii(b, 4, "ftyp")) {
    const brand = String.fromCharCode(...b.subarray(8, 12));
    if (brand === "M4A " || brand === "M4B ") return other("audio", "audio/mp4", "m4a");
    if (brand === "qt  ") return other("video", "video/quicktime", "mov");
    if (brand.startsWith("3g")) return other("video", "video/3gpp", "3gp");
    return other("video", "video/mp4", "mp4");
  }
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return other("video", "video/webm", "webm");

  if (ascii(b, 0, "%PDF-")) return other("file", "application/pdf", "pdf");
  if (ascii(b, 0, "{\\rtf")) return other("file", "application/rtf", "rtf");
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) {
    const document = ZIP_DOCUMENTS[nameExtension];
    return document ? other("file", document, nameExtension) : other("file", "application/zip", "zip");
  }
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const document = OLE_DOCUMENTS[nameExtension];
    return document ? other("file", document, nameExtension) : null;
  }
  if (startsWith(b, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return other("file", "application/vnd.rar", "rar");
  if (startsWith(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return other("file", "application/x-7z-compressed", "7z");
  if (ascii(b, 257, "ustar")) return other("file", "application/x-tar", "tar");

  const text = TEXT_DOCUMENTS[nameExtension];
  if (text && b.length > 0 && isText(b)) return other("file", text, nameExtension);
  return null;
}

/** Whether a browser may show the file in the page: plain raster images only (never SVG, never HTML). */
export const servedInline = (contentType: string) => ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"].includes(contentType);
