// Request bodies as the fakes' clients send them (JSON, form, multipart) and JSON replies.

// Writes a JSON reply and returns the status, which the server journals.
export function reply(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
  return status;
}

// {json} for application/json, {form} for urlencoded, {form, multipart: true} for
// multipart/form-data (text fields as strings, files as {filename, content_type, size}).
export function parseBody(contentType, raw) {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (raw.length === 0) return {};
  if (type === 'application/json') {
    try { return { json: JSON.parse(raw.toString('utf8')) }; } catch { return { invalidJson: true }; }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { form: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
  }
  if (type === 'multipart/form-data') {
    const m = contentType.match(/boundary="?([^";]+)"?/i);
    return m ? { form: parseMultipart(raw, m[1]), multipart: true } : {};
  }
  // Some clients post JSON without a content type.
  try { return { json: JSON.parse(raw.toString('utf8')) }; } catch { return {}; }
}

function parseMultipart(raw, boundary) {
  const form = {};
  const delim = Buffer.from('--' + boundary);
  let pos = raw.indexOf(delim);
  while (pos !== -1) {
    const start = pos + delim.length;
    if (raw.slice(start, start + 2).toString() === '--') break;  // closing delimiter
    const next = raw.indexOf(delim, start);
    if (next === -1) break;
    const part = raw.slice(start + 2, next - 2);  // drop the CRLF after the delimiter and before the next
    const sep = part.indexOf('\r\n\r\n');
    if (sep !== -1) {
      const head = part.slice(0, sep).toString('utf8');
      const content = part.slice(sep + 4);
      const name = head.match(/name="([^"]*)"/i)?.[1];
      const filename = head.match(/filename="([^"]*)"/i)?.[1];
      const ctype = head.match(/content-type:\s*([^\r\n]+)/i)?.[1] ?? null;
      if (name !== undefined) {
        form[name] = filename !== undefined ? { filename, content_type: ctype, size: content.length } : content.toString('utf8');
      }
    }
    pos = next;
  }
  return form;
}

// The request's fields wherever the client put them: JSON body, form body, or query string.
export function fields(parsed, url) {
  return { ...Object.fromEntries(url.searchParams), ...(parsed.form ?? {}), ...(parsed.json ?? {}) };
}
