"""``ts358 serve``: the card table in a browser (docs/web.md).

The parts, one job each:

- :mod:`ts358.web.protocol`: the messages a browser sends, read and checked;
- :mod:`ts358.web.messages`: the messages a seat is sent, built from that seat's view only;
- :mod:`ts358.web.table`: :class:`~ts358.web.table.Table`, a match with human and computer
  seats, seat tokens, saves, the wait after a deal;
- :mod:`ts358.web.lobby`: new matches, resumed saves, statistics, the tables of a server;
- :mod:`ts358.web.app`: the ASGI application (Starlette): pages, the WebSocket, the computer
  players and the analyses run off the event loop, the pace of the cards;
- :mod:`ts358.web.server`: running it with uvicorn on a host and port.

Only :mod:`~ts358.web.app` and :mod:`~ts358.web.server` need the optional ``web`` extra
(Starlette, uvicorn); the rest is plain Python over the engine and the session, and is the
API a program drives a table with.
"""
