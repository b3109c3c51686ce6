"""Push: memory per idle live-line connection under uvicorn, and publish → viewer latency through Redis.

    .venv/bin/python bench/push.py                       # 300 viewers of one share link, 20 messages
    .venv/bin/python bench/push.py --at-once 300                   # all 300 connect in one burst
    .venv/bin/python bench/push.py --viewers 1000 --messages 50
    .venv/bin/python bench/push.py --push-url ""         # no Redis: uvicorn's own process only (nothing arrives)

Migrates a throwaway SQLite file with one evening and one Šnapser table, starts uvicorn (``config.asgi``, one
process, DEBUG off) on a free loopback port with ``PUSH_URL`` at Redis, and opens one live line
(``GET /s/<token>/stream/``) first to warm the process up. It reads uvicorn's resident memory (VmRSS in
/proc/<pid>/status) and thread count, opens ``--viewers`` more lines from one asyncio client and waits until every
one has its first event, then reads them again: the difference divided by the viewers is the memory per idle
connection. Then it publishes ``--messages`` messages on the evening's topic through ``ledger.live.fanout.publish``
(as a stored hand does, from another process: through Redis), each carrying the time it was sent, and times its
arrival at every viewer: p50/p95/max over all arrivals, and p50/p95 of the time until the last viewer had each message.
Bounded: ``--cap`` seconds for the whole run, uvicorn stopped and the file removed at the end, also on error.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/, whose requests.py would shadow the requests package


from bench.serving import free_port, start_uvicorn, stop  # noqa: E402 - needs the path above


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=300, help="live lines open at once")
    parser.add_argument("--messages", type=int, default=20, help="messages published, one every --gap seconds")
    parser.add_argument("--gap", type=float, default=0.25, help="seconds between two messages")
    parser.add_argument("--push-url", default="redis://127.0.0.1:6379/1", help="PUSH_URL for uvicorn and publisher")
    parser.add_argument(
        "--at-once", type=int, default=10, help="viewers connecting together (phones trickle in; 300 = one burst)"
    )
    parser.add_argument("--cap", type=float, default=120, help="seconds the whole run may take")
    args = parser.parse_args()
    if not (1 <= args.viewers <= 5000 and 1 <= args.messages <= 1000 and args.at_once >= 1):
        parser.error("keep it bounded: viewers 1..5000, messages 1..1000, at-once 1 or more")

    workdir = Path(tempfile.mkdtemp(prefix="talon-push-bench-"))
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "SECRET_KEY": "push-bench-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "PUSH_URL": args.push_url,
            "LOG_LEVEL": "ERROR",
        }
    )
    uvicorn = None
    try:
        evening, token = _prepare()
        port = free_port()
        uvicorn = start_uvicorn(ROOT, port)
        result = asyncio.run(asyncio.wait_for(_measure(args, port, uvicorn.pid, evening, token), args.cap))
        print(result)
    finally:
        stop(uvicorn)
        for path in workdir.iterdir():
            path.unlink()
        workdir.rmdir()


def _prepare() -> tuple[int, str]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from ledger import services

    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user(username="keeper", password=None)
    evening = services.evening_create(owner=owner, date=datetime.date(2026, 11, 27), currency="EUR")
    services.table_create(evening=evening, game="snapser", players=["Ana", "Ben", "Cyril"])
    assert evening.share_token is not None
    return evening.pk, evening.share_token


def _proc_status(pid: int) -> tuple[int, int]:
    """Resident memory (KiB) and thread count of a process, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"])


class Viewer:
    """One live line, read the way EventSource reads it: ``data:`` lines, one JSON event each."""

    def __init__(self) -> None:
        self.first = asyncio.Event()
        self.arrivals: dict[int, float] = {}  # message number -> perf_counter at arrival
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, port: int, path: str) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        status = await reader.readline()
        if b" 200 " not in status:
            raise SystemExit(f"the live line answered {status!r}")
        while line := await reader.readline():
            if not line.startswith(b"data: "):
                continue  # headers, chunk sizes, id:, retry:, heartbeats
            data = json.loads(line[6:])
            if "state" in data:
                self.first.set()
            elif "n" in data:
                self.arrivals[data["n"]] = time.perf_counter()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _measure(args: argparse.Namespace, port: int, pid: int, evening: int, token: str) -> str:
    from ledger.live import fanout

    path = f"/s/{token}/stream/"
    warm = Viewer()
    warm_task = asyncio.create_task(warm.run(port, path))
    await warm.first.wait()
    await asyncio.sleep(1)
    rss_before, threads_before = _proc_status(pid)

    viewers = [Viewer() for _ in range(args.viewers)]
    started = time.perf_counter()
    tasks = []
    for batch in range(0, args.viewers, args.at_once):
        arriving = viewers[batch : batch + args.at_once]
        tasks += [asyncio.create_task(viewer.run(port, path)) for viewer in arriving]
        await asyncio.gather(*(viewer.first.wait() for viewer in arriving))
    connect_seconds = time.perf_counter() - started
    await asyncio.sleep(1)
    rss_after, threads_after = _proc_status(pid)

    topic = fanout.evening_topic(evening)
    sent: dict[int, float] = {}
    for n in range(args.messages):
        sent[n] = time.perf_counter()
        await asyncio.to_thread(fanout.publish, topic, {"n": n})
        await asyncio.sleep(args.gap)
    await asyncio.sleep(2)  # the stragglers
    each = [viewer.arrivals[n] - sent[n] for viewer in viewers for n in sent if n in viewer.arrivals]
    missing = args.viewers * args.messages - len(each)
    last = [max(viewer.arrivals.get(n, float("inf")) for viewer in viewers) - sent[n] for n in sent]
    redis_connections = _redis_connections(args.push_url, pid)

    for viewer in [warm, *viewers]:
        viewer.close()
    for task in [warm_task, *tasks]:
        task.cancel()
    await asyncio.gather(warm_task, *tasks, return_exceptions=True)

    per_viewer = (rss_after - rss_before) / args.viewers
    lines = [
        f"{args.viewers} live lines on one share link, uvicorn 1 process, PUSH_URL={args.push_url or '(none)'}",
        f"connect: {args.at_once} at a time, all {args.viewers} had their first event after {connect_seconds:.2f} s",
        f"uvicorn RSS: {rss_before / 1024:.1f} MiB with 1 line, {rss_after / 1024:.1f} MiB with {args.viewers + 1}"
        f" = {per_viewer:.1f} KiB per idle connection; threads {threads_before} -> {threads_after}",
        f"Redis pub/sub connections held by uvicorn: {redis_connections}",
    ]
    if each:
        lines.append(
            f"publish -> viewer ({args.messages} messages x {args.viewers} viewers): p50 {_ms(each, 50)},"
            f" p95 {_ms(each, 95)}, max {max(each) * 1000:.1f} ms; missing {missing}"
        )
        finite = [value for value in last if value != float("inf")]
        lines.append(
            f"until the last viewer had it (per message): p50 {_ms(finite, 50)}, p95 {_ms(finite, 95)}"
            if finite
            else "no message reached every viewer"
        )
    else:
        lines.append(f"no message arrived (missing {missing}): without Redis only uvicorn's own publishes arrive")
    return "\n".join(lines)


def _ms(values: list[float], percentile: int) -> str:
    if len(values) == 1:
        return f"{values[0] * 1000:.1f} ms"
    return f"{statistics.quantiles(values, n=100)[percentile - 1] * 1000:.1f} ms"


def _redis_connections(url: str, pid: int) -> str:
    if not url:
        return "none (no PUSH_URL)"
    import redis

    clients = redis.Redis.from_url(url).client_list()
    return str(sum(1 for client in clients if client.get("name") == f"talon-push-{pid}"))


if __name__ == "__main__":
    main()
