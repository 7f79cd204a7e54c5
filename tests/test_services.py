"""The real PostgreSQL and Redis servers of tests/services.py answer as the game server needs:
SQLAlchemy on psycopg 3 (a per-test database each time new and empty), redis-py with pub/sub.
"""

import time

import pytest


def _engine(url):
    sqlalchemy = pytest.importorskip("sqlalchemy")
    return sqlalchemy.create_engine(url)


def test_postgres_url_answers_select_1(postgres_url):
    from sqlalchemy import text

    assert postgres_url.startswith("postgresql+psycopg://")
    engine = _engine(postgres_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT 1")).scalar_one() == 1
            assert conn.execute(text("SELECT current_database()")).scalar_one() == "ts358"
            assert conn.dialect.driver == "psycopg"
    finally:
        engine.dispose()


def test_postgres_round_trip(postgres_db):
    from sqlalchemy import text

    engine = _engine(postgres_db)
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE player (id serial PRIMARY KEY, name text NOT NULL)"))
            conn.execute(
                text("INSERT INTO player (name) VALUES (:name)"),
                [{"name": "Ala"}, {"name": "Ola"}],
            )
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id, name FROM player ORDER BY id")).all()
        assert [tuple(r) for r in rows] == [(1, "Ala"), (2, "Ola")]
    finally:
        engine.dispose()


def _tables(url):
    from sqlalchemy import inspect

    engine = _engine(url)
    try:
        return inspect(engine).get_table_names()
    finally:
        engine.dispose()


_seen_databases = []


@pytest.mark.parametrize("run", [1, 2])
def test_postgres_db_is_new_and_empty_per_test(postgres_db, postgres_url, run):
    from sqlalchemy.engine import make_url

    name = make_url(postgres_db).database
    assert name.startswith("t_") and name != make_url(postgres_url).database
    assert name not in _seen_databases
    _seen_databases.append(name)
    assert _tables(postgres_db) == []  # nothing left over from another test
    engine = _engine(postgres_db)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE leftover (x int)")
    finally:
        engine.dispose()
    assert _tables(postgres_db) == ["leftover"]


def test_redis_set_get(redis_clean_url):
    redis = pytest.importorskip("redis")
    with redis.Redis.from_url(redis_clean_url, decode_responses=True) as client:
        assert client.ping()
        assert client.dbsize() == 0
        client.set("table:1:state", "dealing", ex=60)
        assert client.get("table:1:state") == "dealing"
        assert client.incr("table:1:moves") == 1


def test_redis_pub_sub_between_two_clients(redis_url):
    redis = pytest.importorskip("redis")
    with (
        redis.Redis.from_url(redis_url, decode_responses=True) as subscriber,
        redis.Redis.from_url(redis_url, decode_responses=True) as publisher,
    ):
        pubsub = subscriber.pubsub()
        try:
            pubsub.subscribe("table:7")
            # The subscription is in place once the server confirms it.
            confirmation = pubsub.get_message(timeout=5)
            assert confirmation is not None and confirmation["type"] == "subscribe"
            assert publisher.publish("table:7", "played 10♥") == 1
            deadline = time.monotonic() + 5
            message = None
            while message is None and time.monotonic() < deadline:
                message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            assert message is not None, "no message within 5 s"
            assert (message["channel"], message["data"]) == ("table:7", "played 10♥")
        finally:
            pubsub.close()


def test_a_second_independent_redis_server(redis_url):
    redis = pytest.importorskip("redis")
    from services import start_redis

    url, stop = start_redis()
    try:
        assert url != redis_url
        with (
            redis.Redis.from_url(url) as second,
            redis.Redis.from_url(redis_url) as first,
        ):
            second.set("only-here", 1)
            assert second.get("only-here") == b"1"
            assert first.get("only-here") is None
    finally:
        stop()
    with pytest.raises(redis.ConnectionError), redis.Redis.from_url(url) as gone:
        gone.ping()
