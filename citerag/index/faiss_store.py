"""The one module that imports ``langchain_community``'s FAISS vector store.

``langchain-community`` is being wound down upstream; keeping its imports here means a
replacement (a standalone FAISS integration, or a server store such as PGVector) touches one
file. Vectors are L2-normalised on write and on query and searched with inner product, so a
score is exactly the cosine similarity.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

#: Written to the manifest.
FAISS_INDEX_TYPE = "IndexFlatIP (exact search)"
DISTANCE = "cosine similarity = inner product of L2-normalised vectors (higher is closer)"


def _faiss_cls() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_community.vectorstores import FAISS
        from langchain_community.vectorstores.utils import DistanceStrategy
    return FAISS, DistanceStrategy


def new_faiss(embeddings: Embeddings, dimension: int) -> Any:
    """Create an empty LangChain FAISS store with an exact inner-product index."""
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
            docstore=InMemoryDocstore(),
            index_to_docstore_id={},
            normalize_L2=True,
            distance_strategy=strategy.MAX_INNER_PRODUCT,
        )


def load_faiss(folder: Path, embeddings: Embeddings, name: str = "dense") -> Any:
    """Load a store written by ``save_local`` (our own files, so unpickling is trusted)."""
    faiss_cls, strategy = _faiss_cls()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return faiss_cls.load_local(
            str(folder),
            embeddings,
            index_name=name,
            allow_dangerous_deserialization=True,
            normalize_L2=True,
            distance_strategy=strategy.MAX_INNER_PRODUCT,
        )
