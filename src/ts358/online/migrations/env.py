"""Alembic's environment for the online server's database (docs/web.md, Online: the
database). The server runs the migrations itself at start (:meth:`Database.migrate
<ts358.online.db.Database.migrate>`, on its own connection); ``alembic`` at a command line
works too, with ``-x url=...`` naming the database."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ts358.online.schema import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("alembic: name the database: alembic -x url=sqlite:///online.db ...")
    with create_engine(url).connect() as fresh:
        context.configure(connection=fresh, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
