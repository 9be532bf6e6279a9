import { bodyJson, dq, FRESH_COMMENT, headerLines, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/** A Java expression of a fresh value (ThreadLocalRandom.nextLong: max exclusive, as $randomInt). */
function freshExpr(v: FreshKind): string {
  if (v.kind === 'guid') return 'java.util.UUID.randomUUID()';
  if (v.kind === 'randomInt') return `java.util.concurrent.ThreadLocalRandom.current().nextLong(${v.min}L, ${v.max}L)`;
  return `Instant.now().getEpochSecond()${v.offsetSeconds ? ` + ${v.offsetSeconds}L` : ''}`;
}

/** A Java text block holding `text` (backslashes doubled, `"""` escaped). */
function textBlock(text: string, indent: string): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"""');
  return `"""\n${escaped.split('\n').map((l) => indent + l).join('\n')}\n${indent}"""`;
}

/** The imports of every Java sample (nimbus-jose-jwt, java.net.http), and the blank line after them. */
const JAVA_IMPORTS: readonly string[] = [
  'import com.nimbusds.jose.JOSEObjectType;',
  'import com.nimbusds.jose.JWSAlgorithm;',
  'import com.nimbusds.jose.JWSHeader;',
  'import com.nimbusds.jose.crypto.ECDSASigner;',
  'import com.nimbusds.jwt.JWTClaimsSet;',
  'import com.nimbusds.jwt.SignedJWT;',
  'import java.net.URI;',
  'import java.net.URLEncoder;',
  'import java.net.http.HttpClient;',
  'import java.net.http.HttpRequest;',
  'import java.net.http.HttpResponse;',
  'import java.nio.charset.StandardCharsets;',
  'import java.nio.file.Files;',
  'import java.nio.file.Path;',
  'import java.security.KeyFactory;',
  'import java.security.interfaces.ECPrivateKey;',
  'import java.security.spec.PKCS8EncodedKeySpec;',
  'import java.time.Instant;',
  'import java.util.Base64;',
  'import java.util.Date;',
  '',
];

/**
 * A Java 17 program: the token signed with nimbus-jose-jwt (ES256/384/512 from the key's field size, `iat`/`exp`
 * in seconds, `aud` = the base address as one string, `iss` = the Partner ID, `typ` JWT; spec: Authentication),
 * then `java.net.http`.
 */
export function javaSample(req: SampleRequest): string {
  const body = bodyJson(req);
  const url = urlExpression(req, 'baseUrl', dq, (p) => `URLEncoder.encode(env(${dq(p.env)}), StandardCharsets.UTF_8).replace("+", "%20")`);
  const i = '        ';
  const fill = body !== undefined ? fillStatements(req.fresh ?? [], freshExpr, (find, expr) => `${i}body = fill(body, ${dq(find)}, ${expr});`) : [];
  return [
    ...headerLines(req, 'java -cp nimbus-jose-jwt.jar TppSample.java (Java 17; the jar from Maven: com.nimbusds:nimbus-jose-jwt)', 'Java 17 or later and com.nimbusds:nimbus-jose-jwt').map((l) => `// ${l}`),
    ...JAVA_IMPORTS,
    'public class TppSample {',
    '    static String env(String name) {',
    '        String value = System.getenv(name);',
    '        if (value == null || value.isEmpty()) throw new IllegalStateException("Set the environment variable " + name + ".");',
    '        return value;',
    '    }',
    '',
    ...(fill.length
      ? [
          '    /** text with its first find replaced by value. */',
          '    static String fill(String text, String find, Object value) {',
          '        int at = text.indexOf(find);',
          '        return text.substring(0, at) + value + text.substring(at + find.length());',
          '    }',
          '',
        ]
      : []),
    '    public static void main(String[] args) throws Exception {',
    `${i}String baseUrl = env("${req.baseEnv}");`,
    `${i}String partnerId = env("${SAMPLE_ENV.partnerId}");`,
    `${i}String audience = System.getenv().getOrDefault("${audienceEnvOf(req)}", ""); // the real address when baseUrl is a local proxy`,
    `${i}if (audience.isEmpty()) audience = baseUrl;`,
    `${i}String pem = Files.readString(Path.of(env("${SAMPLE_ENV.privateKeyFile}")));`,
    `${i}byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));`,
    `${i}ECPrivateKey key = (ECPrivateKey) KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));`,
    `${i}JWSAlgorithm alg = switch (key.getParams().getCurve().getField().getFieldSize()) {`,
    `${i}    case 256 -> JWSAlgorithm.ES256;`,
    `${i}    case 384 -> JWSAlgorithm.ES384;`,
    `${i}    case 521 -> JWSAlgorithm.ES512;`,
    `${i}    default -> throw new IllegalStateException("${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521.");`,
    `${i}};`,
    '',
    `${i}// A fresh token for this request: iat and exp in seconds, aud = the base address exactly (or its audience variable), iss = the Partner ID.`,
    `${i}Instant now = Instant.ofEpochSecond(Instant.now().getEpochSecond());`,
    `${i}JWTClaimsSet claims = new JWTClaimsSet.Builder()`,
    `${i}    .issuer(partnerId)`,
    `${i}    .audience(audience)`,
    `${i}    .issueTime(Date.from(now))`,
    `${i}    .expirationTime(Date.from(now.plusSeconds(${TOKEN_LIFETIME_SECONDS})))`,
    `${i}    .build();`,
    `${i}SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).type(JOSEObjectType.JWT).build(), claims);`,
    `${i}jwt.sign(new ECDSASigner(key)); // the raw r||s signature JWS requires`,
    `${i}String token = jwt.serialize();`,
    '',
    ...(body !== undefined ? [`${i}String body = ${textBlock(body, i)};`] : []),
    ...(fill.length ? [`${i}// ${FRESH_COMMENT}`, ...fill] : []),
    `${i}HttpRequest request = HttpRequest.newBuilder(URI.create(${url}))`,
    `${i}    .header("Authorization", "Bearer " + token)`,
    `${i}    .header("Accept", "application/json")`,
    ...(body !== undefined
      ? [`${i}    .header("Content-Type", "application/json")`, `${i}    .method(${dq(req.method)}, HttpRequest.BodyPublishers.ofString(body))`]
      : [`${i}    .method(${dq(req.method)}, HttpRequest.BodyPublishers.noBody())`]),
    `${i}    .build();`,
    `${i}HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());`,
    `${i}System.out.println("HTTP " + response.statusCode());`,
    `${i}System.out.println(response.body());`,
    `${i}System.exit(response.statusCode() / 100 == 2 ? 0 : 1);`,
    '    }',
    '}',
    '',
  ].join('\n');
}
