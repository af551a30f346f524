"""The name check with the real embedding model: a neighbouring name is never a paraphrase.

MiniLM puts "kenya" close to "africa" (above the paraphrase threshold), so before names were
kept out of the embedding rule a South African supplier's sentence answered a question about
Kenya. The same answerer, with the same real vectors, still answers a derived form
("Chinese" / "China")."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document

from chains.answerers import FOCUS_SIMILARITY, ExtractiveAnswerer
from chains.assemble import Passage
from chains.candidates import Candidate
from chains.citations import parse_output, says_insufficient

pytestmark = pytest.mark.integration


def _passage(content: str) -> Passage:
    doc = Document(page_content=content, metadata={"content": content, "doc_name": "suppliers.md"})
    return Passage(1, Candidate("k1", doc))


def test_a_neighbouring_name_is_no_paraphrase_with_real_vectors(embedding_model):
    emb = embedding_model.embeddings
    kenya, africa = (np.asarray(v) for v in emb.embed_documents(["kenya", "africa"]))
    # the premise: the real model calls them paraphrases, so only the name rule refuses
    assert float(kenya @ africa) >= FOCUS_SIMILARITY
    answerer = ExtractiveAnswerer(emb)
    south_africa = [_passage("Our tea supplier in South Africa is Cape Rooibos Growers.")]
    parsed = parse_output(answerer.generate("Who is our tea supplier in Kenya?", south_africa, []))
    assert says_insufficient(parsed) and "'kenya'" in parsed.block["reason"]
    china = [_passage("Our tea supplier in China is Fujian Cloud Tea.")]
    parsed = parse_output(answerer.generate("Who is our Chinese tea supplier?", china, []))
    assert not says_insufficient(parsed)
