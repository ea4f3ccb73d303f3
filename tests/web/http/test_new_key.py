"""A form's idempotency key: 128 bits of the operating system's randomness (``secrets.token_urlsafe(16)``), never the
same twice, in one process or across a fork (a gunicorn worker and its master)."""

from __future__ import annotations

import os
import re

import pytest

from companion.web.forms.fields import new_key


def test_keys_are_22_url_safe_characters_and_all_different() -> None:
    keys = [new_key() for _ in range(5000)]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", k) for k in keys)
    assert len(set(keys)) == len(keys)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_child_reads_its_own_bytes() -> None:
    new_key()  # the buffer holds unused bytes
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next key, then out
        os.close(reading)
        os.write(writing, new_key().encode())
        os._exit(0)
    os.close(writing)
    theirs = os.read(reading, 64).decode()
    os.waitpid(pid, 0)
    os.close(reading)
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", theirs)
    assert new_key() != theirs  # the parent's next key is not the child's
