"""The online server, ``ts358 serve --public`` (docs/web.md#online): people with names and
passwords or guests, a lobby of tables, ratings, the matches in a database.

Needs the ``online`` extra (SQLAlchemy, Alembic, OpenSkill, and the web extra); PostgreSQL
needs the ``postgresql`` extra too.
"""
