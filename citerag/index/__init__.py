"""Index building and loading: FAISS + BM25 + sentence vectors, manifests, atomic builds."""
