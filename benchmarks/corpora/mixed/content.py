"""The invented documents of the mixed-format corpus (``benchmarks/mixed_corpus.py``).

A small tea importer, Brackenridge Tea Company of Bristol: its policies, a product spec,
slide decks, spreadsheets, CSV exports, e-mails, a landlord's letter, warranty terms,
committee notes and two tables that reach the benchmark as a photo and a scan. Everything
here was written for this project. Text drawn into PDFs stays inside Latin-1 (the test PDF
writer's Helvetica); no line of a PDF page is longer than about 85 characters.
"""

from __future__ import annotations

from typing import Any

COMPANY = "Brackenridge Tea Company"

#: Word documents: a list of ``(kind, content)`` blocks; kinds ``title``, ``h1``, ``p``,
#: ``li`` (a bullet) and ``table`` (a list of rows, the first the column names).
DOCX: dict[str, list[tuple[str, Any]]] = {
    "travel_policy.docx": [
        ("title", "Travel and Expenses Policy"),
        ("h1", "Scope"),
        (
            "p",
            "This policy applies to all employees and contractors of Brackenridge Tea Company "
            "who travel on company business.",
        ),
        ("h1", "Booking travel"),
        (
            "p",
            "All train and flight bookings must be made through the office manager, Dana "
            "Whitlock, at least ten working days before departure.",
        ),
        (
            "p",
            "Standard class rail is the default; first class is allowed only for journeys "
            "longer than four hours.",
        ),
        ("h1", "Daily allowances"),
        ("p", "Meals are reimbursed up to the following amounts per day."),
        (
            "table",
            [
                ["Location", "Breakfast", "Lunch", "Dinner"],
                ["United Kingdom", "£8", "£12", "£25"],
                ["Europe", "€10", "€15", "€35"],
                ["Rest of the world", "$12", "$18", "$40"],
            ],
        ),
        ("h1", "Mileage"),
        (
            "p",
            "Use of a private car is reimbursed at 45p per mile for the first 10,000 miles in a "
            "tax year and 25p per mile after that.",
        ),
        ("h1", "Claims"),
        ("li", "Submit claims within 30 days of the expense."),
        ("li", "Attach an itemised receipt for every item over £10."),
        ("li", "Alcohol is never reimbursed."),
    ],
    "hybrid_working_policy.docx": [
        ("title", "Hybrid Working Policy"),
        ("h1", "Working from home"),
        (
            "p",
            "Staff may work from home up to three days a week once they have completed their "
            "six-month probation period.",
        ),
        (
            "p",
            "Tuesdays are anchor days: everyone who is not on leave is expected in the Bristol "
            "office.",
        ),
        ("h1", "Equipment"),
        (
            "p",
            "The company pays a one-off home-office allowance of £300 towards a desk chair or a "
            "monitor; claim it through the expenses system with the receipt.",
        ),
        ("h1", "Working abroad"),
        (
            "p",
            "Working from another country is allowed for up to 20 working days per calendar "
            "year, with your manager's written approval.",
        ),
        ("h1", "Hours"),
        ("p", "Core hours are 10:00 to 15:30; outside those hours you can organise your day."),
    ],
    "leafline_lb2_spec.docx": [
        ("title", "Product Specification: Leafline LB-2 Tea Brewer"),
        ("h1", "Overview"),
        (
            "p",
            "The Leafline LB-2 is a countertop tea brewer for cafés, launching in March 2027 at "
            "a retail price of £189.",
        ),
        ("h1", "Specifications"),
        (
            "table",
            [
                ["Property", "Value"],
                ["Capacity", "1.7 litres"],
                ["Power", "2,200 W"],
                ["Temperature presets", "70, 80, 90 and 100 °C"],
                ["Weight", "1.9 kg"],
                ["Warranty", "2 years"],
            ],
        ),
        ("h1", "Materials"),
        (
            "p",
            "The brewing basket is made of food-grade 304 stainless steel; the jug is "
            "borosilicate glass.",
        ),
        ("h1", "Open issues"),
        ("li", "The keep-warm mode switches off after 45 minutes; sales asked for 60."),
        ("li", "The power cord is 0.9 m long, shorter than most café counters need."),
    ],
}

#: Slide decks: slides with a title, bullet lines, an optional table and optional notes.
PPTX: dict[str, list[dict[str, Any]]] = {
    "q3_sales_review.pptx": [
        {"title": "Q3 2026 Sales Review", "body": ["Prepared by Omar Feld, Head of Sales"]},
        {
            "title": "Headline numbers",
            "body": [
                "Revenue £1.42m, up 11% on Q3 2025",
                "Wholesale accounts: 212 (18 new this quarter)",
                "Online orders: 9,870",
            ],
            "notes": "The jump in online orders came from the August subscription campaign.",
        },
        {
            "title": "Best sellers",
            "table": [
                ["Product", "Units", "Revenue"],
                ["Assam Breakfast", "14,200", "£99,400"],
                ["Earl Grey Supreme", "11,050", "£88,400"],
                ["Jasmine Pearls", "3,900", "£62,400"],
            ],
        },
        {
            "title": "Next quarter",
            "body": ["Open a second distributor in Lyon", "Target: £1.6m revenue in Q4"],
            "notes": "The Lyon distributor contract is to be signed by 15 November.",
        },
    ],
    "onboarding.pptx": [
        {"title": "Welcome to Brackenridge", "body": ["Your first week with us"]},
        {
            "title": "Your first day",
            "body": [
                "Arrive at 9:30 at reception, 14 Quay Street",
                "Collect your laptop from IT in room 2.04",
            ],
            "notes": "There is no parking on site; the nearest car park is Prince Street NCP.",
        },
        {
            "title": "Tools we use",
            "body": ["Chat: Slack", "Payroll and leave: BrightHR", "Passwords: 1Password"],
        },
        {
            "title": "Holidays",
            "body": [
                "25 days plus bank holidays",
                "Up to 5 unused days carry over to the next year",
            ],
        },
    ],
}

#: Workbooks: sheet name -> rows (the first the column names); ints get ``#,##0``, floats
#: ``0.00``.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "sales_by_region.xlsx": {
        "Regions": [
            ["Region", "Quarter", "Units sold", "Revenue (£)"],
            ["South West", "Q2", 16980, 221400],
            ["South West", "Q3", 18420, 241300],
            ["London", "Q2", 21310, 305900],
            ["London", "Q3", 23750, 338200],
            ["Midlands", "Q2", 9410, 118600],
            ["Midlands", "Q3", 10020, 127900],
            ["Scotland", "Q2", 6150, 80300],
            ["Scotland", "Q3", 7480, 96100],
        ],
        "Channels": [
            ["Channel", "Orders", "Average order (£)"],
            ["Online shop", 9870, 34.2],
            ["Wholesale", 1860, 412.0],
            ["Cafés", 640, 95.5],
        ],
    },
    "inventory.xlsx": {
        "Stock": [
            ["SKU", "Product", "Warehouse", "In stock (kg)", "Reorder level (kg)"],
            ["TEA-001", "Assam Breakfast", "Avonmouth", 820, 300],
            ["TEA-002", "Earl Grey Supreme", "Avonmouth", 410, 250],
            ["TEA-014", "Jasmine Pearls", "Felixstowe", 85, 120],
            ["TEA-021", "Rooibos Vanilla", "Avonmouth", 260, 110],
            ["TEA-030", "Sencha Kagoshima", "Felixstowe", 140, 80],
        ],
        "Warehouses": [
            ["Warehouse", "Manager", "Phone"],
            ["Avonmouth", "Keith Brennan", "0117 496 0321"],
            ["Felixstowe", "Aisha Morgan", "01394 555 207"],
        ],
    },
}

#: CSV exports: rows, the first the column names.
CSV: dict[str, list[list[str]]] = {
    "expenses_october.csv": [
        ["Date", "Employee", "Category", "Merchant", "Amount (GBP)", "Approved by"],
        ["2026-10-02", "Priya Shah", "Travel", "GWR", "84.50", "Dana Whitlock"],
        ["2026-10-05", "Tom Ellery", "Meals", "Pieminister", "23.10", "Dana Whitlock"],
        ["2026-10-09", "Priya Shah", "Hotel", "Premier Inn Leeds", "112.00", "Omar Feld"],
        ["2026-10-14", "Lena Kowalski", "Equipment", "Currys", "289.99", "Dana Whitlock"],
        ["2026-10-21", "Tom Ellery", "Travel", "National Express", "31.40", "Omar Feld"],
        ["2026-10-28", "Sam Okafor", "Client gift", "Fortnum & Mason", "65.00", "Omar Feld"],
    ],
    "suppliers.csv": [
        ["Supplier", "Country", "Contact", "Email", "Lead time (days)", "Payment terms"],
        [
            "Nilgiri Hills Estates",
            "India",
            "Ravi Menon",
            "ravi@nilgiri-estates.example",
            "42",
            "60 days",
        ],
        ["Fujian Cloud Tea Co", "China", "Mei Lin", "mei.lin@fujiancloud.example", "56", "Prepaid"],
        [
            "Cape Rooibos Growers",
            "South Africa",
            "Johan de Wet",
            "johan@caperooibos.example",
            "35",
            "30 days",
        ],
        [
            "Kagoshima Green",
            "Japan",
            "Haruto Sato",
            "sato@kagoshima-green.example",
            "49",
            "45 days",
        ],
    ],
}

#: E-mails: headers, a plain or HTML body and optional attachments (a Word document from
#: :data:`ATTACHMENTS`).
EML: dict[str, dict[str, Any]] = {
    "office_move.eml": {
        "subject": "Office move on 12 December",
        "from": "Dana Whitlock <dana@brackenridge.example>",
        "to": "all-staff@brackenridge.example",
        "date": "Mon, 16 Nov 2026 09:12:00 +0000",
        "text": (
            "Hi all,\n\n"
            "We are moving to our new office at 3 Harbourside Way on Saturday 12 December.\n\n"
            "Please pack your desk into the labelled crates by 5pm on Friday 11 December. "
            "The new office has 40 desks and a tasting kitchen.\n\n"
            "New door fobs will be handed out on Monday 14 December at 9am.\n\n"
            "Thanks,\nDana\n"
        ),
    },
    "price_changes.eml": {
        "subject": "Wholesale price changes from January",
        "from": "Omar Feld <omar@brackenridge.example>",
        "to": "wholesale-customers@brackenridge.example",
        "date": "Tue, 24 Nov 2026 14:30:00 +0000",
        "html": (
            "<html><body><p>Dear customer,</p>"
            "<p>From 1 January 2027 our wholesale prices will rise by an average of 6%, because "
            "of higher freight costs from India.</p>"
            "<p>Orders placed before 20 December will be invoiced at the current prices.</p>"
            "<p>The minimum order for free delivery stays at £150.</p>"
            "<p>Best wishes,<br>Omar Feld, Head of Sales</p></body></html>"
        ),
    },
    "board_minutes.eml": {
        "subject": "Minutes of the October board meeting",
        "from": "Helen Price <helen@brackenridge.example>",
        "to": "board@brackenridge.example",
        "date": "Fri, 30 Oct 2026 16:05:00 +0000",
        "text": (
            "Dear all,\n\nAttached are the minutes of the board meeting held on 22 October. "
            "Please send any corrections to me by Friday.\n\n"
            "Kind regards,\nHelen Price, Company Secretary\n"
        ),
        "attachments": ["board_minutes_2026-10.docx"],
    },
}

#: Word documents attached to e-mails (same block format as :data:`DOCX`).
ATTACHMENTS: dict[str, list[tuple[str, Any]]] = {
    "board_minutes_2026-10.docx": [
        ("title", "Board meeting minutes, 22 October 2026"),
        ("p", "Present: Helen Price (chair), Omar Feld, Dana Whitlock, Graham Oduya."),
        ("h1", "Decisions"),
        ("p", "The board approved a capital budget of £85,000 for a second packing line."),
        ("p", "The Christmas bonus was set at £400 per employee."),
        ("h1", "Next meeting"),
        ("p", "The next board meeting will be held on 14 January 2027."),
    ],
}

#: Documents that reach the benchmark as scans: pages of lines, drawn by the test PDF
#: writer into a born-digital original, then rendered to an image-only PDF.
SCANNED: dict[str, list[list[str]]] = {
    "lease_renewal_letter.pdf": [
        [
            "Quayside Properties Ltd",
            "8 Anchor Road, Bristol BS1 5TT",
            "",
            "3 November 2026",
            "",
            "Ms Helen Price",
            "Brackenridge Tea Company",
            "",
            "Dear Ms Price,",
            "",
            "Re: Lease of Unit 4, Avonmouth Trade Park",
            "",
            "Your current lease ends on 31 March 2027. We are pleased to offer a renewal",
            "for a further five years on the terms below.",
            "",
            "The annual rent would increase from £38,000 to £41,500, payable quarterly",
            "in advance. All other terms of the existing lease would remain unchanged.",
            "",
            "Please confirm whether you wish to renew by 15 January 2027.",
            "",
            "Yours sincerely,",
            "Martin Greaves, Property Manager",
        ]
    ],
    "leafline_warranty.pdf": [
        [
            "Leafline Brewer Warranty Terms",
            "",
            "1. Leafline brewers are guaranteed against manufacturing defects for two years",
            "from the date of purchase.",
            "",
            "2. The warranty does not cover limescale damage. In hard-water areas, descale",
            "the brewer every four weeks.",
            "",
            "3. To make a claim, email warranty@brackenridge.example with your proof of",
            "purchase and the serial number printed under the base.",
            "",
            "4. Repaired or replaced brewers are covered for the rest of the original period",
            "or 90 days, whichever is longer.",
        ]
    ],
    "safety_committee_notes.pdf": [
        [
            "Health and Safety Committee: notes of 6 October 2026",
            "",
            "Attendees: Keith Brennan, Lena Kowalski, Sam Okafor, Dana Whitlock",
            "",
            "Fire drill",
            "The last drill took 4 minutes 10 seconds to clear the building. The target is",
            "under 3 minutes, so the next drill will be unannounced.",
            "",
            "First aid",
            "Lena Kowalski and Keith Brennan renewed their first aid certificates in",
            "September. The first aid kit in the packing room was restocked.",
        ],
        [
            "Actions",
            "",
            "Replace the forklift battery at Avonmouth before 30 November",
            "(owner: Keith Brennan).",
            "",
            "Install a second eyewash station in the packing room (owner: Sam Okafor).",
            "",
            "The next committee meeting is on 5 January 2027.",
        ],
    ],
}

#: Tables that reach the benchmark as images: a title, rows (the first the column names)
#: and how the image is spoiled (``photo``: rotated, blurred, noisy JPEG; else a clean
#: grey PNG scan with light noise).
TABLE_IMAGES: dict[str, dict[str, Any]] = {
    "wholesale_price_list.jpg": {
        "title": "Wholesale price list 2027",
        "photo": True,
        "rows": [
            ["Tea", "Pack", "Price per kg", "Minimum order"],
            ["Assam Breakfast", "1 kg", "£24.00", "5 kg"],
            ["Earl Grey Supreme", "1 kg", "£28.50", "5 kg"],
            ["Jasmine Pearls", "500 g", "£64.00", "1 kg"],
            ["Rooibos Vanilla", "1 kg", "£21.00", "3 kg"],
            ["Sencha Kagoshima", "500 g", "£52.00", "2 kg"],
        ],
    },
    "delivery_schedule.png": {
        "title": "Delivery schedule, winter 2026/27",
        "photo": False,
        "rows": [
            ["Region", "Delivery day", "Order cut-off", "Carrier"],
            ["Bristol and Bath", "Tuesday", "Monday 12:00", "Own van"],
            ["London", "Wednesday", "Monday 16:00", "DPD"],
            ["Midlands", "Thursday", "Tuesday 16:00", "DHL"],
            ["Scotland", "Friday", "Tuesday 12:00", "Parcelforce"],
            ["Ireland", "Monday", "Thursday 12:00", "An Post"],
        ],
    },
}
