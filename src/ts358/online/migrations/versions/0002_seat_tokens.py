"""Seats' tokens in the database: any server process can tell whose seat a token opens.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("token", sa.String(64), nullable=True))
        batch.create_index("ix_seats_token", ["token"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_token")
        batch.drop_column("token")
