"""Errors of the test key management: malformed key material, keys that do not unwrap."""

from __future__ import annotations


class KmsError(Exception):
    """Base class of every key-management error raised by `conformance.kms`."""


class KeyMaterialError(KmsError, ValueError):
    """The key_metadata / key material JSON is malformed: the message names the field."""


class KeyUnwrapError(KmsError):
    """A wrapped key does not open: unknown master key, wrong key or tampered bytes."""
