"""The job coordination of several processes serving one index directory
(``citerag serve --workers N``).

* **the job lock** is an exclusive ``flock`` on ``<data_dir>/jobs.lock``, held on a file
  descriptor kept open; the kernel releases it when the process dies;
* **published builds** are seen when the index directory's ``current`` pointer moves (a
  build published by the writer process, or by ``citerag ingest``);
* **wake-ups**: none between processes (:attr:`DirectoryCoordination.listens` is false): an
  upload or delete wakes the process that accepted it at once; the writer sees one accepted
  by another process at its next cycle, within the watch interval (a cycle costs a few
  ``stat`` calls).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Callable
from pathlib import Path

from citerag.stores.faiss.builds import published_build_id

#: The job lock's file in the server's data directory.
LOCK_FILE = "jobs.lock"


class DirectoryCoordination:
    """:class:`~citerag.stores.backend.Coordination` on an index directory and a data directory
    on one machine."""

    listens = False
    #: A file lock stays held after a failed worker cycle, until released.
    lock_survives_errors = True

    def __init__(self, index_dir: Path, data_dir: Path) -> None:
        """Describe it (nothing is opened until :meth:`try_lock`).

        Args:
            index_dir: The index directory (whose ``current`` build is followed).
            data_dir: The shared data directory (holds the lock file).
        """
        self.index_dir = Path(index_dir)
        self.lock_path = Path(data_dir) / LOCK_FILE
        self._fd: int | None = None
        self._held = False

    def try_lock(self) -> bool:
        """Try the ``flock`` once, without waiting."""
        if self._fd is None:
            self._fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        self._held = True
        return True

    def holds_lock(self) -> bool:
        """Whether the lock is held (it stays held until :meth:`release`)."""
        return self._held and self._fd is not None

    def release(self) -> None:
        """Close the descriptor (which releases the lock)."""
        fd, self._fd, self._held = self._fd, None, False
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def published_build(self) -> str | None:
        """The id of the build ``current`` points to (:func:`published_build_id`)."""
        return published_build_id(self.index_dir)

    def listen(self, wake: Callable[[], None], stopping: threading.Event, interval: float) -> None:
        """Nothing to listen to on a directory: returns at once."""
