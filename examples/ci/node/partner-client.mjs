// The application under test: a small partner API client, as an integrator would write it. It follows the partner
// interface (partner-interface.md, Authentication and Errors): a fresh ES256 JWT per attempt (iss = Partner ID,
// aud = the base address, iat/exp), and 429 or 5xx answers retried after Retry-After (or a short back-off), a bounded
// number of times. Node 20+ only: node:crypto signs, fetch sends.
import { createPrivateKey, sign } from 'node:crypto';

export class ApiError extends Error {
  constructor(status, body) {
    super(`HTTP ${status}: ${body}`);
    this.status = status;
    this.body = body;
  }
}

const RETRIED = new Set([429, 500, 502, 503, 504]);
const b64url = (data) => Buffer.from(data).toString('base64url');

export class PartnerClient {
  /** `clock` answers milliseconds since epoch; a test moves it together with the sandbox's clock. */
  constructor({ baseUrl, partnerId, privateKeyPem, audience, clock = Date.now, attempts = 4 }) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.partnerId = partnerId;
    this.key = createPrivateKey(privateKeyPem);
    this.audience = audience ?? this.baseUrl;
    this.clock = clock;
    this.attempts = attempts;
  }

  token() {
    const now = Math.floor(this.clock() / 1000);
    const input = `${b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT' }))}.${b64url(JSON.stringify({ iss: this.partnerId, aud: this.audience, iat: now, exp: now + 300 }))}`;
    // JWS wants the raw r||s signature, not DER.
    return `${input}.${b64url(sign('sha256', Buffer.from(input), { key: this.key, dsaEncoding: 'ieee-p1363' }))}`;
  }

  /** Sends one call, retrying 429 and 5xx; resolves with the parsed answer (undefined for 204) or rejects with ApiError. */
  async send(method, path, body) {
    for (let attempt = 1; ; attempt++) {
      const headers = { authorization: `Bearer ${this.token()}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
      const res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      if (res.ok) return text ? JSON.parse(text) : undefined;
      if (RETRIED.has(res.status) && attempt < this.attempts) {
        await new Promise((r) => setTimeout(r, Math.min(Number(res.headers.get('retry-after') ?? 0.2) * 1000, 2000)));
        continue;
      }
      throw new ApiError(res.status, text);
    }
  }

  async register(registration) {
    return (await this.send('POST', '/tire-protection/registrations', registration)).id;
  }

  claim(registrationId, claim) {
    return this.send('POST', `/tire-protection/registrations/${encodeURIComponent(registrationId)}/claims`, claim);
  }
}
