"""The invented documents of the unseen-corpus benchmark (``benchmarks/unseen_corpus.py``).

A volunteer-run cycling club, Ridgeway Wheelers of Wantage: a members' handbook, the AGM's
slides, a ride calendar, a kit-order export, a booking e-mail, a maintenance page in
Markdown, a web FAQ and the treasurer's one-page report. Written on 2026-12-06, after every
answering rule of that date, in a club volunteer's style rather than a company's, and with
its questions (``questions.jsonl``) written before any of them was asked; nothing here is
drawn from another corpus. Text drawn into the PDF stays inside Latin-1.
"""

from __future__ import annotations

from typing import Any

#: Word documents: ``(kind, content)`` blocks, as :func:`benchmarks.mixed_corpus.write_docx`.
DOCX: dict[str, list[tuple[str, Any]]] = {
    "members_handbook.docx": [
        ("title", "Ridgeway Wheelers Members' Handbook"),
        ("h1", "Joining the club"),
        (
            "p",
            "Anyone aged 16 or over can join; riders aged 12 to 15 may ride with us when a "
            "parent or guardian rides alongside them. You can come on up to three rides as a "
            "guest before you need to join.",
        ),
        ("h1", "Membership fees"),
        (
            "p",
            "Fees run from 1 April to 31 March and are not refunded if you leave part way "
            "through the year.",
        ),
        (
            "table",
            [
                ["Membership", "Annual fee"],
                ["Adult", "£35"],
                ["Student or unwaged", "£18"],
                ["Family (two adults and their children)", "£60"],
                ["Second-claim", "£12"],
            ],
        ),
        ("h1", "Ride grades"),
        (
            "p",
            "Every Sunday ride has a grade so you know what to expect. Grade A rides average "
            "above 28 km/h and do not wait at the top of climbs. Grade B rides average 23 to 26 "
            "km/h and regroup after every climb. Grade C rides average 18 to 20 km/h, stop at a "
            "café halfway, and never leave anyone behind.",
        ),
        ("h1", "Safety"),
        ("li", "A helmet is compulsory on every club ride."),
        (
            "li",
            "From October to March, front and rear lights must be fitted, even on morning rides.",
        ),
        ("li", "Mudguards are expected on winter rides so that the rider behind you stays dry."),
        ("h1", "Insurance"),
        (
            "p",
            "Your membership includes third-party liability insurance through British Cycling "
            "of up to £10 million, but it does not cover damage to your own bike or injury to "
            "yourself.",
        ),
    ],
}

#: Slide decks, as :func:`benchmarks.mixed_corpus.write_pptx`.
PPTX: dict[str, list[dict[str, Any]]] = {
    "agm_2026.pptx": [
        {
            "title": "Annual General Meeting 2026",
            "body": ["Ridgeway Wheelers", "The Plough Inn, Wantage, 14 November 2026"],
        },
        {
            "title": "Membership",
            "body": [
                "212 members at 31 October, up from 187 a year ago",
                "41 new members joined this year",
                "Women now make up 34% of members",
            ],
            "notes": "Most new members came through the beginners' rides in May.",
        },
        {
            "title": "Elected officers",
            "body": [
                "Chair: Rhiannon Doyle",
                "Treasurer: Sam Okafor",
                "Ride coordinator: Pete Marsh",
                "Welfare officer: Jo Albright",
            ],
        },
        {
            "title": "Plans for 2027",
            "body": [
                "Two-day ride to Bath in June",
                "A second Grade C group on Sundays",
                "Club kit redesign, with a vote in February",
            ],
            "notes": "The Bath ride will need at least 20 riders to book the hostel.",
        },
    ],
}

#: Workbooks, as :func:`benchmarks.mixed_corpus.write_xlsx`.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "ride_calendar.xlsx": {
        "January": [
            ["Date", "Ride", "Grade", "Distance (km)", "Leader", "Start"],
            ["2027-01-03", "New Year hills", "A", 96, "Pete Marsh", "Wantage Market Place"],
            ["2027-01-10", "Lambourn loop", "B", 72, "Aisha Khan", "Wantage Market Place"],
            ["2027-01-17", "Canal café ride", "C", 45, "Jo Albright", "Grove Green"],
            ["2027-01-24", "Ridgeway gravel", "B", 58, "Tom Briggs", "Letcombe Regis"],
            ["2027-01-31", "Faringdon folly", "C", 52, "Rhiannon Doyle", "Grove Green"],
        ]
    },
}

#: CSV exports, as :func:`benchmarks.mixed_corpus.write_csv`.
CSV: dict[str, list[list[str]]] = {
    "kit_orders.csv": [
        ["Order", "Member", "Item", "Size", "Quantity", "Price (GBP)"],
        ["1041", "Aisha Khan", "Short-sleeve jersey", "M", "1", "48.00"],
        ["1042", "Tom Briggs", "Bib shorts", "L", "2", "110.00"],
        ["1043", "Jo Albright", "Gilet", "S", "1", "39.50"],
        ["1044", "Pete Marsh", "Winter jacket", "XL", "1", "85.00"],
        ["1045", "Aisha Khan", "Cap", "One size", "1", "12.00"],
    ],
}

#: E-mails, as :func:`benchmarks.mixed_corpus.write_eml`.
EML: dict[str, dict[str, Any]] = {
    "bath_weekend.eml": {
        "subject": "Bath weekend - booking now open",
        "from": "Pete Marsh <rides@ridgewaywheelers.example>",
        "to": "members@ridgewaywheelers.example",
        "date": "Mon, 30 Nov 2026 19:12:00 +0000",
        "text": (
            "Hi everyone,\n\nBookings for the two-day ride to Bath on 19-20 June are now open. "
            "The cost is £65 per rider, which covers a bed in the YHA hostel, breakfast and the "
            "luggage van.\n\nThe route is 140 km on the Saturday and about 120 km back on the "
            "Sunday. Please book by 31 January; we need at least 20 riders to go ahead, and if "
            "we do not reach 20 everyone will be refunded in full.\n\nCheers,\nPete"
        ),
    },
}

#: Text files written as they are (Markdown and HTML).
TEXT: dict[str, str] = {
    "maintenance_tips.md": """# Looking after your bike

## Before every ride
Check your tyre pressure: most road tyres want between 80 and 100 psi, less for wider tyres.
Squeeze both brake levers; they should stop well before touching the handlebar.

## Chain care
Clean and lube the chain every 200 km in summer, and after every wet ride in winter.
A chain that has stretched by 0.5% should be replaced before it wears out the cassette.

## Punctures
Carry a spare inner tube, two tyre levers and a mini pump on every club ride.
If you puncture on a club ride, shout "puncture" and the group will stop with you.
""",
    "faq.html": """<html><head><title>Ridgeway Wheelers FAQ</title></head><body>
<h1>Frequently asked questions</h1>
<h3>Do I need a racing bike?</h3>
<p>No. Any bike in good working order is fine for Grade C rides; most riders on Grade A and B
rides use road bikes.</p>
<h3>What happens if it rains?</h3>
<p>Rides go ahead in the rain. A ride is cancelled only if there is ice or snow on the roads,
and the leader will post on the club WhatsApp group by 7am.</p>
<h3>Can I bring my dog?</h3>
<p>Sorry, dogs are not allowed on club rides, including the café stops.</p>
<h3>Where do rides start?</h3>
<p>Most Sunday rides leave from Wantage Market Place at 8:30am; Grade C rides leave from Grove
Green at 9:30am.</p>
</body></html>
""",
}

#: Born-digital PDFs: pages of lines, as :func:`benchmarks.mixed_corpus.write_text_pdf`.
PDF: dict[str, list[list[str]]] = {
    "treasurers_report_2026.pdf": [
        [
            "Ridgeway Wheelers - Treasurer's Report, year to 30 September 2026",
            "",
            "Income for the year was GBP 8,940, of which membership fees brought in GBP 6,310.",
            "Spending was GBP 7,215, leaving a surplus of GBP 1,725.",
            "The largest cost was the British Cycling affiliation at GBP 2,480.",
            "The club bought two first-aid kits and a defibrillator for GBP 1,150,",
            "paid for by a grant from the Vale Community Fund.",
            "Reserves at 30 September stood at GBP 11,600.",
        ]
    ],
}
