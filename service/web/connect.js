// A small client of the Connect protocol (JSON): unary calls and server streams, with fetch.
//
// Unary: POST /<service>/<method> with the request as JSON; the reply is the response message as
// JSON, or an error {code, message, details} with a non-200 status. Server streams: the request and
// every response are enveloped (one flag byte, a 4-byte big-endian length, the JSON); the last
// envelope (flag 0x02) ends the stream, with the error if there is one. The messages are the
// protobuf JSON mapping of lictor.v1 (lowerCamelCase names, enums as their names, 64-bit integers
// as strings, unset fields left out).

export class RpcError extends Error {
  /**
   * @param {string} code the Connect code ("invalid_argument", "not_found", ...)
   * @param {string} message the server's message (it names the field and the rule)
   * @param {Array} details the google.rpc details as {type, value (base64)}
   */
  constructor(code, message, details = []) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export class Client {
  /**
   * @param {string} base the server's URL ("" for the page's own origin)
   * @param {() => string} token a function giving the bearer token ("" for none)
   */
  constructor(base = "", token = () => "") {
    this.base = base.replace(/\/$/, "");
    this.token = token;
  }

  headers(contentType, timeoutMs) {
    const headers = { "Content-Type": contentType, "Connect-Protocol-Version": "1" };
    if (timeoutMs) headers["Connect-Timeout-Ms"] = String(Math.round(timeoutMs));
    const token = this.token();
    if (token) headers["Authorization"] = `Bearer ${token}`;
    return headers;
  }

  /** One unary call: the response message (an object), or throws RpcError. */
  async call(service, method, request = {}, { timeoutMs = 0, signal } = {}) {
    let res;
    try {
      res = await fetch(`${this.base}/lictor.v1.${service}/${method}`, {
        method: "POST",
        headers: this.headers("application/json", timeoutMs),
        body: JSON.stringify(request),
        signal,
      });
    } catch (err) {
      if (err.name === "AbortError") throw new RpcError("canceled", "the call was cancelled");
      throw new RpcError("unavailable", `the server cannot be reached (${err.message})`);
    }
    const text = await res.text();
    let data = {};
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { code: "unknown", message: text.slice(0, 300) };
    }
    if (!res.ok) throw new RpcError(data.code || "unknown", data.message || res.statusText, data.details);
    return data;
  }

  /** A server stream: an async iterator of response messages; throws RpcError at a failed end. */
  async *stream(service, method, request = {}, { timeoutMs = 0, signal } = {}) {
    const json = new TextEncoder().encode(JSON.stringify(request));
    const body = new Uint8Array(5 + json.length);
    new DataView(body.buffer).setUint32(1, json.length);
    body.set(json, 5);
    let res;
    try {
      res = await fetch(`${this.base}/lictor.v1.${service}/${method}`, {
        method: "POST",
        headers: this.headers("application/connect+json", timeoutMs),
        body,
        signal,
      });
    } catch (err) {
      if (err.name === "AbortError") return;
      throw new RpcError("unavailable", `the server cannot be reached (${err.message})`);
    }
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      throw new RpcError(data.code || "unknown", data.message || res.statusText, data.details);
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = new Uint8Array(0);
    try {
      for (;;) {
        while (buffer.length >= 5) {
          const flags = buffer[0];
          const size = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
          if (buffer.length < 5 + size) break;
          const payload = decoder.decode(buffer.subarray(5, 5 + size));
          buffer = buffer.slice(5 + size);
          const message = payload ? JSON.parse(payload) : {};
          if (flags & 0x02) {
            if (message.error) {
              const e = message.error;
              throw new RpcError(e.code || "unknown", e.message || "", e.details);
            }
            return;
          }
          yield message;
        }
        const { value, done } = await reader.read();
        if (done) return;
        const joined = new Uint8Array(buffer.length + value.length);
        joined.set(buffer);
        joined.set(value, buffer.length);
        buffer = joined;
      }
    } catch (err) {
      if (err.name === "AbortError") return;
      throw err;
    } finally {
      reader.cancel().catch(() => {});
    }
  }
}
