"""The application under test: a small partner API client, as an integrator would write it.

It follows the partner interface (partner-interface.md, Authentication and Errors): a fresh ES256 JWT per attempt
(iss = Partner ID, aud = the base address, iat/exp), and 429 or 5xx answers retried after Retry-After (or a short
back-off), a bounded number of times. Only the standard library and PyJWT (Debian: python3-jwt, python3-cryptography).
"""
import json
import time
import urllib.error
import urllib.request

import jwt


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class PartnerClient:
    RETRIED = {429, 500, 502, 503, 504}

    def __init__(self, base_url, partner_id, private_key_pem, audience=None, clock=time.time, attempts=4):
        self.base_url = base_url.rstrip("/")
        self.partner_id = partner_id
        self.private_key_pem = private_key_pem
        self.audience = audience or self.base_url
        self.clock = clock  # seconds since epoch; a test moves it together with the sandbox's clock
        self.attempts = attempts

    def token(self):
        now = int(self.clock())
        claims = {"iss": self.partner_id, "aud": self.audience, "iat": now, "exp": now + 300}
        return jwt.encode(claims, self.private_key_pem, algorithm="ES256", headers={"typ": "JWT"})

    def send(self, method, path, body=None):
        """Sends one call, retrying 429 and 5xx; returns the parsed JSON answer (None for 204) or raises ApiError."""
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(1, self.attempts + 1):
            req = urllib.request.Request(self.base_url + path, data=data, method=method)
            req.add_header("Authorization", f"Bearer {self.token()}")
            if data is not None:
                req.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(req, timeout=10) as res:
                    text = res.read().decode()
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as err:
                text = err.read().decode()
                if err.code in self.RETRIED and attempt < self.attempts:
                    time.sleep(min(float(err.headers.get("Retry-After") or 0.2), 2.0))
                    continue
                raise ApiError(err.code, text) from None
        raise AssertionError("unreachable")

    def register(self, registration):
        return self.send("POST", "/tire-protection/registrations", registration)["id"]

    def claim(self, registration_id, claim):
        return self.send("POST", f"/tire-protection/registrations/{registration_id}/claims", claim)
