/**
 * The `Authorization` header of a flow request as REST Client and httpyac send it (docs/flows.md, Format): a Bearer or
 * any other value as written, `Basic user password` or `Basic user:password` as the base64 of `user:password` (both
 * tools), and the schemes whose tools compute a signature (Digest, AWS, Cognito, OAuth2) refused by name: tpp computes
 * none of them. Where the two tools would encode a value differently, the request is refused, naming the difference.
 */

/** Schemes another tool turns into a computed signature or token exchange. */
const COMPUTED: Readonly<Record<string, string>> = {
  digest: 'Digest authentication (REST Client, httpyac answer the server\'s challenge)',
  aws: 'an AWS Signature Version 4 (REST Client, httpyac sign the request)',
  cognito: 'an AWS Cognito sign-in (REST Client)',
  oauth2: 'an OAuth2 token exchange (httpyac)',
  openid: 'an OpenID token exchange (httpyac)',
};

/** Why a written Authorization value cannot be sent as its tool sends it (judged on its scheme alone), or undefined. */
export function authorizationProblem(value: string): string | undefined {
  const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1]?.toLowerCase();
  const what = scheme ? COMPUTED[scheme] : undefined;
  return what ? `Authorization: ${scheme} … is ${what}, which tpp does not compute; get the token or signature elsewhere and write it (Authorization: Bearer {{token}}).` : undefined;
}

/**
 * The Authorization value as sent, after its variables are resolved: Basic credentials in base64 of `user:password`,
 * any other value as it is.
 * @returns the value, or `{ refused }` naming why the two tools would send different credentials.
 */
export function authorizationValue(value: string): string | { readonly refused: string } {
  const m = /^\s*basic\s+(.*?)\s*$/i.exec(value);
  if (!m) return value;
  const rest = m[1] as string;
  const words = rest.split(/\s+/);
  const encode = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
  const refused = (why: string) => ({ refused: `Authorization: Basic with ${why}: REST Client and httpyac would send different credentials; write Basic user password with a user name without spaces or colons` });
  if (words.length === 1) {
    // One word: already encoded (sent as it is), or user:password.
    const colons = rest.split(':').length - 1;
    if (colons === 0) return value;
    if (colons > 1) return refused('more than one colon (REST Client splits at the first, httpyac at the last)');
    const [user = '', password = ''] = rest.split(':');
    if (user === '') return refused('an empty user name');
    return encode(user, password);
  }
  if (rest.includes(':')) return refused('both a space and a colon (REST Client splits at the space, httpyac at the colon)');
  const [user = '', ...password] = words;
  // REST Client joins the words after the user with one space, httpyac keeps the text as written.
  const written = rest.slice(user.length).trimStart();
  if (password.join(' ') !== written) return refused('several spaces in a row in the password');
  return encode(user, written);
}
