"""A second unseen corpus: the internal documents of a small architecture and design studio.

Holloway & Finch, 30 people in Bristol: a staff handbook, a new-starter deck, a contacts and
desk-booking workbook, a software-licence export, two e-mails from the studio manager (the
office move and the Christmas party), an IT setup guide in Markdown, an intranet expenses
page and a two-page health-and-safety summary. Written in an office manager's terse style,
independently of every other corpus here, with its questions (``questions.jsonl``) written
before the corpus was built. Text drawn into the PDF stays inside Latin-1.
"""

from __future__ import annotations

from typing import Any

#: Word documents: ``(kind, content)`` blocks, as :func:`benchmarks.mixed_corpus.write_docx`.
DOCX: dict[str, list[tuple[str, Any]]] = {
    "staff_handbook.docx": [
        ("title", "Holloway & Finch Staff Handbook"),
        (
            "p",
            "Version 4, effective 1 January 2026. Owned by the studio manager; send questions "
            "to Priya Nandakumar.",
        ),
        ("h1", "Working hours"),
        (
            "p",
            "The standard working week is 37.5 hours, Monday to Friday. Start any time between "
            "08:00 and 10:00. Core hours are 10:00 to 16:00; be reachable then unless you are "
            "on leave or on site. The building is open 07:30 to 19:30.",
        ),
        ("h1", "Hybrid working"),
        (
            "p",
            "Once you have passed probation you may work from home for up to two days a week. "
            "Tuesday and Thursday are studio days: everyone is in unless on leave, off sick or "
            "on site. Agree your home days with your project lead and put them in the shared "
            "calendar.",
        ),
        ("h1", "Probation and notice"),
        (
            "p",
            "Probation lasts six months. During probation either side can end employment with "
            "one week's notice. After probation the notice period is one month on either side "
            "(three months for Associates and above).",
        ),
        ("h1", "Annual leave"),
        (
            "p",
            "The leave year runs 1 January to 31 December. Entitlement depends on completed "
            "years of service and is on top of the eight bank holidays.",
        ),
        (
            "table",
            [
                ["Completed years of service", "Annual leave"],
                ["Under 3 years", "25 days"],
                ["3 to 5 years", "27 days"],
                ["6 years or more", "29 days"],
            ],
        ),
        (
            "li",
            "The studio closes between Christmas and New Year; three days of your allowance "
            "are held back to cover this.",
        ),
        (
            "li",
            "Book leave in BreatheHR. Anything longer than three consecutive working days needs "
            "two weeks' notice.",
        ),
        (
            "li",
            "You may carry over up to five days into the next leave year; they must be taken by "
            "31 March or they are lost.",
        ),
        ("li", "No more than two weeks in a row without a partner's approval."),
        ("h1", "Sickness absence"),
        (
            "p",
            "Phone (don't message) your line manager before 09:30 on the first day you are off. "
            "You can self-certify for up to seven calendar days; you need a fit note from the "
            "eighth calendar day. Once you have passed probation the studio pays full pay for "
            "up to 10 working days of sickness in any rolling 12 months; after that, Statutory "
            "Sick Pay only.",
        ),
        ("h1", "Maternity leave"),
        (
            "p",
            "Employees with at least 12 months' service by the 15th week before the baby is due "
            "get enhanced maternity pay: 16 weeks at full pay, then 10 weeks at half pay, then "
            "Statutory Maternity Pay for the rest of the 39-week paid period. Tell Priya in "
            "writing by the 15th week before the due date.",
        ),
        ("h1", "Pension"),
        (
            "p",
            "You are enrolled in the studio's workplace pension once you have completed three "
            "months. The studio pays 5% of salary and you pay 4%, by salary sacrifice.",
        ),
        ("h1", "Professional development"),
        (
            "p",
            "Every member of staff has a CPD allowance of £750 a year for courses, conferences "
            "and books, agreed in advance with your line manager. The studio pays ARB and RIBA "
            "fees for qualified architects. Part 3 candidates get 10 days' study leave in the "
            "year they sit the exams.",
        ),
        ("h1", "Cycle to work"),
        (
            "p",
            "The cycle-to-work scheme covers a bike and safety kit up to £2,000, repaid from "
            "salary over 12 months.",
        ),
        ("h1", "Studio life"),
        (
            "li",
            "Dogs are welcome in the studio on Fridays only, and only if everyone on your bench "
            "agrees. Never in the model workshop.",
        ),
        ("li", "Fruit and milk are provided; wash your own mugs before you leave."),
        (
            "li",
            "Music on headphones only, except on Friday afternoons when the bench speaker is "
            "allowed.",
        ),
    ],
}

#: Slide decks, as :func:`benchmarks.mixed_corpus.write_pptx`.
PPTX: dict[str, list[dict[str, Any]]] = {
    "new_starter_induction.pptx": [
        {
            "title": "Welcome to Holloway & Finch",
            "body": [
                "New starter induction",
                "Architecture, interiors and visualisation, Bristol since 2009",
                "30 people, one studio",
            ],
            "notes": "Keep this short; a partner usually drops in to say hello around 10:00.",
        },
        {
            "title": "Your first week",
            "body": [
                "Monday: induction with Priya at 09:30, then desk and laptop",
                "Tuesday: IT accounts and security training with Clearline IT",
                "Wednesday: shadow your project lead; site visit if one is running",
                "Thursday: studio day, model workshop induction at 14:00",
                "Friday: team lunch on the studio, then the Friday crit",
            ],
        },
        {
            "title": "Who's who",
            "table": [
                ["Role", "Name", "Where to find them"],
                ["Founding partner", "Margaret Holloway", "Second floor"],
                ["Founding partner", "Tom Finch", "Second floor"],
                ["Studio manager", "Priya Nandakumar", "Reception desk"],
                ["Head of Interiors", "Hannah Kowalczyk", "First floor, bench C"],
                ["Visualisation lead", "Dev Mistry", "Viz suite"],
                ["Workshop technician", "Callum Burke", "Model workshop"],
            ],
            "notes": "Photos are on the kitchen wall so people can put names to faces.",
        },
        {
            "title": "Studio rituals",
            "body": [
                "Friday crit: 16:00 in the Long Room, 20 minutes per project",
                "Show and tell: first Wednesday of the month, over lunch",
                "Fruit delivered on Mondays",
                "Birthdays: cake on the nearest Friday",
            ],
            "notes": (
                "Tell them the Friday crit is optional for your first month, but worth sitting "
                "in on."
            ),
        },
        {
            "title": "Your buddy",
            "body": [
                "You get a buddy for your first three months",
                "Buddy lunch once a month, on the studio, up to £25",
                "Your buddy is not your line manager: ask them anything",
            ],
        },
    ],
}

#: Workbooks, as :func:`benchmarks.mixed_corpus.write_xlsx`.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "office_contacts.xlsx": {
        "Contacts": [
            ["Name", "Role", "Team", "Extension", "Mobile"],
            ["Margaret Holloway", "Founding partner", "Partners", "210", "07700 900118"],
            ["Tom Finch", "Founding partner", "Partners", "211", "07700 900412"],
            ["Priya Nandakumar", "Studio manager", "Operations", "200", "07700 900655"],
            ["Hannah Kowalczyk", "Head of Interiors", "Interiors", "230", "07700 900231"],
            ["Dev Mistry", "Visualisation lead", "Visualisation", "240", "07700 900784"],
            ["Callum Burke", "Workshop technician", "Workshop", "250", "07700 900309"],
            ["Owen Adeyemi", "Senior architect", "Architecture", "221", "07700 900547"],
            ["Sian Pritchard", "Senior technologist", "Architecture", "222", "07700 900863"],
            ["Reception", "Front desk", "Operations", "100", ""],
            ["Clearline IT", "IT support (external)", "External", "n/a", "0117 496 0321"],
        ],
        "Desk booking": [
            ["Zone", "Floor", "Desks", "Who can book", "Booking rule"],
            ["Bench A", "First", 10, "Architecture team", "Fixed desks, not bookable"],
            ["Bench C", "First", 6, "Interiors team", "Fixed desks, not bookable"],
            [
                "Hot desks H1 to H8",
                "First",
                8,
                "Anyone",
                "Book in Teams by 17:00 the day before",
            ],
            ["Quiet room", "Second", 4, "Anyone", "Maximum half a day per booking"],
            [
                "Viz suite",
                "Second",
                3,
                "Visualisation team; others from 14:00",
                "Ask Dev Mistry before using the render PCs",
            ],
            [
                "Long Room",
                "Ground",
                14,
                "Anyone",
                "Client meetings take priority; Friday crit from 16:00",
            ],
        ],
    },
}

#: CSV exports, as :func:`benchmarks.mixed_corpus.write_csv`.
CSV: dict[str, list[list[str]]] = {
    "software_licences.csv": [
        [
            "Software",
            "Vendor",
            "Licence type",
            "Seats",
            "Renewal date",
            "Annual cost (GBP)",
            "Licence owner",
        ],
        [
            "Autodesk AEC Collection (Revit)",
            "Autodesk",
            "Named user subscription",
            "14",
            "2026-09-30",
            "39,480",
            "Owen Adeyemi",
        ],
        [
            "AutoCAD LT",
            "Autodesk",
            "Named user subscription",
            "4",
            "2026-11-15",
            "1,796",
            "Owen Adeyemi",
        ],
        [
            "SketchUp Pro",
            "Trimble",
            "Named user subscription",
            "9",
            "2026-05-31",
            "2,655",
            "Hannah Kowalczyk",
        ],
        ["Enscape", "Chaos", "Floating", "5", "2026-07-14", "3,725", "Dev Mistry"],
        ["Rhino 8", "Robert McNeel & Associates", "Perpetual", "3", "n/a", "0", "Dev Mistry"],
        [
            "Adobe Creative Cloud All Apps",
            "Adobe",
            "Named user subscription",
            "11",
            "2026-02-28",
            "8,283",
            "Hannah Kowalczyk",
        ],
        [
            "Bluebeam Revu Core",
            "Bluebeam",
            "Named user subscription",
            "6",
            "2026-10-01",
            "1,410",
            "Sian Pritchard",
        ],
        [
            "Microsoft 365 Business Premium",
            "Microsoft via Clearline IT",
            "Per user, rolling monthly",
            "32",
            "Monthly",
            "6,912",
            "Priya Nandakumar",
        ],
        [
            "NBS Chorus",
            "NBS",
            "Practice subscription",
            "Unlimited",
            "2026-04-01",
            "2,150",
            "Owen Adeyemi",
        ],
    ],
}

#: E-mails, as :func:`benchmarks.mixed_corpus.write_eml`.
EML: dict[str, dict[str, Any]] = {
    "office_move.eml": {
        "subject": "Office move: Brunswick House to The Tannery, 13 March",
        "from": "Priya Nandakumar <priya.nandakumar@hollowayfinch.example>",
        "to": "studio@hollowayfinch.example",
        "date": "Mon, 23 Feb 2026 09:05:00 +0000",
        "text": """Hi all,

The move is confirmed. Key dates:

- Thursday 12 March: last day at Brunswick House. Crates packed and labelled by 17:00.
- Friday 13 March: studio closed for the move. Work from home; no client meetings please.
- Monday 16 March: first day at The Tannery, 58 Feeder Road, BS2 0SE. Doors open at 08:00.

Packing: you get two crates each, delivered to your desk on Monday 9 March. Label every
crate with your name and your new desk number (see the floor plan in the calendar invite).
Models go in the blue crates, which Callum will pack himself; please don't touch them.

Screens and docks: leave them on your desk, Clearline will move and reconnect them. Take
your laptop home on Thursday.

Fobs: hand in your Brunswick House fob to me on Thursday. New fobs will be on your desk on
Monday morning.

Bikes: the new building has a covered bike store in the courtyard with 20 spaces, and two
showers on the ground floor.

Any questions, come and find me.

Priya
""",
    },
    "christmas_party.eml": {
        "subject": "Christmas party: Thursday 17 December",
        "from": "Priya Nandakumar <priya.nandakumar@hollowayfinch.example>",
        "to": "studio@hollowayfinch.example",
        "date": "Mon, 2 Nov 2026 10:30:00 +0000",
        "text": """Hello everyone,

Save the date: this year's Christmas party is on Thursday 17 December at The Saltloft,
upstairs at Wapping Wharf.

- The studio closes at 15:00 that day.
- Drinks from 18:30, dinner at 19:30. Three courses, with vegetarian and vegan options.
- Partners and plus-ones are welcome this year. The studio pays for staff; plus-ones are
  £40 each, paid to me by Friday 4 December.
- RSVP by Friday 27 November using the form on the intranet, with any dietary requirements.
- Secret Santa: names drawn on 20 November, spend limit £15.
- Taxis home: the studio will pay up to £30 per person with a receipt; claim it in Xero
  Expenses.

Dress code: whatever you would wear to a client presentation, plus one festive item.

Priya
""",
    },
}

#: Text files written as they are (Markdown and HTML).
TEXT: dict[str, str] = {
    "it_setup_guide.md": """# IT setup guide

Maintained by Clearline IT for Holloway & Finch. Last reviewed February 2026.

## Your first login

1. Collect your laptop from Priya at reception on your first morning.
2. Sign in with the temporary password in your welcome envelope; you will be asked to change it
   straight away.
3. Set up multi-factor authentication with Microsoft Authenticator on your phone.
4. Open Outlook and Teams and check your address works (firstname.lastname@hollowayfinch.example).
5. Ask Clearline to add you to your project folders on the NAS.

## Passwords

- At least 14 characters; a passphrase of three or four random words is fine.
- Never reuse your studio password anywhere else.
- Passwords do not expire, but change yours at once if you think someone has seen it.

## Kit by role

| Role | Laptop | Screens | Main software |
|---|---|---|---|
| Architects and technologists | ThinkPad P1, 32 GB | 27-inch monitor | Revit, AutoCAD, Bluebeam |
| Interiors | MacBook Pro 14-inch | 27-inch monitor | SketchUp, Adobe Creative Cloud |
| Visualisation | Dell Precision 5680, 64 GB | Two 27-inch monitors | Enscape, Rhino |
| Operations | MacBook Air 13-inch | 24-inch monitor | Microsoft 365, Xero |

## Wi-Fi

- Staff: HF-Studio (signs in automatically with your studio account).
- Visitors: HF-Guest. The password changes every Monday and is written on the reception
  whiteboard. Never give visitors the HF-Studio password.

## Working from home

Connect to the VPN (WireGuard, set up by Clearline) before opening anything on the NAS.

## Files and backups

- All project files live on the NAS under `\\\\hf-nas01\\projects`, in a folder named with the
  job number then the job name, for example `2417 Redcliffe Wharf`.
- Nothing project-related on your desktop or in your personal OneDrive.
- The NAS is backed up every night at 01:00 to an off-site copy; backups are kept for 90 days.

## Printing and plotting

- There is an A3/A4 printer on each floor: print from any laptop and collect with your fob.
- The A0 plotter (HP DesignJet T1700) is on the second floor. Log every plot of A1 or bigger in
  the plot log with the job number so it can be billed to the client.

## Getting help

Clearline IT helpdesk: helpdesk@clearline-it.example or 0117 496 0321, 08:30 to 17:30, Monday to
Friday. E-mails sent out of hours are answered the next working day.
""",
    "expenses_policy.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Expenses policy | Holloway &amp; Finch intranet</title>
</head>
<body>
<h1>Expenses policy</h1>
<p>Applies to all staff from 1 April 2026. Claim only what you have spent on studio business,
and keep the receipt.</p>

<h2>Limits</h2>
<table>
<tr><th>Expense</th><th>Limit</th><th>Notes</th></tr>
<tr><td>Breakfast</td><td>£10</td><td>Overnight stays only</td></tr>
<tr><td>Lunch</td><td>£15</td><td>Only when you are away from the studio over lunch</td></tr>
<tr><td>Evening meal</td><td>£30</td><td>Overnight stays only; no alcohol</td></tr>
<tr><td>Hotel, London</td><td>£140 a night</td><td>Book through Priya</td></tr>
<tr><td>Hotel, elsewhere</td><td>£110 a night</td><td>Book through Priya</td></tr>
<tr><td>Client entertaining</td><td>£50 per head</td><td>Partner approval in advance</td></tr>
</table>

<h2>Questions</h2>

<h3>How much is mileage?</h3>
<p>Using your own car for studio business is paid at 45p per mile, and 20p per mile by bike.
Your normal journey to and from the studio does not count.</p>

<h3>Can I travel first class?</h3>
<p>No. Rail travel is standard class. The one exception is a journey of more than three hours
each way where a first-class advance ticket costs less than the standard fare on the day.</p>

<h3>When do I need to claim by?</h3>
<p>Submit claims in Xero Expenses by the 5th of the following month; they are paid with that
month's salary. Claims older than 90 days will not be paid.</p>

<h3>Is alcohol covered?</h3>
<p>Only as part of client entertaining that a partner approved in advance.</p>

<h3>What if I lose a receipt?</h3>
<p>Fill in a missing-receipt form. You can do this at most twice a year.</p>

<h3>Can I have a company card?</h3>
<p>Company cards are held by the partners and the studio manager only. Ask Priya to book hotels
and rail tickets for you in advance.</p>
</body>
</html>
""",
}

#: Born-digital PDFs: pages of lines, as :func:`benchmarks.mixed_corpus.write_text_pdf`.
PDF: dict[str, list[list[str]]] = {
    "health_and_safety_summary.pdf": [
        [
            "Holloway & Finch - Health and Safety Summary 2026",
            "The Tannery, 58 Feeder Road, Bristol BS2 0SE. Responsible person: Tom Finch.",
            "",
            "FIRE",
            "The fire alarm is tested every Wednesday at 11:00. At any other time, leave at once.",
            "Assembly point: the grass verge opposite the main gate, by the canal footbridge.",
            "Fire marshals: Owen Adeyemi (ground floor), Sian Pritchard (first floor),",
            "Callum Burke (second floor).",
            "Do not use the lift in a fire. Do not go back for laptops or models.",
            "",
            "FIRST AID",
            "First aiders: Priya Nandakumar and Dev Mistry.",
            "First aid kits are in the kitchen and in the model workshop.",
            "Record every accident, however small, in the accident book at reception within 24",
            "hours.",
            "",
            "MODEL WORKSHOP",
            "The laser cutter may be used only after a workshop induction with Callum Burke.",
            "Never leave the laser cutter while it is cutting, and keep the extraction running.",
            "The band saw and the disc sander are for inducted staff only.",
            "No workshop use before 08:00 or after 18:00, and never on your own.",
        ],
        [
            "SITE VISITS",
            "Wear a hard hat, hi-vis vest and safety boots on every site, whatever the contractor",
            "says.",
            "The studio reimburses safety boots up to GBP 80 every two years;",
            "claim them in Xero Expenses.",
            "Lone site visits: write the site, your expected return time and your mobile number on",
            "the site board by reception.",
            "If you are on site alone, call the studio by 17:00 or when you leave, whichever is",
            "earlier.",
            "You need a CSCS card before your first site visit; the studio pays for the test.",
            "",
            "DISPLAY SCREEN EQUIPMENT",
            "Complete the DSE self-assessment in BreatheHR within your first month.",
            "Ask Priya for a footrest, a laptop stand or a different chair if you need one.",
        ],
    ],
}
