import { bodyJson, dq, FRESH_COMMENT, headerLines, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/** A C# expression of a fresh value (Random.Shared.NextInt64: max exclusive, as $randomInt). */
function freshExpr(v: FreshKind): string {
  if (v.kind === 'guid') return 'Guid.NewGuid()';
  if (v.kind === 'randomInt') return `Random.Shared.NextInt64(${v.min}L, ${v.max}L)`;
  return `DateTimeOffset.UtcNow.ToUnixTimeSeconds()${v.offsetSeconds ? ` + ${v.offsetSeconds}L` : ''}`;
}

/** A C# raw string literal holding `text` (delimited by one more quote than the longest run of quotes in it). */
function rawString(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/"+/g)].map((m) => m[0].length));
  const q = '"'.repeat(longest + 1);
  return `${q}\n${text}\n${q}`;
}

/**
 * A C# 11 (.NET 7+) top-level program: the token signed with `System.Security.Cryptography.ECDsa` (ES256/384/512
 * from the key size, IEEE P1363 raw r||s signature, `iat`/`exp` in seconds, `aud` = the base address, `iss` = the
 * Partner ID, `typ` JWT; spec: Authentication), then `HttpClient`. No package needed.
 */
export function csharpSample(req: SampleRequest): string {
  const body = bodyJson(req);
  const fill = body !== undefined ? fillStatements(req.fresh ?? [], freshExpr, (find, expr) => `body = Fill(body, ${dq(find)}, ${expr});`) : [];
  const url = urlExpression(req, 'baseUrl', dq, (p) => `Uri.EscapeDataString(Env(${dq(p.env)}))`);
  return [
    ...headerLines(req, 'dotnet new console -o TppSample, replace Program.cs with this file, dotnet run', '.NET 7 or later (no NuGet package)').map((l) => `// ${l}`),
    'using System;',
    'using System.IO;',
    'using System.Net.Http;',
    'using System.Net.Http.Headers;',
    'using System.Security.Cryptography;',
    'using System.Text;',
    'using System.Text.Json;',
    '',
    `var baseUrl = Env("${req.baseEnv}");`,
    `var partnerId = Env("${SAMPLE_ENV.partnerId}");`,
    `var audience = Environment.GetEnvironmentVariable("${audienceEnvOf(req)}") is { Length: > 0 } aud ? aud : baseUrl; // the real address when baseUrl is a local proxy`,
    'using var key = ECDsa.Create();',
    `key.ImportFromPem(File.ReadAllText(Env("${SAMPLE_ENV.privateKeyFile}")));`,
    'var (alg, hash) = key.KeySize switch',
    '{',
    '    256 => ("ES256", HashAlgorithmName.SHA256),',
    '    384 => ("ES384", HashAlgorithmName.SHA384),',
    '    521 => ("ES512", HashAlgorithmName.SHA512),',
    `    _ => throw new InvalidOperationException("${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521."),`,
    '};',
    '',
    '// A fresh token for this request: iat and exp in seconds, aud = the base address exactly (or its audience variable), iss = the Partner ID.',
    'var iat = DateTimeOffset.UtcNow.ToUnixTimeSeconds();',
    'var signingInput = B64(JsonSerializer.SerializeToUtf8Bytes(new { alg, typ = "JWT" })) + "." +',
    `    B64(JsonSerializer.SerializeToUtf8Bytes(new { iss = partnerId, aud = audience, iat, exp = iat + ${TOKEN_LIFETIME_SECONDS} }));`,
    '// SignData writes the raw r||s form (IEEE P1363) that JWS requires, not DER.',
    'var token = signingInput + "." + B64(key.SignData(Encoding.ASCII.GetBytes(signingInput), hash));',
    '',
    'using var client = new HttpClient();',
    `using var request = new HttpRequestMessage(new HttpMethod(${dq(req.method)}), ${url});`,
    'request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);',
    'request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));',
    ...(body !== undefined ? [`var body = ${rawString(body)};`, ...(fill.length ? [`// ${FRESH_COMMENT}`, ...fill] : []), 'request.Content = new StringContent(body, Encoding.UTF8, "application/json");'] : []),
    'using var response = await client.SendAsync(request);',
    'Console.WriteLine($"HTTP {(int)response.StatusCode}");',
    'Console.WriteLine(await response.Content.ReadAsStringAsync());',
    'return response.IsSuccessStatusCode ? 0 : 1;',
    '',
    'static string Env(string name) =>',
    '    Environment.GetEnvironmentVariable(name) is { Length: > 0 } value ? value : throw new InvalidOperationException($"Set the environment variable {name}.");',
    '',
    ...(fill.length
      ? [
          '// text with its first find replaced by value.',
          'static string Fill(string text, string find, object value)',
          '{',
          '    var at = text.IndexOf(find, StringComparison.Ordinal);',
          '    return text[..at] + value + text[(at + find.Length)..];',
          '}',
          '',
        ]
      : []),
    "static string B64(byte[] bytes) => Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');",
    '',
  ].join('\n');
}
