#!/usr/bin/env python3
"""Regenerate examples/corpus/annual_report_2025.pdf.

The PDF is part of the bundled sample corpus. Each page carries distinct facts
(page 2: finances, page 3: operations, page 4: governance, page 5: community
benefit and outlook) so retrieval tests can check page-level citations.

reportlab is only needed to regenerate the file; it is NOT a runtime
dependency of citerag:

    .venv/bin/pip install reportlab
    .venv/bin/python examples/make_sample_pdf.py

Output is deterministic: reportlab's "invariant" mode fixes the creation date
and document ID, so re-running the script produces byte-identical output for
a given reportlab version.
"""

from __future__ import annotations

from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed timestamps / IDs -> reproducible bytes

from reportlab.lib import colors  # noqa: E402
from reportlab.lib.enums import TA_LEFT  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.platypus import (  # noqa: E402
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

OUT = Path(__file__).resolve().parent / "corpus" / "annual_report_2025.pdf"

TITLE = "Northwind Community Solar Cooperative - Annual Report 2025"

_base = getSampleStyleSheet()
H1 = ParagraphStyle("H1", parent=_base["Heading1"], fontSize=18, leading=22, spaceAfter=10)
H2 = ParagraphStyle(
    "H2", parent=_base["Heading2"], fontSize=14, leading=18, spaceBefore=8, spaceAfter=6
)
BODY = ParagraphStyle(
    "Body", parent=_base["BodyText"], fontSize=10.5, leading=14, alignment=TA_LEFT, spaceAfter=6
)
COVER = ParagraphStyle("Cover", parent=H1, fontSize=24, leading=30, spaceAfter=16)


def p(text: str) -> Paragraph:
    return Paragraph(text, BODY)


def table(rows: list[list[str]], widths: list[float]) -> Table:
    t = Table(rows, colWidths=[w * mm for w in widths], hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 9.5),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dfe9d8")),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, -1), (-1, -1), 0.8, colors.black),
                ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    return t


def page_footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.drawString(20 * mm, 12 * mm, "Northwind Annual Report 2025")
    canvas.drawRightString(190 * mm, 12 * mm, f"Page {doc.page}")
    canvas.restoreState()


def story() -> list:
    s: list = []

    # ---- Page 1: cover and chair's introduction -------------------------
    s.append(Paragraph("Northwind Community Solar Cooperative", COVER))
    s.append(Paragraph("Annual Report 2025", H1))
    s.append(
        p(
            "For the year ended 31 December 2025. Presented to members at the Annual General Meeting."
        )
    )
    s.append(Spacer(1, 8 * mm))
    s.append(Paragraph("Introduction from the Chair", H2))
    s.append(
        p(
            "2025 was the year our cooperative grew up. We switched on our fifth array, at Tanners Lane "
            "Community Hall, we welcomed more new members than in any year since our first share offer, "
            "and our arrays produced more clean electricity than ever before."
        )
    )
    s.append(
        p(
            "Membership rose from 1,032 to 1,147 members during the year, and for the first time more than "
            "a quarter of our members are under 35. I would like to thank every member, volunteer, host and "
            "member of staff who made this possible."
        )
    )
    s.append(
        p(
            "The pages that follow set out our financial results, the performance of each site, how the "
            "cooperative was governed during the year and what the Community Benefit Fund achieved. As "
            "always, we welcome questions from members before and at the AGM."
        )
    )
    s.append(p("Priya Raman, Chair of the Board"))
    s.append(PageBreak())

    # ---- Page 2: financial review ----------------------------------------
    s.append(Paragraph("Financial Review", H1))
    s.append(
        p(
            "Total revenue for 2025 was £412,860, an increase of 11% on the £371,540 reported for 2024. "
            "The increase came mainly from a full year of generation at the Harlow Valley Depot carport and "
            "a higher contract price under the Fennick Farm power purchase agreement."
        )
    )
    s.append(Paragraph("Revenue by source", H2))
    s.append(
        table(
            [
                ["Source", "2025 (GBP)", "2024 (GBP)"],
                ["Power purchase agreement (Fennick Farm)", "251,960", "236,310"],
                ["Electricity sales to site hosts", "118,420", "97,880"],
                ["Export payments (rooftop sites)", "31,780", "28,450"],
                ["Other income (tours, talks, grants)", "10,700", "8,900"],
                ["Total revenue", "412,860", "371,540"],
            ],
            [90, 35, 35],
        )
    )
    s.append(Spacer(1, 5 * mm))
    s.append(Paragraph("Costs and surplus", H2))
    s.append(
        p(
            "Operating costs were £316,550, of which staff costs were £121,900 and the maintenance "
            "contract £58,200. The operating surplus for the year was £96,310. Of this, £9,630 has been "
            "transferred to the Community Benefit Fund, equal to 10% of the operating surplus."
        )
    )
    s.append(Paragraph("Share capital and interest", H2))
    s.append(
        p(
            "Members' share capital stood at £2.46 million at 31 December 2025. The Board recommends an "
            "interest rate of 3.2% on share capital for 2025, payable in June 2026 subject to approval at "
            "the AGM. The outstanding balance of the term loan from the Co-operative Lending Trust was "
            "£1.37 million at the year end, and all repayments were made on time."
        )
    )
    s.append(PageBreak())

    # ---- Page 3: operations ---------------------------------------------
    s.append(Paragraph("Operations and Generation", H1))
    s.append(
        p(
            "Total installed capacity reached 1,936 kWp at 31 December 2025, following the commissioning "
            "of the 96 kWp Tanners Lane Community Hall array on 12 August 2025. Together our five arrays "
            "generated 1,702 MWh of electricity in 2025, enough to meet the annual needs of around 630 "
            "typical homes."
        )
    )
    s.append(Paragraph("Generation by site", H2))
    s.append(
        table(
            [
                ["Site", "Capacity (kWp)", "Generation (MWh)"],
                ["Millbrook Primary School", "48", "41"],
                ["Oakhurst Leisure Centre", "210", "186"],
                ["Fennick Farm", "1,250", "1,145"],
                ["Harlow Valley Depot", "332", "297"],
                ["Tanners Lane Community Hall", "96", "33"],
                ["Total", "1,936", "1,702"],
            ],
            [80, 35, 40],
        )
    )
    s.append(Spacer(1, 5 * mm))
    s.append(Paragraph("Availability and carbon savings", H2))
    s.append(
        p(
            "Average technical availability across all sites was 98.6%. The largest single loss of "
            "generation was a four-day outage at Oakhurst Leisure Centre in March, caused by a failed "
            "grid protection relay. Based on the national grid emissions factor, our generation avoided "
            "approximately 352 tonnes of carbon dioxide emissions in 2025."
        )
    )
    s.append(Paragraph("Safety", H2))
    s.append(
        p(
            "There were no reportable injuries at any Northwind site in 2025. Staff and volunteers "
            "reported six near misses, each of which was reviewed by the Health and Safety Lead."
        )
    )
    s.append(PageBreak())

    # ---- Page 4: governance ---------------------------------------------
    s.append(Paragraph("Governance", H1))
    s.append(
        p(
            "The Board of Directors met nine times during 2025. At 31 December 2025 the Board had seven "
            "directors, listed below with the number of meetings each attended."
        )
    )
    s.append(Paragraph("Board of Directors", H2))
    for line in [
        "Priya Raman, Chair (9 of 9 meetings)",
        "Tomasz Wieczorek, Treasurer (9 of 9 meetings)",
        "Helen Okafor, Secretary (8 of 9 meetings)",
        "Dev Chaudhry, Director (7 of 9 meetings)",
        "Ruth Ellingham, Director (9 of 9 meetings)",
        "Samir Haddad, Director (6 of 9 meetings)",
        "Morag Lindqvist, Director, elected at the 2025 AGM (5 of 6 meetings)",
    ]:
        s.append(p(line))
    s.append(Paragraph("Changes to the Board", H2))
    s.append(
        p(
            "Alan Whitcombe stood down as a director at the May 2025 AGM after nine years of service, "
            "including four years as Treasurer. Morag Lindqvist was elected in his place."
        )
    )
    s.append(Paragraph("Staff", H2))
    s.append(
        p(
            "The cooperative employed five people, equal to 3.4 full-time equivalent posts, at the end "
            "of 2025. Joanna Pryce has been General Manager since January 2021."
        )
    )
    s.append(PageBreak())

    # ---- Page 5: community benefit and outlook --------------------------
    s.append(Paragraph("Community Benefit", H1))
    s.append(
        p(
            "In 2025 the Community Benefit Fund awarded grants totalling £21,400 to 14 local groups. The "
            "largest single grant was £4,000 to the Oakhurst Food Hub for an energy-efficient walk-in cold "
            "store. Our energy champions visited 212 households and handed out 138 small measures packs."
        )
    )
    s.append(Paragraph("Looking ahead to 2026", H2))
    s.append(
        p(
            "Our priorities for 2026 are to replace the original inverters at Millbrook Primary School, "
            "to reach 1,300 members by the end of the year, and to complete a feasibility study for a "
            "battery at the Harlow Valley Depot."
        )
    )
    s.append(Paragraph("Annual General Meeting", H2))
    s.append(
        p(
            "The 2026 AGM will be held on Saturday 16 May 2026 at 14:00 in Oakhurst Village Hall, with "
            "online attendance available for members who cannot attend in person."
        )
    )
    return s


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    doc = SimpleDocTemplate(
        str(OUT),
        pagesize=A4,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=20 * mm,
        bottomMargin=20 * mm,
        title=TITLE,
        author="Northwind Community Solar Cooperative",
        subject="Annual report for the year ended 31 December 2025 (sample corpus)",
        creator="citerag examples/make_sample_pdf.py",
        invariant=1,
    )
    doc.build(story(), onFirstPage=page_footer, onLaterPages=page_footer)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
