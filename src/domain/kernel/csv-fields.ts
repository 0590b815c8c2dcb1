/**
 * CSV written one field at a time (RFC 4180 quoting), for every CSV the desk hands out: contact exports
 * and the reports' downloads. A value a spreadsheet would run as a formula (starting with `=`, `@`, a tab
 * or a carriage return, or `+`/`-` followed by anything but a number or a phone number) gets a leading
 * `'`, so a name someone typed cannot become a formula in whoever opens the file.
 */

export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (/^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && !/^[+-][\d\s().-]*$/.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its line end: CRLF as RFC 4180 has it, unless a format of its own says otherwise. */
export const csvLine = (values: CsvValue[], lineEnd = "\r\n") => `${values.map(csvField).join(",")}${lineEnd}`;
