"""Measure question-constraint parsing and document-metadata inference on FinanceBench.

Reads ``../shared/data/financebench*/`` at run time (nothing is copied into the repository):

1. **Metadata**: runs :func:`loaders.metadata.infer_metadata` on the first two pages of every
   PDF (read with pypdf), once with the real file name and once with a neutral name
   (``document.pdf``, so only the cover page / title / first page count), and compares the
   company, period and type with the labels in the FinanceBench file name
   (``COMPANY_PERIOD_TYPE``) and the questions' ``company`` field.
2. **Constraints**: builds a :class:`chains.constraints.Gazetteer` from the file names (and,
   with ``--covers``, from the cover pages too), parses every question and reports the share
   whose company is found exactly, whose period is parsed, whose gold document passes the
   derived filter, and false matches.

Usage: ``python -m benchmarks.experiments.constraint_parsing [--covers] [--verbose]``.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from benchmarks.common import REPO as ROOT
from chains.constraints import Gazetteer, filter_for, parse_constraints
from citerag.core.filters import matches
from loaders.metadata import infer_metadata, name_variants

DATA = ROOT / ".." / "shared" / "data"
SETS = ("financebench", "financebench-dev")


def first_pages(path: Path, n: int = 2) -> tuple[str | None, str]:
    """The PDF's /Title and the text of its first ``n`` pages."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    if reader.is_encrypted:
        reader.decrypt("")
    title = (reader.metadata or {}).get("/Title")
    text = "\n".join(
        (reader.pages[i].extract_text() or "") for i in range(min(n, len(reader.pages)))
    )
    return (str(title) if title else None), text


def gold_from_name(stem: str) -> dict[str, str]:
    """FinanceBench's own labels, parsed from ``COMPANY_PERIOD_TYPE[_dated-...]``."""
    m = re.match(r"^(?P<co>.+?)_(?P<per>(?:19|20)\d\d(?:Q[1-4])?)_(?P<typ>[A-Z0-9]+)", stem)
    if not m:
        return {}
    typ = {"10K": "10-K", "10Q": "10-Q", "8K": "8-K", "EARNINGS": "earnings"}.get(
        m["typ"], m["typ"]
    )
    per = m["per"]
    return {"company": m["co"], "period": per if "Q" in per else f"FY{per}", "doc_type": typ}


def same_company(found: str | None, gold: str, aliases: tuple[str, ...] = ()) -> bool:
    """Whether a found company name and a gold label share a normalised variant."""
    if not found:
        return False
    keys = set().union(*(name_variants(n) for n in (found, *aliases)))
    return bool(keys & name_variants(gold.replace("_", " ")))


def load_questions() -> list[dict[str, Any]]:
    """All questions of both sets."""
    out = []
    for name in SETS:
        path = DATA / name / "questions.jsonl"
        if path.exists():
            out.extend(json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return out


def metadata_report(verbose: bool) -> dict[str, dict[str, Any]]:
    """Part 1: metadata inference per PDF; returns doc_name -> metadata (file name + cover)."""
    q_company = {q["doc_name"]: q["company"] for q in load_questions()}
    pdfs = sorted(p for s in SETS for p in (DATA / s / "pdfs").glob("*.pdf"))
    stats = {k: [0, 0] for k in ("company", "period", "doc_type")}
    blind = {k: [0, 0] for k in ("company", "period", "doc_type")}
    titles_bad = 0
    out: dict[str, dict[str, Any]] = {}
    for path in pdfs:
        title, text = first_pages(path)
        gold = gold_from_name(path.stem)
        gold_company = q_company.get(path.stem, gold.get("company", ""))
        full = infer_metadata(path.name, title, text)
        neutral = infer_metadata("document.pdf", title, text)
        meta = full.to_metadata()
        meta["doc_name"] = path.stem
        out[path.stem] = meta
        for res, table in ((full, stats), (neutral, blind)):
            ok_c = same_company(res.company, gold_company, res.company_aliases) or same_company(
                res.company, gold.get("company", ""), res.company_aliases
            )
            checks = {
                "company": ok_c,
                "period": res.period == gold.get("period")
                or (
                    gold.get("doc_type") == "8-K"
                    and str(res.period or "")[:4] == gold["period"][2:6]
                ),
                "doc_type": res.doc_type == gold.get("doc_type"),
            }
            for k, ok in checks.items():
                table[k][0] += ok
                table[k][1] += 1
        if title and not full.title_source.endswith("title"):
            titles_bad += 1
        if verbose:
            print(
                f"{path.stem:40s} pdf title {title!r:40.40s} -> title {full.title!r:34.34s} "
                f"[{full.title_source}] | company {full.company!s:20.20s} (q: {gold_company}) "
                f"| period {full.period} | type {full.doc_type} || cover only: "
                f"{neutral.company!s:22.22s} {neutral.period!s:10s} {neutral.doc_type}"
            )
    n = len(pdfs)
    print(f"\n== document metadata: {n} PDFs ==")
    for label, table in (("file name + cover", stats), ("cover/title/first page only", blind)):
        figures = ", ".join(f"{k} {ok}/{tot} ({ok / tot:.0%})" for k, (ok, tot) in table.items())
        print(f"  {label:28s}: {figures}")
    print(
        "  PDF /Title rejected as not meaningful (accession number, 'Document', ...): "
        f"{titles_bad}/{n}"
    )
    return out


def constraint_report(covers: dict[str, dict[str, Any]] | None, verbose: bool) -> None:
    """Part 2: parse every question against a gazetteer of the indexed documents."""
    for name in SETS:
        qpath = DATA / name / "questions.jsonl"
        if not qpath.exists():
            continue
        questions = [json.loads(x) for x in qpath.read_text().splitlines() if x.strip()]
        stems = sorted(p.stem for p in (DATA / name / "pdfs").glob("*.pdf"))
        if covers is not None:
            docs = [covers[s] for s in stems]
        else:
            docs = []
            for s in stems:
                meta = infer_metadata(s + ".pdf", None, "").to_metadata()
                meta["doc_name"] = s
                docs.append(meta)
        by_name = {d["doc_name"]: d for d in docs}
        gaz = Gazetteer(docs)
        n = len(questions)
        company_exact = company_any = company_wrong = period_parsed = 0
        gold_passes = filtered = narrowed = unmatched_flags = 0
        sizes: list[int] = []
        for q in questions:
            qc = parse_constraints(q["question"], gaz)
            gold = by_name[q["doc_name"]]
            gold_co = gold["company"]
            exact = [c for c in qc.companies if c.match == "exact"]
            if any(gold_co in c.doc_values for c in exact):
                company_exact += 1
            if any(gold_co in c.doc_values for c in qc.companies):
                company_any += 1
            if any(gold_co not in c.doc_values for c in exact):
                company_wrong += 1
            if qc.periods:
                period_parsed += 1
            if qc.unmatched:
                unmatched_flags += 1
            flt = filter_for(qc)
            if flt is not None:
                filtered += 1
                passing = gaz.count(flt)
                sizes.append(passing)
                if passing < len(docs):
                    narrowed += 1
            if matches(gold, flt):
                gold_passes += 1
            elif verbose:
                print(f"  GOLD FILTERED OUT {q['doc_name']}: {q['question'][:90]!r} -> {flt}")
            if verbose:
                cs = "; ".join(f"{c.field}={'/'.join(c.values)}[{c.match}]" for c in qc.constraints)
                flag = f"UNMATCHED {[u.text for u in qc.unmatched]}" if qc.unmatched else ""
                print(f"  {q['doc_name']:38s} {cs} {flag}")
        src = "file names + cover pages" if covers is not None else "file names"
        print(
            f"\n== question constraints: {name}, {n} questions, {len(docs)} documents "
            f"(gazetteer from {src}) =="
        )
        print(
            f"  company found exactly (filter)     : {company_exact}/{n} ({company_exact / n:.0%})"
        )
        print(f"  company found at all (incl. boost) : {company_any}/{n} ({company_any / n:.0%})")
        print(f"  false company matches (exact, wrong): {company_wrong}/{n}")
        print(
            f"  period parsed                      : {period_parsed}/{n} ({period_parsed / n:.0%})"
        )
        print(f"  questions with a hard filter       : {filtered}/{n}")
        if sizes:
            mean = sum(sizes) / len(sizes)
            print(f"  documents passing the filter       : mean {mean:.1f} of {len(docs)}")
        print(f"  gold document passes the filter    : {gold_passes}/{n} ({gold_passes / n:.0%})")
        print(
            f"  questions flagged 'unmatched'      : {unmatched_flags}/{n} "
            "(every gold company is indexed: all are false)"
        )


def main() -> None:
    """Run both parts and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--covers", action="store_true", help="gazetteer from file names + cover pages"
    )
    parser.add_argument("--verbose", action="store_true", help="print every document and question")
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"shared data not found at {DATA.resolve()}")
    covers = metadata_report(args.verbose)
    constraint_report(covers if args.covers else None, args.verbose)


if __name__ == "__main__":
    main()
