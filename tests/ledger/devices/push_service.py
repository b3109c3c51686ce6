"""A push service on loopback for the tests, and browsers that subscribe to it: no network.

``PushService`` is a tiny HTTP server in a thread: it keeps every POST it receives (path, headers, body) and answers
each subscription's path with the status a test set (201 unless told). ``FakeBrowser`` holds what a real browser
holds: its own P-256 key pair and authentication secret, the subscription JSON it would post, and the decryption
of what the push service received (RFC 8291, aes128gcm, with http_ece).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def answer(self, name: str, status: int) -> None:
        self.answers[f"/push/{name}"] = status

    def to(self, name: str) -> list[Received]:
        return [request for request in self.received if request.path == f"/push/{name}"]


def start() -> PushService:
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    service = PushService(ThreadingHTTPServer(("127.0.0.1", 0), Handler))
    threading.Thread(target=service.server.serve_forever, daemon=True).start()
    return service


@dataclass
class FakeBrowser:
    """One browser's subscription at the loopback push service."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, request: Received) -> dict[str, Any]:
        """The message, decrypted as the browser does (a wrong key or secret raises)."""
        assert request.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(request.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        message: dict[str, Any] = json.loads(plain)
        return message


def vapid_claims(request: Received, public_key: str) -> dict[str, Any]:
    """The VAPID token's claims, once its signature checks out with ``public_key`` (RFC 8292: ``vapid t=…,k=…``)."""
    scheme, _, parameters = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    values = dict(part.split("=", 1) for part in parameters.split(","))
    assert values["k"] == public_key, "signed with another key than the one the browsers were given"
    assert Vapid02.verify(request.headers["authorization"]), "the VAPID signature does not check out"
    claims: dict[str, Any] = json.loads(unb64(values["t"].split(".")[1]))
    return claims
