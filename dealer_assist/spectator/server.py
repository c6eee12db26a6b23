"""Starting the spectator screen: check the address, bind it, choose the token, run uvicorn.

The socket is bound here, before uvicorn starts, so a port in use or an
address that is not this machine's is one sentence (:class:`ServeError`)
instead of a traceback, and ``--port 0`` can say which free port it got.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import secrets
import socket
from dataclasses import dataclass

__all__ = ["ServeError", "Listener", "bind", "is_loopback", "new_token", "urls", "run"]


class ServeError(Exception):
    """The screen cannot start; one plain sentence."""


@dataclass
class Listener:
    """A bound, listening socket and what to print about it."""

    sock: socket.socket
    host: str
    port: int
    loopback: bool


def new_token() -> str:
    """A fresh token for LAN access (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def is_loopback(address: str) -> bool:
    """Whether ``address`` (an IP address as text) is a loopback address (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _resolve(host: str, port: int) -> list[tuple]:
    if not host or not host.strip() or any(c.isspace() for c in host) or len(host) > 253:
        raise ServeError(f"--host {host!r} is not an address or a host name; give e.g. 127.0.0.1 or 0.0.0.0.")
    try:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, socket.gaierror) and exc.strerror else str(exc)
        raise ServeError(f"--host {host!r} is not an address of this machine ({why}); "
                         f"give e.g. 127.0.0.1, 0.0.0.0 or this machine's LAN address.") from None


def bind(host: str, port: int) -> Listener:
    """A socket listening on ``host``:``port`` (``port`` 0: any free port).

    Raises :class:`ServeError` for a host that does not resolve or is not this
    machine's, a port out of range, in use, or reserved to root.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ServeError(f"--port must be a number from 0 to 65535 (0: any free port), not {port!r}.")
    infos = _resolve(host, port)
    # every address the name stands for must be loopback for the screen to go without a token
    loopback = all(is_loopback(info[4][0]) for info in infos)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0 if address[0] == "::" else 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"Port {port} on {host} is in use (another dealer-assist serve?); "
                             f"give another --port, or --port 0 for any free one.") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise ServeError(f"Port {port} needs administrator rights; give a port from 1024 up "
                             f"(e.g. --port 8765).") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise ServeError(f"--host {host} is not an address of this machine; give 127.0.0.1, 0.0.0.0 "
                             f"or one of this machine's addresses.") from None
        raise ServeError(f"Cannot listen on {host} port {port} ({exc.strerror or exc}).") from None
    sock.setblocking(False)
    return Listener(sock, host, sock.getsockname()[1], loopback)


def urls(listener: Listener, token: str | None) -> list[str]:
    """The addresses to open, for people: the bound one, and this machine's name for a wildcard bind."""
    query = f"?token={token}" if token else ""
    host = listener.host
    shown = []
    if host in ("0.0.0.0", "::", ""):
        shown.append(f"http://{socket.gethostname()}:{listener.port}/{query}")
        shown.append(f"http://127.0.0.1:{listener.port}/{query}")
    else:
        name = f"[{host}]" if ":" in host else host
        shown.append(f"http://{name}:{listener.port}/{query}")
    return shown


def run(app, listener: Listener) -> None:
    """Serve ``app`` on the bound socket until Ctrl-C (uvicorn; its own logging only for errors)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", server_header=False,
                            proxy_headers=False, timeout_graceful_shutdown=2, ws="none")
    server = uvicorn.Server(config)
    if hasattr(app, "config"):  # let open event streams end as soon as Ctrl-C is pressed
        app.config.stopping = lambda: server.should_exit
    server.run(sockets=[listener.sock])
