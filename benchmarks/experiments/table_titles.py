"""PDF table titles without the paragraph above them: two code versions on the filings, paired.

Usage (from the repository root)::

    git worktree add --detach /tmp/titles-base <commit before the change>
    .venv/bin/python -m benchmarks.experiments.table_titles --base /tmp/titles-base
        [--sets financebench,financebench-dev] [--max-company-pages 450] [--reuse] [--work DIR]
        [--result table_titles]

The layout table reader (:mod:`loaders.pdf_tables`) names a statement by the lines above its
column headers. It used to take up to four such lines whatever they were, so a table under a
paragraph was titled by the paragraph's last lines ("made following the signing of tax
reform. On a combined basis, these items benefited free cash flow conversion …"), and every
row of it was scored by that prose (:mod:`loaders.row_text`). Now a line of more than
:data:`loaders.pdf_tables.MAX_TITLE_WORDS` words ends the title, and a paragraph's last lines
(their first word in lower case) are dropped up to the end of their sentence
(:func:`loaders.pdf_tables.without_paragraph_tail`).

The 4 shared filings (``financebench``) and ``financebench-dev`` cut by
``--max-company-pages`` (40 filings at 450) are indexed with the default chunking
(``ChunkSettings()``, sentence vectors off, as in ``structure_eval.py``) twice: by the
checkout at ``--base`` (a subprocess importing only that tree's code) and by this one, each
into a folder named by the commit of the library code that built it
(``index-titles-<commit>``; ingest skips unchanged files whatever the code, so a folder is
never reused for other code). Both
indexes are then queried by this checkout's code: the evaluation runner (retrieval, page
hit@1/4/8) and the whole graph with the default extractive answerer (answered citing an
evidence page; and, for questions whose gold answer is a whole amount such as ``$1577.00``,
answered stating it). Per half of ``financebench-dev`` (``constraints_eval.half``, fixed
before any result) and for the 4 filings: Wilson 95 % intervals, paired exact sign tests.
The titles themselves are counted from each index's chunk metadata (the rows' scored text).
The table rows are compared too: how many are described otherwise (title, group label,
label or cells) at the same place of the same document.
Writes ``benchmarks/results/table_titles.json`` (``--result NAME``: ``NAME.json``, one file
per change measured; ``table_groups`` measured group labels that end where their indented
rows do, :class:`loaders.pdf_tables.GroupScope`; ``table_qualifiers`` titles read past the
scale, unit and period lines above a table, :func:`loaders.pdf_tables.qualifies_table`).
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import (
    LIBRARY,
    REPO,
    cached_embeddings,
    library_env,
    log,
    model,
    parser,
    save_embeddings,
)
from benchmarks.results import rate_cell, table, write_result

#: Page hit cut-offs reported.
KS = (1, 4, 8)
#: The result files this study writes, one per loader change measured (``--result``).
RESULT_NAMES = ("table_titles", "table_groups", "table_qualifiers")

#: Builds an index with the library of the tree on ``PYTHONPATH`` (``library_env``).
_BUILD = """
import sys
from pathlib import Path
from benchmarks.common import model
from citerag.eval.adapters import ensure_index, prepare
from loaders.chunking import ChunkSettings
name, data, work, pages, folder = sys.argv[1:6]
extra = {"max_company_pages": int(pages)} if name == "financebench-dev" else {}
prep = prepare(name, Path(data), Path(work), **extra)
report = ensure_index(
    prep, Path(folder), model(), chunking=ChunkSettings(), sentence_vectors=False, progress=False
)
print(report.summary())
"""

_AMOUNT = re.compile(r"\$?\s*(\d[\d,]*)(?:\.0+)?")


def gold_amount(answer: str) -> str | None:
    """The digits of a gold answer that is a whole amount (``$1577.00`` -> ``1577``).

    Args:
        answer: The gold answer as FinanceBench writes it.

    Returns:
        The digits of an amount of three or more digits, else ``None`` (a ratio, a
        percentage, a sentence). Whether the filing prints it is not checked.
    """
    m = _AMOUNT.fullmatch(answer.strip())
    if not m:
        return None
    digits = m.group(1).replace(",", "")
    return digits if len(digits) >= 3 else None


def states_amount(text: str, digits: str) -> bool:
    """Whether ``text`` prints the amount ``digits`` (with or without thousands commas), not
    as a part of a longer number (``1,577.5`` does not print ``1577``)."""
    grouped = f"{int(digits):,}"
    pattern = rf"(?<![\d.,])(?:{re.escape(grouped)}|{re.escape(digits)})(?![\d,]*\d|\.\d)"
    return re.search(pattern, text) is not None


def title_stats(store: Any) -> dict[str, Any]:
    """The distinct table titles of each page (document, page, title) and their lengths.

    Two tables of one page with the same title count once; a table without a title not at
    all. Read from the rows' scored text (``title — row``, :mod:`loaders.row_text`).
    """
    from loaders.base import ROW_SEP
    from loaders.pdf_tables import MAX_TITLE_WORDS
    from loaders.row_text import ROW_TEXT_KEY

    titles: set[tuple[str, Any, str]] = set()
    for _key, meta in store.iter_metadata():
        for row in meta.get(ROW_TEXT_KEY) or []:
            scored, described = str(row[2]), str(row[3]) if len(row) > 3 else ""
            if described and scored.endswith(ROW_SEP + described):
                title = scored[: -len(ROW_SEP + described)]
                titles.add((str(meta.get("doc_id")), meta.get("page"), title))
    words = [len(t.split()) for *_x, t in titles]
    return {
        "tables": len(titles),
        "median_words": statistics.median(words) if words else 0,
        "over_limit": sum(1 for w in words if w > MAX_TITLE_WORDS),
    }


def described_rows(store: Any) -> dict[tuple[str, int], str]:
    """Each table row's scored text (its table's title, then its group, label and cells with
    their column names: :mod:`loaders.row_text`), by (document, first character of the row).
    """
    from loaders.row_text import ROW_TEXT_KEY

    out: dict[tuple[str, int], str] = {}
    for _key, meta in store.iter_metadata():
        for row in meta.get(ROW_TEXT_KEY) or []:
            out[(str(meta["doc_id"]), int(meta["start"]) + int(row[0]))] = str(row[2])
    return out


def _index(name: str, prep: Any, folder: Path, base: Path | None, args: Any) -> Any:
    """Build ``folder`` with this checkout (``base`` None) or the tree at ``base``; load it."""
    from citerag.eval.adapters import ensure_index
    from citerag.stores.loaded import load_index
    from loaders.chunking import ChunkSettings

    if not (args.reuse and (folder / "current").exists()):
        t0 = time.perf_counter()
        if base is None:
            report = ensure_index(
                prep,
                folder,
                model(),
                chunking=ChunkSettings(),
                sentence_vectors=False,
                progress=not args.no_progress,
            )
            summary = report.summary()
        else:
            # the base tree prepares the data in a folder of its own: its preparation may differ
            work = args.work / f"prepared-{folder.name}"
            argv = [name, str(args.data), str(work), str(args.max_company_pages), str(folder)]
            done = subprocess.run(
                [sys.executable, "-c", _BUILD, *argv],
                env=library_env(base),
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode:
                log(done.stderr)
                raise RuntimeError(f"building {folder} with {base} failed ({done.returncode})")
            summary = (done.stdout.strip().splitlines() or ["(no summary)"])[-1]
        log(f"{folder.name}: {summary} ({time.perf_counter() - t0:.0f} s)")
    return load_index(folder, model())


def _measures(idx: Any, emb: Any, qs: list[Any], raw: dict[str, Any], args: Any) -> Any:
    """Per question: page hits, answered citing an evidence page, answered stating the gold
    amount (``None`` where the gold answer is no amount)."""
    from benchmarks.structure_eval import cites_evidence, graph_answers
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.runner import Evaluator, parse_config

    corpus = IndexedCorpus.from_store(idx.store, idx.manifest.documents)
    ev = Evaluator(idx.store, emb, corpus, calibration={}, manifest_id=idx.manifest_id)
    res = ev.run(qs, parse_config("default"), progress=not args.no_progress).answerable
    if len(res) != len(qs):
        raise RuntimeError(f"{len(res)} retrieval results for {len(qs)} questions")
    got: dict[str, list[bool | None]] = {f"page hit@{k}": [r.hit_at(k) for r in res] for k in KS}
    answers = graph_answers(idx, emb, qs, not args.no_progress)
    got["answered citing an evidence page"] = [
        cites_evidence(q, out) for q, out in zip(qs, answers, strict=True)
    ]
    stated: list[bool | None] = []
    for q, out in zip(qs, answers, strict=True):
        digits = gold_amount(str(raw[q.id].get("answer") or ""))
        said = out.get("status") == "answered" and digits is not None
        stated.append(None if digits is None else said and states_amount(out["answer"], digits))
    got["answered stating the gold amount"] = stated
    return got


def main() -> int:
    """Run the study."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--base", type=Path, required=True, help="worktree of the code before")
    p.add_argument("--sets", default="financebench,financebench-dev", help="data sets to run")
    p.add_argument("--max-company-pages", type=int, default=450)
    p.add_argument("--reuse", action="store_true", help="query existing indexes as they are")
    p.add_argument(
        "--result",
        default=RESULT_NAMES[0],
        choices=RESULT_NAMES,
        help="the result file written (benchmarks/results/<name>.json): one per change measured",
    )
    args = p.parse_args()

    from benchmarks.constraints_eval import half
    from citerag.eval import metrics as stats
    from citerag.eval.adapters import prepare
    from citerag.eval.questions import load_questions
    from loaders.pdf_tables import MAX_TITLE_WORDS

    base_commit, now_commit = _commit(args.base), _commit(REPO)
    emb = cached_embeddings(args)
    rows: list[list[str]] = []
    title_rows: list[list[str]] = []
    row_rows: list[list[str]] = []
    moved: dict[str, dict[str, list[str]]] = {}  # the questions each line's +/− counts
    data: dict[str, Any] = {"base": base_commit, "now": now_commit, "sets": {}, "moved": moved}
    for name in [x.strip() for x in args.sets.split(",") if x.strip()]:
        extra = {"max_company_pages": args.max_company_pages} if name == "financebench-dev" else {}
        prep = prepare(name, args.data, args.work, **extra)
        qs = [q for q in load_questions(prep.questions) if not q.unanswerable]
        lines = Path(prep.questions).read_text(encoding="utf-8").splitlines()
        raw = {o["id"]: o for o in map(json.loads, filter(str.strip, lines))}
        root = Path(prep.root)
        got: dict[str, Any] = {}
        described: dict[str, dict[tuple[str, int], str]] = {}
        for version, tree in (("before", args.base), ("now", None)):
            # named by the commit that built it: ingest skips unchanged files whatever the
            # loaders, so a folder built by other code must never be reused as this one's
            folder = root / f"index-titles-{base_commit if tree else now_commit}"
            idx = _index(name, prep, folder, tree, args)
            got[version] = _measures(idx, emb, qs, raw, args)
            got[f"{version} titles"] = title_stats(idx.store)
            docs = idx.manifest.documents.values()
            got[f"{version} titles"]["over_window"] = sum(
                int(d.get("over_window_chunks") or 0) for d in docs
            )
            described[version] = described_rows(idx.store)
        save_embeddings(emb, args)
        halves = [half(q.id) for q in qs] if name == "financebench-dev" else ["all"] * len(qs)
        parts = ("calibration", "test", "all") if name == "financebench-dev" else ("all",)
        label_set = "4 shared filings" if name == "financebench" else "financebench-dev"
        for part in parts:
            label = f"{label_set}, {part}"
            for measure in got["before"]:
                sel = [
                    i
                    for i, h in enumerate(halves)
                    if (part == "all" or h == part) and got["before"][measure][i] is not None
                ]
                before = [bool(got["before"][measure][i]) for i in sel]
                now = [bool(got["now"][measure][i]) for i in sel]
                if not sel:
                    continue  # no question of this set has such a gold answer
                ids = [qs[i].id for i in sel]
                pr = stats.paired(now, before, ids)  # wins: hits now that were misses before
                moved[f"{name}, {part}, {measure}"] = {
                    "wins": list(pr.win_ids),
                    "losses": list(pr.loss_ids),
                }
                rows.append(
                    [
                        label,
                        measure,
                        str(len(sel)),
                        rate_cell(before),
                        rate_cell(now),
                        f"+{pr.wins}/−{pr.losses} (p = {pr.p_value:.2f})",
                    ]
                )
                label = ""
        for version in ("before", "now"):
            t = got[f"{version} titles"]
            title_rows.append(
                [
                    label_set,
                    version,
                    f"{t['tables']:,}",
                    f"{t['median_words']:g}",
                    f"{t['over_limit']:,} ({t['over_limit'] / max(t['tables'], 1):.0%})",
                    f"{t['over_window']:,}",
                ]
            )
        same_place = described["before"].keys() & described["now"].keys()
        changed = sum(1 for k in same_place if described["before"][k] != described["now"][k])
        got["rows"] = {
            "before": len(described["before"]),
            "now": len(described["now"]),
            "same place": len(same_place),
            "described otherwise": changed,
        }
        row_rows.append(
            [
                label_set,
                f"{len(described['before']):,}",
                f"{len(described['now']):,}",
                f"{len(same_place):,}",
                f"{changed:,} ({changed / max(len(same_place), 1):.0%})",
            ]
        )
        data["sets"][name] = {"questions": [q.id for q in qs], "halves": halves, **got}
    paired = table(
        ["questions", "measure", "n", f"before ({base_commit})", "now", "paired +/− (p)"],
        rows,
        ["left", "left", "right", "right", "right", "right"],
    )
    titles = table(
        [
            "filings",
            "code",
            "distinct titles (per page)",
            "median words per title",
            f"titles over {MAX_TITLE_WORDS} words",
            "chunks over the model's window",
        ],
        title_rows,
        ["left", "left", "right", "right", "right", "right"],
    )
    row_table = table(
        [
            "filings",
            "table rows before",
            "now",
            "at the same place",
            "described otherwise now (title, group, label or cells)",
        ],
        row_rows,
        ["left", "right", "right", "right", "right"],
    )
    tables = {"paired": paired, "titles": titles, "rows": row_table}
    result_name = RESULT_NAMES[RESULT_NAMES.index(args.result)]  # one of the declared names
    path = write_result(result_name, tables, data)
    log(f"wrote {path}")
    return 0


def _commit(tree: Path) -> str:
    """The short commit that last changed the library code (:data:`LIBRARY`) at ``tree``:
    what an index built there depends on (a commit of benchmarks or docs builds the same
    index). Uncommitted library changes add ``-dirty-`` and a hash of their diff."""

    def git(*cmd: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(tree), *cmd], capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    last = git("log", "-1", "--format=%h", "--", *LIBRARY)
    changes = git("diff", "HEAD", "--", *LIBRARY)
    if not changes:
        return last
    # uncommitted code: named by what it changes, so other uncommitted code gets its own
    return f"{last}-dirty-{hashlib.sha256(changes.encode()).hexdigest()[:8]}"


if __name__ == "__main__":
    raise SystemExit(main())
