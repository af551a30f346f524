"""The PostgreSQL keyword leg: Okapi BM25 over PostgreSQL full-text search.

PostgreSQL's own ranking (``ts_rank``) has no inverse document frequency: an OR query for
"LOG-0042 site log" ranks a chunk that says "log" twice above the one chunk that has the code.
``PGVectorStore``'s hybrid search sidesteps that by AND-ing the words (``plainto_tsquery``),
which then misses most questions (a question rarely has all its words in one chunk). This
module keeps BM25 (k1 = 1.2, b = 0.75, as the in-process index) on PostgreSQL's lexemes:

* the ``<ns>_terms`` table holds, per lexeme, how many chunks contain it, plus two reserved
  rows, ``#chunks`` (N) and ``#length`` (the sum of chunk lengths, in distinct lexemes); the
  writer updates them in its own transaction as it adds and deletes rows
  (:func:`~citerag.stores.postgres.db.add_stats`,
  :func:`~citerag.stores.postgres.db.remove_stats`), so the statistics always match the
  published rows;
* a question becomes lexemes with ``to_tsvector`` (the same Snowball English stemming and stop
  words as the chunks); the GIN index finds the chunks holding any of its lexemes, taken
  rarest first within :data:`CANDIDATE_BUDGET` rows (5,000: at 100,000 chunks the same top 20
  as 20,000 on 300 questions, at a quarter of the time), and each candidate is scored with
  BM25 over all the question's lexemes.

Differences from the in-process BM25 (:mod:`citerag.stores.faiss.bm25`): stemming ("filings" matches
"filing"); a compound like ``LOG-0042`` is one lexeme besides its parts; term frequency counts
positions (at most 256 per lexeme) and length is counted in distinct lexemes; a chunk that
holds only very common words of the question is not a candidate once the rarer ones fill the
budget (in a large index only). docs/benchmarks/stores.md has the
measured difference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql

from citerag.stores.postgres.db import LENGTH_ROW, N_ROW, TS_CONFIG, StoreURL

K1 = 1.2
B = 0.75
#: Candidate rows the selecting lexemes may hold between them: lexemes are taken rarest
#: first until the next would push their summed document frequency past this (the rarest
#: is always taken); the rest still score. Bounds the work on very common words.
CANDIDATE_BUDGET = 5_000
#: Most question lexemes used.
MAX_LEXEMES = 32
SCORE_TYPE = (
    f"Okapi BM25 (k1={K1}, b={B}) over PostgreSQL '{TS_CONFIG}' lexemes, unbounded, higher=better"
)


def question_weights(
    conn: psycopg.Connection[Any], url: StoreURL, question: str
) -> tuple[list[str], list[float], list[str], float]:
    """The question's lexemes with their idf, the selective ones, and the mean chunk length.

    Returns:
        ``(lexemes, idf, selective, avg_length)``; empty lists when no lexeme is indexed.
    """
    rows = conn.execute(
        sql.SQL(
            "SELECT q.lexeme, t.df FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector({}, %s)))"
            " AS q JOIN {} AS t USING (lexeme) WHERE t.df > 0 UNION ALL"
            " SELECT lexeme, df FROM {} WHERE lexeme IN (%s, %s)"
        ).format(sql.Literal(TS_CONFIG), url.table("terms"), url.table("terms")),
        [question, N_ROW, LENGTH_ROW],
    ).fetchall()
    stats = {r[0]: int(r[1]) for r in rows}
    n = max(stats.pop(N_ROW, 0), 0)
    total = max(stats.pop(LENGTH_ROW, 0), 0)
    if not n or not stats:
        return [], [], [], 1.0
    ranked = sorted(stats.items(), key=lambda kv: kv[1])[:MAX_LEXEMES]  # rarest first
    lexemes = [lex for lex, _ in ranked]
    idf = [math.log(1.0 + (n - df + 0.5) / (df + 0.5)) for _, df in ranked]
    selective: list[str] = []
    budget = 0
    for lex, df in ranked:
        if selective and budget + df > CANDIDATE_BUDGET:
            break
        selective.append(lex)
        budget += df
    return lexemes, idf, selective, max(total / n, 1.0)


def term_idf(
    conn: psycopg.Connection[Any], url: StoreURL, terms: Sequence[str]
) -> dict[str, float]:
    """BM25 idf of citerag tokens, read from the ``<ns>_terms`` statistics in one query.

    Each token (unstemmed, from :func:`citerag.core.text.tokenize`) is mapped to its lexeme
    with ``to_tsvector`` (the chunks' Snowball stemming), then weighed as the keyword leg
    weighs that lexeme: ``ln(1 + (N - df + 0.5) / (df + 0.5))``, ``N`` from the ``#chunks``
    row. A token PostgreSQL drops (a stop word) or whose lexeme no chunk holds gets no entry;
    a token split into several lexemes (``foo_bar``) takes the rarest one's weight.

    Args:
        conn: A connection to the store's database.
        url: The store URL (its namespace names the tables).
        terms: Tokens.

    Returns:
        ``{token: idf}`` for the tokens the index holds.
    """
    tokens = sorted({t for t in terms if t and not t.startswith("#")})
    if not tokens:
        return {}
    terms_table = url.table("terms")
    rows = conn.execute(
        sql.SQL(
            "SELECT q.token, min(t.df) FROM unnest(%s::text[]) AS q(token)"
            " CROSS JOIN LATERAL unnest(to_tsvector({}, q.token)) AS l"
            " JOIN {} AS t ON t.lexeme = l.lexeme WHERE t.df > 0 GROUP BY q.token"
            " UNION ALL SELECT NULL, df FROM {} WHERE lexeme = %s"
        ).format(sql.Literal(TS_CONFIG), terms_table, terms_table),
        [tokens, N_ROW],
    ).fetchall()
    n = 0
    dfs: dict[str, int] = {}
    for token, df in rows:
        if token is None:
            n = max(int(df), 0)
        else:
            dfs[str(token)] = int(df)
    if not n:
        return {}
    return {t: math.log(1.0 + (n - df + 0.5) / (df + 0.5)) for t, df in dfs.items()}


def search_sql(url: StoreURL, where: sql.Composable) -> sql.Composed:
    """The BM25 query: candidates from the GIN index, scored over the question's lexemes.

    Each candidate's ``tsvector`` is first cut to the question's lexemes (``setweight`` marks
    them, ``ts_filter`` keeps them; both C), so scoring unnests a handful of entries per row
    instead of all of them (~15 µs per candidate otherwise, EXPLAIN ANALYZE at 100,000 chunks).

    Parameters, in order: lexemes (text[]), idf (float8[]), avg length, the selective
    lexemes' tsquery text, the filter's parameters, ``k``.
    """
    return sql.SQL(
        "WITH w AS (SELECT * FROM unnest(%s::text[], %s::float8[]) AS w(lexeme, idf)),"
        " avg AS (SELECT %s::float8 AS len)"
        " SELECT c.langchain_id, c.content, c.langchain_metadata,"
        " (SELECT sum(w.idf * (cardinality(u.positions) * {k1p})"
        "   / (cardinality(u.positions)"
        "      + {k1} * (1 - {b} + {b} * length(c.content_tsv) / avg.len)))"
        "  FROM unnest(ts_filter(setweight(c.content_tsv, 'A',"
        "   (SELECT array_agg(lexeme) FROM w)), '{{a}}')) AS u JOIN w USING (lexeme)) AS score"
        " FROM {chunks} AS c, avg"
        " WHERE c.content_tsv @@ %s::tsquery AND {where}"
        " ORDER BY score DESC, c.langchain_id LIMIT %s"
    ).format(
        chunks=url.table("chunks"),
        where=where,
        k1=sql.Literal(K1),
        k1p=sql.Literal(K1 + 1),
        b=sql.Literal(B),
    )


def tsquery_text(lexemes: Sequence[str]) -> str:
    """An OR ``tsquery`` of lexemes taken as they are (quoted, no further stemming)."""
    return " | ".join("'" + lex.replace("\\", "\\\\").replace("'", "''") + "'" for lex in lexemes)
