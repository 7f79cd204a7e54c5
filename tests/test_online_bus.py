"""The online server processes' Redis (ts358.online.bus), against a real Redis
(tests/services.py): limits shared by every process, presence, a connection's messages."""

from __future__ import annotations

import asyncio
import time

from ts358.online.bus import Bus, SharedLimiter, connection_channel
from ts358.online.limits import Limiter


def test_a_limit_holds_across_processes(redis_clean_url):
    one, two = Bus(redis_clean_url), Bus(redis_clean_url)  # as two server processes
    first = SharedLimiter(one, "signin", 3, Limiter(3, 3))
    second = SharedLimiter(two, "signin", 3, Limiter(3, 3))
    answers = [first.allow("1.2.3.4"), second.allow("1.2.3.4"), first.allow("1.2.3.4")]
    assert answers == [True, True, True]
    assert not second.allow("1.2.3.4") and not first.allow("1.2.3.4")
    assert first.allow("5.6.7.8")  # another address has its own
    assert 0 < second.retry_after("1.2.3.4") <= 60


def test_without_redis_each_process_limits_alone():
    away = Bus("redis://127.0.0.1:1/0")
    limiter = SharedLimiter(away, "signin", 100, Limiter(per_minute=2, burst=2))
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]


def test_presence_is_seen_by_every_process(redis_clean_url):
    one, two = Bus(redis_clean_url), Bus(redis_clean_url)
    now = time.time()
    one.mark_present({7: now, 8: now - 100})
    assert two.present(now - 30) == {7}
    assert two.present(now - 300) == {7}  # the old mark was dropped by the first look


def test_a_connection_receives_what_its_table_sends(redis_clean_url):
    bus = Bus(redis_clean_url)

    async def run() -> list[dict]:
        got = []
        async with bus.connection("abc") as inbox:
            await bus.apublish(connection_channel("abc"), {"text": "hello"})
            await bus.apublish(connection_channel("other"), {"text": "not mine"})
            await bus.apublish(connection_channel("abc"), {"close": 4000})
            async for message in inbox:
                got.append(message)
                if "close" in message:
                    return got
        return got

    assert asyncio.run(asyncio.wait_for(run(), 10)) == [{"text": "hello"}, {"close": 4000}]
