"""A real ingest in a child process, stopped at a known point and killed with SIGKILL.

The child patches its store's ``add_documents`` so that, after the first batch is written
(the new build half written: a FAISS temporary folder, a PostgreSQL transaction open), it
prints a marker and blocks on stdin; the parent waits for the marker line (no sleeping, no
race), may look at the index while the writer is stuck, then kills it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MARKER = "FIRST-BATCH-WRITTEN"

CHILD = """
import sys
from pathlib import Path

from citerag.embeddings import load_embedding_model
from citerag.index.ingest import ingest
from {module} import {cls} as Store

model = load_embedding_model()
original = Store.add_documents


def add_documents(self, documents, **kwargs):
    ids = original(self, documents, **kwargs)
    print("{marker}", len(ids), flush=True)
    sys.stdin.read()  # wait here until killed
    return ids


Store.add_documents = add_documents
location, *paths = sys.argv[1:]
ingest([Path(p) for p in paths], location, model, progress=False, workers=0, batch_size=16)
print("FINISHED", flush=True)
"""


@contextmanager
def writer_stuck_mid_ingest(
    store: str, location: Path | str, paths: list[Path], log: Path
) -> Iterator[subprocess.Popen[str]]:
    """Run ``ingest(paths, location)`` in a child until its first batch is written.

    Args:
        store: ``module:Class`` of the store whose ``add_documents`` is patched.
        location: The index directory or store URL.
        paths: What the child ingests.
        log: Where the child's stderr goes (shown if it never reaches the marker).

    Yields:
        The child, blocked mid-ingest; on exit it is killed with SIGKILL and reaped (the
        caller asserts ``returncode == -signal.SIGKILL``).
    """
    module, cls = store.split(":")
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    script = CHILD.format(module=module, cls=cls, marker=MARKER)
    with log.open("w") as err:
        child = subprocess.Popen(
            [sys.executable, "-c", script, str(location), *map(str, paths)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
        )
        try:
            assert child.stdout is not None
            line = child.stdout.readline()  # blocks until the child has written a batch
            assert line.startswith(MARKER), (
                f"child did not reach the first batch: {line!r}\n" + log.read_text()[-3000:]
            )
            yield child
            child.send_signal(signal.SIGKILL)
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
            for stream in (child.stdin, child.stdout):
                if stream is not None:
                    stream.close()
