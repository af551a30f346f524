"""The one module that imports ``langchain_community``'s FAISS vector store.

``langchain-community`` is being wound down upstream; keeping its imports here means a
replacement (a standalone FAISS integration, or a server store such as PGVector) touches one
file. Vectors are L2-normalised on write and on query and searched with inner product, so a
score is exactly the cosine similarity.
"""

from __future__ import annotations

import pickle
import sys
import warnings
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.stores.faiss.row_file import RowFile

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from langchain_community.docstore.base import AddableMixin, Docstore

#: Written to the manifest.
FAISS_INDEX_TYPE = "IndexFlatIP (exact search)"
#: Metadata strings shorter than this are interned when a compact record is read.
_INTERN_MAX = 256
DISTANCE = "cosine similarity = inner product of L2-normalised vectors (higher is closer)"


def _faiss_cls() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_community.vectorstores import FAISS
        from langchain_community.vectorstores.utils import DistanceStrategy
    return FAISS, DistanceStrategy


#: Module paths under which earlier versions pickled this module's classes: the FAISS store
#: lived in ``citerag.index.faiss_store`` before the ``citerag.stores`` package. An index
#: written then names its :class:`CompactDocstore` there, and still loads.
FORMER_MODULE_NAMES = ("citerag.index.faiss_store",)


def alias_former_module_names() -> None:
    """Let unpickling find this module's classes under their former module paths."""
    for name in FORMER_MODULE_NAMES:
        sys.modules.setdefault(name, sys.modules[__name__])


def _interned(value: Any) -> Any:
    """``value`` interned when it is a string."""
    return sys.intern(value) if type(value) is str else value


class CompactDocstore(Docstore, AddableMixin):
    """A LangChain docstore (``add`` / ``search`` / ``delete``) holding each document as a
    zlib-compressed pickle of its text and metadata: a writer's docstore.

    A chunk's ``Document`` object, its metadata dict and strings take about 2.4 KB; the
    compressed record about a third of that (a 60 MiB text: ~0.25 GB less while it is
    indexed). ``search`` rebuilds a new ``Document`` each time (tens of microseconds), so
    readers expand it into an ordinary ``InMemoryDocstore`` on load (:func:`load_faiss`).
    """

    def __init__(self, blobs: dict[str, bytes] | None = None) -> None:
        """Create a docstore (empty unless ``blobs`` from :meth:`of` are given)."""
        self._blobs: dict[str, bytes] = blobs if blobs is not None else {}

    @staticmethod
    def pack(doc: Document) -> bytes:
        """One document's record."""
        raw = pickle.dumps((doc.page_content, doc.metadata), protocol=pickle.HIGHEST_PROTOCOL)
        return zlib.compress(raw, 1)

    def add(self, texts: dict[str, Document]) -> None:
        """Add documents by id (an id already held raises, as ``InMemoryDocstore`` does)."""
        overlapping = [key for key in texts if key in self._blobs]  # not O(held) per call
        if overlapping:
            raise ValueError(f"Tried to add ids that already exist: {overlapping}")
        for key, doc in texts.items():
            self._blobs[key] = self.pack(doc)

    def delete(self, ids: list[str]) -> None:
        """Delete ids (none of them held raises, as ``InMemoryDocstore`` does)."""
        if not any(key in self._blobs for key in ids):
            raise ValueError(f"Tried to delete ids that does not  exist: {ids}")
        for key in ids:
            self._blobs.pop(key, None)

    def search(self, search: str) -> str | Document:
        """The document with id ``search`` (a new object), or a not-found message."""
        blob = self._blobs.get(search)
        if blob is None:
            return f"ID {search} not found."
        return self._unpack(search, blob)

    @staticmethod
    def _unpack(key: str, blob: bytes) -> Document:
        text, metadata = pickle.loads(zlib.decompress(blob))
        # One shared object per repeated key and short value (a document's source, title,
        # access label ... are the same in all its chunks), as unpickling one docstore gives.
        metadata = {
            _interned(k): _interned(v) if isinstance(v, str) and len(v) < _INTERN_MAX else v
            for k, v in metadata.items()
        }
        return Document(id=key, page_content=text, metadata=metadata)

    def __contains__(self, key: object) -> bool:
        return key in self._blobs

    def __len__(self) -> int:
        return len(self._blobs)

    @classmethod
    def of(cls, docs: Iterable[tuple[str, Document]]) -> CompactDocstore:
        """A compact copy of ``(id, document)`` pairs."""
        return cls({key: cls.pack(doc) for key, doc in docs})

    def expanded(self) -> Any:
        """An ``InMemoryDocstore`` holding the same documents as objects."""
        from langchain_community.docstore.in_memory import InMemoryDocstore

        return InMemoryDocstore({key: self._unpack(key, blob) for key, blob in self._blobs.items()})


class PendingVectors:
    """Normalised vectors waiting to enter a FAISS flat index, in an anonymous file.

    A flat index keeps its vectors in one growing buffer, which doubles (a copy of every
    vector held, for a moment) each time it fills up; and a writer never searches. So a
    writer appends its chunk vectors here (page cache, not its memory) and they enter the
    index in one resize when something needs it (:meth:`flush_into`): the buffer is filled
    from the file block by block, with no second copy anywhere.
    """

    def __init__(self, folder: Path | None, dimension: int) -> None:
        """Create an empty queue whose file is made on the first append, in ``folder``."""
        self._rows = RowFile(folder, np.dtype(np.float32), dimension)

    @property
    def rows(self) -> int:
        """Vectors queued."""
        return self._rows.rows

    def append(self, vectors: np.ndarray) -> None:
        """Queue ``(n, dimension)`` float32 vectors (already normalised)."""
        self._rows.append(vectors)

    def flush_into(self, index: Any) -> None:
        """Append the queued vectors to a flat ``index`` (``IndexFlatIP``) and empty the queue."""
        if not self.rows:
            return
        import faiss

        width = self._rows.row_bytes
        start, total = int(index.ntotal), int(index.ntotal) + self.rows
        index.codes.resize(total * width)
        buffer = faiss.rev_swig_ptr(index.codes.data(), total * width).data
        self._rows.read_all_into(buffer[start * width :])
        index.ntotal = total
        self._rows.clear()


def new_faiss(embeddings: Embeddings, dimension: int, compact: bool = False) -> Any:
    """Create an empty LangChain FAISS store with an exact inner-product index.

    Args:
        embeddings: The embedding model.
        dimension: Vector dimension.
        compact: Keep documents compressed (:class:`CompactDocstore`: for a writer).
    """
    import faiss
    from langchain_community.docstore.in_memory import InMemoryDocstore

    faiss_cls, strategy = _faiss_cls()
    with warnings.catch_warnings():
        # LangChain warns that normalize_L2 is "not applicable" to inner product; it still
        # normalises on write, which is exactly what makes inner product a cosine.
        warnings.simplefilter("ignore", UserWarning)
        return faiss_cls(
            embedding_function=embeddings,
            index=faiss.IndexFlatIP(dimension),
            docstore=CompactDocstore() if compact else InMemoryDocstore(),
            index_to_docstore_id={},
            normalize_L2=True,
            distance_strategy=strategy.MAX_INNER_PRODUCT,
        )


def load_faiss(
    folder: Path, embeddings: Embeddings, name: str = "dense", compact: bool = False
) -> Any:
    """Load a store written by ``save_local`` (our own files, so unpickling is trusted).

    Args:
        folder: The build folder.
        embeddings: The embedding model.
        name: The index name.
        compact: Hold the documents as a :class:`CompactDocstore` (a writer); otherwise as
            an ``InMemoryDocstore`` of objects (a reader), whichever the file holds.
    """
    from langchain_community.docstore.in_memory import InMemoryDocstore

    faiss_cls, strategy = _faiss_cls()
    alias_former_module_names()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        store = faiss_cls.load_local(
            str(folder),
            embeddings,
            index_name=name,
            allow_dangerous_deserialization=True,
            normalize_L2=True,
            distance_strategy=strategy.MAX_INNER_PRODUCT,
        )
    held = store.docstore
    if compact and isinstance(held, InMemoryDocstore):
        store.docstore = CompactDocstore.of(held._dict.items())
    elif not compact and isinstance(held, CompactDocstore):
        store.docstore = held.expanded()
    return store
