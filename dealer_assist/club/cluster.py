"""A throwaway PostgreSQL server of Debian's ``postgresql`` package: a cluster in a folder, on a local port.

The test suite and ``benchmarks/bench_club.py`` start one to exercise the club against a real
server (never a mock): :class:`LocalCluster` runs ``initdb`` and ``pg_ctl`` from
``/usr/lib/postgresql/<version>/bin`` (:func:`find_bin_dir`) in a folder of its own, listening
on ``127.0.0.1`` only, on a free port, with its socket in that folder (no system-wide
``/var/run/postgresql`` is needed). PostgreSQL refuses to run as root; run as root, the cluster's
files belong to the ``postgres`` user Debian's package creates and the server runs as that user.

>>> find_bin_dir(["/nonexistent"]) is None
True
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["ClusterError", "LocalCluster", "find_bin_dir", "INSTALL_HINT", "free_port"]

#: What to do when the server's programs are missing (said by the tests and the benchmark).
INSTALL_HINT = ("PostgreSQL's server programs are missing (no /usr/lib/postgresql/*/bin/initdb): "
                "install Debian's package with `apt-get install postgresql` (or `make setup`, which "
                "installs the Makefile's APT_PACKAGES).")
#: Seconds to wait for the server to accept connections after ``pg_ctl start``.
START_TIMEOUT = 60.0


class ClusterError(RuntimeError):
    """The throwaway server cannot be made or started; one plain sentence."""


def find_bin_dir(roots: list[str] | None = None) -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    candidates = []
    for root in roots if roots is not None else ["/usr/lib/postgresql"]:
        for path in glob.glob(os.path.join(root, "*", "bin")):
            if all(os.access(os.path.join(path, p), os.X_OK) for p in ("initdb", "pg_ctl", "postgres")):
                version = os.path.basename(os.path.dirname(path))
                candidates.append((int(version) if version.isdigit() else 0, Path(path)))
    return max(candidates)[1] if candidates else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalCluster:
    """One throwaway cluster in ``folder`` (default: a new temporary folder) on ``127.0.0.1:port``
    (default: a free port).

    ``start()`` initialises it the first time (user ``club``, trust authentication on loopback
    only) and starts it; ``kill()`` ends the server with SIGKILL (a crash: recovery at the next
    start); ``stop()`` shuts it down; ``url(db)`` is its connection string.
    """

    def __init__(self, folder: str | os.PathLike | None = None, port: int | None = None, *,
                 bin_dir: Path | None = None, user: str = "club") -> None:
        # a folder of its own directly in the temporary folder: the server's user (``postgres`` when
        # run as root) must be able to reach it, which a private pytest tmp_path does not allow
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="dealer-assist-pg-"))
        self.data = self.folder / "data"
        self.port = port or free_port()
        self.user = user
        bin_dir = bin_dir or find_bin_dir()
        if bin_dir is None:
            raise ClusterError(INSTALL_HINT)
        self.bin = bin_dir
        self._run_as = None
        if os.geteuid() == 0:
            try:
                self._run_as = pwd.getpwnam("postgres")
            except KeyError:
                raise ClusterError("PostgreSQL does not run as root and there is no 'postgres' user; install "
                                   "Debian's postgresql package (it creates the user) or run as another user.") from None

    # -------------------------------------------------------------------------------- running
    def _cmd(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        kwargs = {}
        if self._run_as is not None:
            kwargs = {"user": self._run_as.pw_uid, "group": self._run_as.pw_gid, "extra_groups": []}
        return subprocess.run([str(self.bin / args[0]), *args[1:]], capture_output=True, text=True, check=check,
                              timeout=timeout, cwd=self.folder, env={**os.environ, "LC_ALL": "C.UTF-8"}, **kwargs)

    def url(self, dbname: str = "postgres") -> str:
        """``postgresql://club@127.0.0.1:PORT/DBNAME``."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def start(self) -> "LocalCluster":
        """Initialise (first time) and start the server; wait until it accepts connections."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._run_as is not None:
            os.chown(self.folder, self._run_as.pw_uid, self._run_as.pw_gid)
        if not (self.data / "PG_VERSION").exists():
            done = self._cmd("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8",
                             "--no-sync", check=False)
            if done.returncode:
                raise ClusterError(f"initdb failed: {(done.stderr or done.stdout).strip()[-400:]}")
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder} "
                   f"-c fsync=on -c max_connections=60 -c shared_buffers=16MB")
        done = self._cmd("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options,
                         "-w", "-t", str(int(START_TIMEOUT)), "start", check=False, timeout=START_TIMEOUT + 30)
        if done.returncode:
            log = (self.folder / "server.log")
            tail = log.read_text(errors="replace")[-600:] if log.exists() else ""
            raise ClusterError(f"pg_ctl start failed: {(done.stderr or done.stdout).strip()[-300:]} {tail}")
        return self

    def pid(self) -> int | None:
        """The postmaster's process id, or None when it is not running."""
        try:
            first = (self.data / "postmaster.pid").read_text().split("\n", 1)[0]
            pid = int(first)
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def kill(self) -> None:
        """SIGKILL the server and every backend (a crash); the next :meth:`start` recovers."""
        pid = self.pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGKILL)
        # the backends notice their postmaster died and exit; wait for the port to be free
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
            for child in children:
                try:
                    os.kill(int(child), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            try:
                os.kill(pid, 0)
            except OSError:
                if not children:
                    break
            time.sleep(0.05)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and _listening(self.port):
            time.sleep(0.05)

    def stop(self) -> None:
        """Shut the server down (fast mode); nothing when it is not running."""
        if self.pid() is None:
            return
        self._cmd("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "LocalCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.remove()


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0
