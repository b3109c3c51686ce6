"""The server's VAPID key pair, in the form the settings and the browsers take: base64url, without padding, the
private key as its 32 raw bytes and the public key as the uncompressed P-256 point (65 bytes) that a page hands
``PushManager.subscribe`` as its ``applicationServerKey``."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def new_pair() -> tuple[str, str]:
    """A new (public, private) key pair."""
    private = ec.generate_private_key(ec.SECP256R1())
    return public_of(private), _b64(private.private_numbers().private_value.to_bytes(32, "big"))


def public_key_of(private_key: str) -> str:
    """The public key that goes with ``private_key`` (ValueError: not a key).

    >>> public, private = new_pair()
    >>> public_key_of(private) == public
    True
    """
    raw = base64.urlsafe_b64decode(private_key + "=" * (-len(private_key) % 4))
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes")
    return public_of(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()))


def public_of(private: ec.EllipticCurvePrivateKey) -> str:
    point = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64(point)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
