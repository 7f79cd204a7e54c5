"""Bots from any program at a ts358 table: the protocol ``ts358-bot/1`` (JSON lines,
docs/bots.md), a seat played by a bot's process with every fault caught
(:class:`BotPlayer`), and the bot's side for ts358's own players (:func:`serve_bot`,
``ts358 bot``)."""

from __future__ import annotations

from ts358.bots.client import serve_bot
from ts358.bots.process import FAULT_KINDS, BotFault, BotProcess
from ts358.bots.protocol import PROTOCOL, BotProtocolError, view_from_json, view_to_json
from ts358.bots.seat import DEFAULT_SECONDS, BotPlayer, Fault

__all__ = [
    "DEFAULT_SECONDS",
    "FAULT_KINDS",
    "PROTOCOL",
    "BotFault",
    "BotPlayer",
    "BotProcess",
    "BotProtocolError",
    "Fault",
    "serve_bot",
    "view_from_json",
    "view_to_json",
]
