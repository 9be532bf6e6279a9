/** The environment variables of the code samples, apart from the request builder so that light modules can name them. */

/** Environment variables every sample reads (the same ones `tpp send` reads). */
export const SAMPLE_ENV = {
  /** The version 3 base address, ending in /api/v3; also the JWT `aud`, exactly. */
  baseUrl: 'TPP_BASE_URL',
  /** The version 2 host ({legacy_base_url}); the JWT `aud` of version 2 calls (docs/sandbox.md). */
  v2BaseUrl: 'TPP_V2_BASE_URL',
  /** The Partner ID: the JWT `iss`. */
  partnerId: 'TPP_PARTNER_ID',
  /** Path of the PKCS#8 PEM private key (P-256, P-384 or P-521). */
  privateKeyFile: 'TPP_PRIVATE_KEY_FILE',
  /**
   * Optional JWT `aud` of version 3 calls, default TPP_BASE_URL: set it to the real address when TPP_BASE_URL is a
   * local proxy in front of it (spec: Authentication, `aud` is the address the administrator gave).
   */
  audience: 'TPP_AUDIENCE',
  /** Optional JWT `aud` of version 2 calls, default TPP_V2_BASE_URL (as {@link audience}). */
  v2Audience: 'TPP_V2_AUDIENCE',
} as const;

/** The optional variable naming the JWT `aud` of `req` (TPP_AUDIENCE or TPP_V2_AUDIENCE), whose default is its base. */
export function audienceEnvOf(req: { readonly baseEnv: string }): typeof SAMPLE_ENV.audience | typeof SAMPLE_ENV.v2Audience {
  return req.baseEnv === SAMPLE_ENV.baseUrl ? SAMPLE_ENV.audience : SAMPLE_ENV.v2Audience;
}
