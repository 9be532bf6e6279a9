"""An integrator's tests of its own application (partner_client.py) against the Local sandbox's control API."""
import datetime
import json

import pytest

from partner_client import ApiError

REGISTRATIONS = "/api/v3/tire-protection/registrations"


def registration(invoice, enroll=None):
    enroll = enroll or datetime.date.today()
    return {
        "product_id": "tire-protection",
        "invoiceNumber": invoice,
        "enrollDate": enroll.isoformat(),
        "customer": {"name": "Ava Garcia", "email": "ava@example.com"},
        "vehicle": {"year": 2021, "make": "Toyota", "model": "RAV4"},
        "tires": [{"make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99}] * 4,
    }


CLAIM = {
    "serviceInvoiceNumber": "SVC-1",
    "serviceInvoiceDate": datetime.date.today().isoformat(),
    "vehicleMileage": 12000,
    "damageReason": "Puncture",
    "damageDescription": "Nail in tread",
    "authorizedAmount": 150,
    "tires": [{"original": {"make": "Michelin", "model": "Defender2", "size": "225/65R17"}}],
}


def test_create_is_received_once(sandbox):
    sandbox.client().register(registration("PY-1001"))
    journal = sandbox.control("GET", f"requests?method=POST&path={REGISTRATIONS}")
    assert journal["total"] == 1
    entry = journal["entries"][0]
    assert entry["status"] == 201
    assert json.loads(entry["request"]["body"])["invoiceNumber"] == "PY-1001"
    assert entry["request"]["headers"]["authorization"] == "Bearer [masked]"


def test_503_is_retried_and_stored_once(sandbox):
    sandbox.control("POST", "faults", {"method": "POST", "path": REGISTRATIONS, "fault": 503, "times": 1})
    sandbox.client().register(registration("PY-1002"))
    statuses = [e["status"] for e in sandbox.control("GET", f"requests?method=POST&path={REGISTRATIONS}")["entries"]]
    assert statuses == [503, 201]
    listed = sandbox.client().send("GET", "/tire-protection/registrations?invoiceNumber=PY-1002")
    assert listed["totalRecordCount"] == 1, "the retry stored no duplicate"


def test_claim_after_expiry_is_refused(sandbox):
    client = sandbox.client()
    reg_id = client.register(registration("PY-1003"))
    moved = sandbox.control("POST", "clock", {"advanceSeconds": 37 * 31 * 86400})  # past the 36-month term
    sandbox.offset_seconds = moved["offsetSeconds"]  # the application's clock moves with it
    with pytest.raises(ApiError) as err:
        client.claim(reg_id, CLAIM)
    assert err.value.status == 409


def test_broken_token_is_diagnosed(sandbox):
    broken = sandbox.client(audience=sandbox.origin)  # the version 2 aud: wrong for version 3 calls
    with pytest.raises(ApiError) as err:
        broken.register(registration("PY-1004"))
    assert err.value.status == 401
    entry = sandbox.control("GET", "requests?status=401")["entries"][0]
    rules = [d["rule"] for d in entry["diagnosis"]]
    assert "aud" in rules, entry["diagnosis"]
