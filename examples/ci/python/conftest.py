"""pytest fixtures: a Local sandbox started by the suite itself (`tpp sandbox`), waited for through the control API's
health, and reset before every test. `tpp` must be on PATH (npm install -g ./tpp-cli-<version>.tgz)."""
import json
import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

from partner_client import PartnerClient

PARTNER_ID = "CI-PARTNER"


class Sandbox:
    def __init__(self, base_url, private_key_pem):
        self.base_url = base_url  # {sandbox_url}: origin + /api/v3 (the JWT aud)
        self.origin = base_url[: -len("/api/v3")]
        self.private_key_pem = private_key_pem
        self.offset_seconds = 0.0

    def control(self, method, path, body=None):
        """Calls the control API (/__tpp/...) and returns its JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.origin}/__tpp/{path}", data=data, method=method)
        # Every control POST says it is JSON, also without a body (the sandbox refuses what a web page could send).
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read().decode())

    def ready(self):
        """Whether health answers ready (it answers 503 "starting", with Retry-After, until then)."""
        try:
            return self.control("GET", "health")["status"] == "ready"
        except urllib.error.HTTPError as e:
            if e.code == 503:
                return False
            raise

    def now(self):
        """The sandbox's time: real time plus the offset the test moved its clock by."""
        return time.time() + self.offset_seconds

    def client(self, **kwargs):
        return PartnerClient(self.base_url, PARTNER_ID, self.private_key_pem, clock=self.now, **kwargs)


@pytest.fixture(scope="session")
def sandbox_process():
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "partner")
        subprocess.run(["tpp", "keygen", "--curve", "P-256", "--out", prefix], check=True, capture_output=True)
        proc = subprocess.Popen(
            ["tpp", "sandbox", "--port", "0", "--partner", f"{PARTNER_ID}={prefix}.pub.pem"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        try:
            base_url = proc.stdout.readline().strip()  # the first line is the v3 base address
            assert base_url.startswith("http://"), f"tpp sandbox did not start (exit {proc.poll()})"
            with open(prefix + ".pem") as f:
                sb = Sandbox(base_url, f.read())
            deadline = time.time() + 30
            while not sb.ready():
                assert time.time() < deadline, "the sandbox did not become ready"
                time.sleep(0.1)
            yield sb
        finally:
            proc.terminate()
            proc.wait(timeout=30)


@pytest.fixture
def sandbox(sandbox_process):
    """A clean sandbox for each test: records, journal and faults gone, clock back to real time, partners kept."""
    sandbox_process.control("POST", "reset")
    sandbox_process.offset_seconds = 0.0
    return sandbox_process
