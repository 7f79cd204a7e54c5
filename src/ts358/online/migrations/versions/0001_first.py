"""The first schema: people, sessions, tables and seats, matches and places, ratings.

Revision ID: 0001
Revises:
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("key", sa.String(80), nullable=False, unique=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("password", sa.String(200), nullable=True),
        _when("created"),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        _when("created"),
        _when("expires"),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("rules", sa.String(300), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(20), nullable=False),
        sa.Column("lang", sa.String(5), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        _when("created"),
        _when("updated"),
        sa.Column("save", sa.Text(), nullable=True),
        sa.Column("process", sa.String(80), nullable=True),
        _when("beat", nullable=True),
    )
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("present", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, unique=True
        ),
        sa.Column("preset", sa.String(40), nullable=False, index=True),
        sa.Column("deals", sa.Integer(), nullable=False),
        _when("ended"),
        sa.Column("save", sa.Text(), nullable=False),
    )
    op.create_index("ix_matches_ended", "matches", ["ended"])
    op.create_table(
        "places",
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("preset", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    for name in ("ratings", "places", "matches", "seats", "tables", "sessions", "users"):
        op.drop_table(name)
