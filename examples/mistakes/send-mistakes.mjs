// The deliberate-mistakes tour of the Tire Protection Partner Toolkit (issue 13): plays an integrator's own
// application and sends three typical broken requests to the partner API, so that the Integration Log view (or
// `tpp sandbox --log json`) explains each one. Plain Node 20, no dependency beyond node:crypto.
//
//   TPP_BASE_URL=http://127.0.0.1:43117/api/v3 TPP_PARTNER_ID=<iss> TPP_PRIVATE_KEY_FILE=<pkcs8.pem> node send-mistakes.mjs
//
// TPP_BASE_URL is the version 3 base address (the JWT aud of version 3 calls); the version 2 records interface is
// its origin (aud = the origin) under /v2/partners/<TPP_V2_COMPANY_NAME, default the Partner ID>. The key is an
// ECDSA private key (P-256, P-384 or P-521) in PEM form. Written to run both as an ES module and as CommonJS.

(async () => {
  const { createPrivateKey, sign, randomUUID } = await import('node:crypto');
  const { readFileSync } = await import('node:fs');
  const base = (process.env.TPP_BASE_URL ?? '').trim();
  const iss = (process.env.TPP_PARTNER_ID ?? '').trim();
  const keyFile = (process.env.TPP_PRIVATE_KEY_FILE ?? '').trim();
  if (!base || !iss || !keyFile) {
    console.error('Set TPP_BASE_URL (the version 3 base address, ending in /api/v3), TPP_PARTNER_ID and TPP_PRIVATE_KEY_FILE.');
    process.exitCode = 2;
    return;
  }
  const key = createPrivateKey(readFileSync(keyFile));
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const [alg, hash] = { prime256v1: ['ES256', 'sha256'], secp384r1: ['ES384', 'sha384'], secp521r1: ['ES512', 'sha512'] }[curve] ?? [];
  if (!alg) throw new Error(`${keyFile} is not a P-256, P-384 or P-521 private key`);

  const b64url = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
  /** A compact JWS, signed the way the spec asks (raw r||s signature); the claims are the caller's, mistakes included. */
  const jwt = (claims) => {
    const input = `${b64url({ alg, typ: 'JWT' })}.${b64url(claims)}`;
    return `${input}.${sign(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  const now = Math.floor(Date.now() / 1000);
  const origin = base.replace(/\/api\/v3\/?$/, '');
  const company = (process.env.TPP_V2_COMPANY_NAME ?? '').trim() || iss;
  const today = new Date().toISOString().slice(0, 10);

  const mistakes = [
    {
      title: 'iat in milliseconds: Date.now() where the spec wants seconds',
      method: 'GET',
      url: `${base}/verify-token`,
      token: jwt({ iss, aud: base, iat: Date.now(), exp: now + 300 }),
    },
    {
      title: 'aud with a trailing slash: the base address plus "/"',
      method: 'GET',
      url: `${base}/verify-token`,
      token: jwt({ iss, aud: `${base}/`, iat: now, exp: now + 300 }),
    },
    {
      title: 'a money value with 3 decimals: TirePrice 189.999 in a version 2 registration',
      method: 'POST',
      url: `${origin}/v2/partners/${encodeURIComponent(company)}`,
      token: jwt({ iss, aud: origin, iat: now, exp: now + 300 }),
      body: {
        Registrations: [
          {
            ShopID: 'NW-0142',
            InvoiceNumber: `TOUR-${randomUUID().slice(0, 8)}`,
            PlanEnrollDate: `${today}T12:00:00Z`,
            EmployeeID: 'E-2291',
            CustomerID: 'C-778120',
            VehicleYear: '2021',
            VehicleMake: 'Toyota',
            VehicleModel: 'RAV4',
            TiresCovered: 4,
            TPPPrice: 24.99,
            TireBrand: 'Michelin',
            TireModel: 'Defender2',
            TireSize: '225/65R17',
            TirePrice: 189.999,
            TireCost: 142.5,
            TireDOT1: 'DOT U2LL LMLR 5107',
            CommercialVehicle: 'No',
          },
        ],
      },
    },
  ];

  console.log(`Sending ${mistakes.length} requests with deliberate mistakes as partner ${iss} to ${base}\n`);
  for (const [i, m] of mistakes.entries()) {
    const headers = { authorization: `Bearer ${m.token}`, ...(m.body ? { 'content-type': 'application/json' } : {}) };
    const res = await fetch(m.url, { method: m.method, headers, body: m.body ? JSON.stringify(m.body) : undefined });
    const text = await res.text();
    console.log(`${i + 1}. ${m.title}\n   ${m.method} ${new URL(m.url).pathname} -> ${res.status} ${text.length > 160 ? `${text.slice(0, 157)}...` : text}\n`);
  }
  console.log('The answers alone say little. Open the Integration Log (Tire Protection side bar) to see which rule each request broke and how to fix it.');
})().catch((err) => {
  console.error(`send-mistakes: ${err?.message ?? err}`);
  process.exitCode = 1;
});
