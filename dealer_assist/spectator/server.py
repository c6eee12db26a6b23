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

__all__ = ["ServeError", "Listener", "bind", "is_loopback", "new_token", "lan_addresses", "urls", "qr_text", "run"]


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


def lan_addresses(include_v6: bool = False) -> list[str]:
    """This machine's addresses that other devices on the network can open: every interface's IPv4
    address that is not loopback or link-local (``ifaddr``), in the interfaces' order; IPv6 (global ones
    only) after them when ``include_v6``. Empty when there is none (no network)."""
    import ifaddr

    v4: list[str] = []
    v6: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                address = ipaddress.ip_address(ip.ip)
                if not (address.is_loopback or address.is_link_local or address.is_unspecified):
                    v4.append(str(address))
            elif include_v6:
                address = ipaddress.ip_address(ip.ip[0])
                if address.is_global:
                    v6.append(str(address))
    return list(dict.fromkeys(v4 + v6))


def _url(host: str, port: int, query: str) -> str:
    name = f"[{host}]" if ":" in host else host
    return f"http://{name}:{port}/{query}"


def urls(listener: Listener, token: str | None) -> list[str]:
    """The addresses to open, for people, the one to give a TV first: for a wildcard bind (``0.0.0.0``,
    ``::``) every LAN address of this machine (:func:`lan_addresses`), then loopback; else the bound one."""
    query = f"?token={token}" if token else ""
    host = listener.host
    if host in ("0.0.0.0", "::", ""):
        lan = lan_addresses(include_v6=host == "::")
        return [_url(a, listener.port, query) for a in lan] + [_url("127.0.0.1", listener.port, query)]
    return [_url(host, listener.port, query)]


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with block characters (two rows of modules per line, a quiet zone of
    two modules), for a terminal: a phone's camera reads it off the screen (library ``qrcode``)."""
    import qrcode

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    matrix = code.get_matrix()  # True = dark module, quiet zone included
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))
    # Light-on-dark terminals are the common case, so dark modules are drawn as spaces and light ones as
    # full blocks: the code then reads the right way round on either background, with the quiet zone drawn.
    chars = {(False, False): "\u2588", (False, True): "\u2580", (True, False): "\u2584", (True, True): " "}
    return "\n".join("".join(chars[(top, bottom)] for top, bottom in zip(matrix[i], matrix[i + 1]))
                     for i in range(0, len(matrix), 2))


def run(app, listener: Listener) -> None:
    """Serve ``app`` on the bound socket until Ctrl-C (uvicorn; its own logging only for errors)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", server_header=False,
                            proxy_headers=False, timeout_graceful_shutdown=2, ws="none")
    server = uvicorn.Server(config)
    if hasattr(app, "config"):  # let open event streams end as soon as Ctrl-C is pressed
        app.config.stopping = lambda: server.should_exit
    server.run(sockets=[listener.sock])
