"""Serving Talon with gunicorn for a benchmark: a free port on loopback, and waiting until it answers.

Shared by bench/load.py, bench/requests.py and bench/stats.py.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    """Until ``GET /`` answers 200 (10 s at most); the benchmark stops when gunicorn exits or never answers."""
    for _ in range(100):
        if process.poll() is not None:
            raise SystemExit("gunicorn did not start")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not answer within 10 s")


def start_gunicorn(root: Path, port: int, *options: str) -> subprocess.Popen[bytes]:
    """gunicorn serving Talon (this process's environment: settings, database) on ``port``, answering once it does.
    ``options``: more of gunicorn's own (``--workers 4``, ``--timeout 120``)."""
    process = subprocess.Popen(
        [
            *(str(root / ".venv/bin/gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}"),
            *("--log-level", "warning", *options),
        ],
        cwd=root,
        env=os.environ.copy(),
    )
    wait_until_up(port, process)
    return process


def start_uvicorn(root: Path, port: int) -> subprocess.Popen[bytes]:
    """One uvicorn process serving Talon's ASGI app (the live lines) on ``port``, returned once it listens."""
    process = subprocess.Popen(
        [
            *(str(root / ".venv/bin/uvicorn"), "config.asgi:application", "--host", "127.0.0.1", "--port", str(port)),
            *("--log-level", "warning", "--no-access-log"),
        ],
        cwd=root,
        env=os.environ.copy(),
    )
    for _ in range(100):
        if process.poll() is not None:
            raise SystemExit("uvicorn did not start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("uvicorn did not listen within 10 s")


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """Stop gunicorn: politely, then for good after 10 s."""
    if process is None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def database_admin(server: str, sql: str) -> None:
    """Run CREATE/DROP DATABASE on the PostgreSQL ``server`` (a URL without a database name)."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql)


def drop_database(server: str, database: str) -> None:
    """Drop the benchmark's throw-away database, after closing this process's connections to it."""
    from django.db import connections

    connections.close_all()
    database_admin(server, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
