"""An unseen corpus: the guest and staff documents of a family-run holiday park.

Saltmarsh Bay Holiday Park, on the Northumberland coast near Alnwick, run by Jim and Moira
Dodds with their daughter Kirsty and a small seasonal team: static caravans, lodges with hot
tubs, touring and tent pitches, a shop, an indoor pool and a clubhouse (The Lookout). A guest
welcome book, a seasonal-staff induction deck with speaker notes, the 2026 tariff and season
dates workbook, a touring-bookings export, a pre-arrival e-mail to a guest and an owners'
newsletter about pitch fees, a local area guide in Markdown, the website FAQ page and the
formal park rules and holiday-home owners' licence terms. Chatty for guests, brisk for staff,
written independently of every other corpus here, with its questions (``questions.jsonl``)
written before the corpus was checked. Text drawn into the PDF stays inside Latin-1.
"""

from __future__ import annotations

from typing import Any

#: Word documents: ``(kind, content)`` blocks, as :func:`benchmarks.mixed_corpus.write_docx`.
DOCX: dict[str, list[tuple[str, Any]]] = {
    "guest_welcome_book.docx": [
        ("title", "Welcome to Saltmarsh Bay"),
        (
            "p",
            "Hello, and welcome! We're Jim and Moira Dodds, and together with our daughter "
            "Kirsty and a small team of mostly local folk we've run Saltmarsh Bay Holiday Park "
            "since 1998. This little book has everything you need for your stay. If it isn't "
            "in here, pop into reception or ring us on 01665 960214.",
        ),
        ("h1", "Arriving"),
        (
            "p",
            "Caravans and lodges are ready from 4pm on your arrival day; touring pitches are "
            "free from 1pm. If you're early, you're very welcome to use the shop, the "
            "clubhouse and the beach while you wait.",
        ),
        (
            "p",
            "Reception is open 9am to 6pm every day, and until 8pm on Fridays in the summer "
            "holidays. Our entrance barrier reads your number plate, so make sure we have the "
            "right registration. A second car costs £3 per night and needs adding at reception.",
        ),
        (
            "li",
            "Arriving after reception has closed? Your keys will be in the late-arrivals key "
            "safe on the left of the reception door. We text you the code by 2pm on the day "
            "you arrive.",
        ),
        (
            "li",
            "The barrier is locked from 11pm to 7am. If you get here later than 11pm, leave "
            "your car in the overflow car park just inside the main gate and walk in - there's "
            "a torch in the key safe too.",
        ),
        ("h1", "Leaving"),
        (
            "p",
            "Please leave your caravan or lodge by 10am on your departure day, and touring "
            "pitches by 12 noon. Pop your keys through the key drop by the reception door if "
            "we're not open yet.",
        ),
        (
            "li",
            "Late departure until 1pm is £30, subject to availability. Ask at reception by 5pm "
            "the day before. We can't offer it on Mondays and Fridays in the summer holidays, "
            "as those are our busiest changeover days.",
        ),
        ("h1", "What's in your holiday home"),
        (
            "table",
            [
                ["", "Caravans (Puffin and Eider)", "Lodges (Sandpiper and Curlew)"],
                ["Bed linen", "Included, beds made up", "Included, beds made up"],
                [
                    "Towels",
                    "Bring your own, or hire a pack at reception for £8 per person",
                    "Included: one bath and one hand towel per guest",
                ],
                ["Hot tub", "No", "Private hot tub, use until 10pm"],
                ["Dishwasher", "No", "Yes"],
                ["Cot and high chair", "Free, ask when you book", "Free, ask when you book"],
                ["Parking", "One car beside the caravan", "Two cars beside the lodge"],
            ],
        ),
        ("h1", "The swimming pool"),
        (
            "p",
            "Our indoor pool is heated to 29 degrees and is open from 3 April to 1 November "
            "2026. It's free for guests in our caravans and lodges and for holiday-home owners; "
            "touring guests pay £3 per person per session at reception.",
        ),
        ("li", "Open 9am to 7pm daily, with an adults-only swim from 7pm to 8pm."),
        ("li", "Closed for cleaning every Tuesday from 12 noon to 1pm."),
        (
            "li",
            "Children under 14 must have an adult (16 or over) in the water with them, and one "
            "adult can look after no more than two children under 8.",
        ),
        (
            "li",
            "In the summer holidays (18 July to 6 September) swims are 90-minute sessions which "
            "you book at reception, up to one day ahead.",
        ),
        ("h1", "Dogs"),
        (
            "p",
            "We love dogs, and lots of our guests bring theirs. Dogs are welcome in our Puffin "
            "caravans (numbers 1 to 20) and on touring pitches, but not in the lodges or Eider "
            "caravans. Two dogs at most per booking.",
        ),
        (
            "li",
            "Keep dogs on a lead everywhere on the park, and never leave them alone in your "
            "caravan.",
        ),
        (
            "li",
            "Use the dog exercise field behind the touring field for off-lead runs.",
        ),
        (
            "li",
            "Dogs are welcome in the Snug at the clubhouse, but not in the main bar, the family "
            "room, the shop or the pool building. Assistance dogs are welcome everywhere.",
        ),
        ("h1", "Bins and recycling"),
        (
            "p",
            "There are two bin stores: Bin Store A behind the shop and Bin Store B at the top "
            "of the touring field.",
        ),
        ("li", "Green bins: general rubbish in tied bags."),
        ("li", "Blue bins: cans, plastic bottles and tubs, and flattened cardboard."),
        (
            "li",
            "Glass goes in the bottle bank, but please not between 9pm and 8am - the bottle "
            "bank is next to the owners' homes on Dune Row.",
        ),
        (
            "li",
            "Barbecue ashes only in the metal ash bin, and only once they're cold. Never in the "
            "plastic bins.",
        ),
        ("h1", "Wi-Fi"),
        (
            "p",
            "Free Wi-Fi covers the clubhouse, the shop and reception: join SaltmarshBay-Guest, "
            "password bythesea26. Lodges have their own broadband, with the details on the card "
            "in the kitchen. In the caravans you can buy a Wi-Fi pass at reception for £12 per "
            "stay, covering up to four devices.",
        ),
        ("h1", "In an emergency"),
        (
            "li",
            "Dial 999 for fire, police, ambulance or coastguard. Give the address Saltmarsh Bay "
            "Holiday Park, Coble Lane, Hawksmouth, NE66 3QX, and your caravan, lodge or pitch "
            "number.",
        ),
        (
            "li",
            "Then ring our out-of-hours warden on 07700 900462 (6pm to 9am), so we can meet the "
            "ambulance at the gate. During the day, ring reception.",
        ),
        (
            "li",
            "There are defibrillators on the outside wall of reception and in the clubhouse "
            "entrance.",
        ),
        (
            "li",
            "If the fire alarm sounds in the pool or clubhouse, or you see a fire, go to the "
            "assembly point in the reception car park.",
        ),
        (
            "li",
            "For anything urgent but not an emergency, ring NHS 111. The nearest A&E is at "
            "Cramlington, about 40 minutes' drive; Alnwick Infirmary has a minor injuries unit.",
        ),
        (
            "p",
            "Enjoy your stay - and do come and tell us about your day at the beach. Jim, Moira "
            "and Kirsty",
        ),
    ],
}

#: Slide decks, as :func:`benchmarks.mixed_corpus.write_pptx`.
PPTX: dict[str, list[dict[str, Any]]] = {
    "seasonal_staff_induction.pptx": [
        {
            "title": "Saltmarsh Bay: seasonal team induction 2026",
            "body": [
                "Monday 23 March 2026, 9:30am in the clubhouse",
                "Fire walk and site tour at 11am",
                "Lunch on us at 12:30, then team sessions until 4pm",
            ],
            "notes": (
                "Jim opens, ten minutes max. Everyone is paid for the full induction day. Get "
                "the attendance sheet signed before the site tour."
            ),
        },
        {
            "title": "Who's who",
            "table": [
                ["Name", "Role", "Ask them about"],
                ["Jim Dodds", "Owner", "Anything; holiday-home sales"],
                ["Moira Dodds", "Owner", "Pay, accounts, holiday-home owners"],
                ["Kirsty Dodds", "Bookings and guest services manager", "Bookings, complaints"],
                ["Gary Telford", "Site manager", "Maintenance, grounds, warden rota"],
                ["Leanne Hall", "Shop and clubhouse manager", "Shop, bar, kitchen, entertainment"],
                ["Tom Ridley", "Pool supervisor", "Pool rota, lifeguard training"],
                ["Aisha Begum", "Housekeeping supervisor", "Changeover cleans, laundry"],
            ],
            "notes": (
                "Lost property goes to Aisha, not reception; it's bagged, labelled and kept for "
                "30 days."
            ),
        },
        {
            "title": "Rotas, pay and breaks",
            "body": [
                "Rota published every Thursday by 4pm for the week starting Monday, in RotaCloud",
                "Swaps: agree with a colleague, then your supervisor signs off at least 48 hours "
                "before the shift",
                "A 30-minute unpaid break on any shift over 6 hours",
                "Paid monthly, on the last Friday of the month",
                "Clock in and out on the tablet in the staff room",
            ],
            "notes": (
                "If you're going to be late, ring your supervisor. Don't just put it in the "
                "group chat - nobody reads it before 8am."
            ),
        },
        {
            "title": "Changeover days",
            "body": [
                "Summer holidays: hire changeovers on Mondays and Fridays only",
                "Guests out by 10am, next guests in from 4pm: that's our window",
                "Caravan clean: 90 minutes for a team of two",
                "Lodge clean: 2.5 hours including draining and refilling the hot tub",
                "Check every unit against the checklist and sign the card behind the door",
            ],
            "notes": (
                "Hot tubs are drained and refilled after every stay, no exceptions, and the water "
                "readings go in the hot tub log. If a unit won't be ready by 3:45pm, tell Kirsty "
                "so reception can warn the guests."
            ),
        },
        {
            "title": "Pool team",
            "body": [
                "Every lifeguard holds a current NPLQ",
                "Two lifeguards on poolside whenever more than 20 swimmers are in",
                "Water tests at opening, at 1pm and at close; log them on the clipboard",
                "Tuesday cleaning hour: pool closed 12 noon to 1pm",
            ],
            "notes": (
                "Tom runs the in-house rescue training on the first Sunday of every month, 8am, "
                "before opening. It's compulsory for the pool team and it's paid."
            ),
        },
        {
            "title": "Safety and incidents",
            "body": [
                "Fire assembly point: the reception car park",
                "Radios: channel 1 for general chat, channel 3 for the duty manager",
                "Record every accident in the accident book at reception the same day",
                "Never tackle a fire bigger than a waste-paper bin",
                "Out of hours, the warden on call covers 6pm to 9am",
            ],
            "notes": "Show them the defibrillator at reception and the one in the clubhouse.",
        },
        {
            "title": "Guests and noise",
            "body": [
                "Quiet time on the park is 11pm to 7am",
                "First complaint: a polite word from the duty manager",
                "Second complaint in the same stay: Kirsty or Jim decides whether the group "
                "has to leave",
                "Never promise a refund - pass it to Kirsty",
            ],
        },
        {
            "title": "Uniform and perks",
            "body": [
                "Two polo shirts and a fleece each, plus a waterproof for grounds and housekeeping",
                "Hand your uniform back on your last shift, or £25 comes off your final pay",
                "20% off in the shop and on clubhouse food (not alcohol)",
                "Free use of the pool in the adults-only swim, 7pm to 8pm, when you're off shift",
                "End-of-season staff party: Saturday 14 November in the clubhouse",
            ],
            "notes": (
                "Staff parking is in the field behind the maintenance shed, never in the "
                "reception car park."
            ),
        },
    ],
}

#: Workbooks, as :func:`benchmarks.mixed_corpus.write_xlsx`.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "tariff_2026.xlsx": {
        "Tariff 2026": [
            [
                "Accommodation",
                "Sleeps",
                "Unit numbers",
                "Low (£ per night)",
                "Mid (£ per night)",
                "Peak (£ per night)",
                "Dogs",
            ],
            ["Puffin caravan, 2 bedrooms", 4, "1 to 20", 62, 84, 118, "Yes, up to 2"],
            ["Eider caravan, 3 bedrooms", 6, "21 to 48", 74, 99, 139, "No"],
            ["Sandpiper lodge, 2 bedrooms, hot tub", 4, "L1 to L6", 109, 145, 189, "No"],
            ["Curlew lodge, 3 bedrooms, hot tub", 6, "L7 to L10", 129, 169, 235, "No"],
            [
                "Touring hardstanding pitch, electric",
                "2 adults included",
                "H1 to H24",
                28,
                34,
                42,
                "Yes, up to 2",
            ],
            [
                "Touring grass pitch, electric",
                "2 adults included",
                "G1 to G30",
                24,
                30,
                37,
                "Yes, up to 2",
            ],
            [
                "Tent pitch, no electric",
                "2 adults included",
                "T1 to T20",
                18,
                22,
                27,
                "Yes, up to 2",
            ],
            [],
            ["Extras", "Price (£)", "Charged per", "Notes"],
            ["Dog in a Puffin caravan", 6, "dog per night", "Maximum 2 dogs"],
            ["Dog on a touring pitch", 2, "dog per night", "Maximum 2 dogs"],
            ["Extra adult on a touring pitch (16+)", 8, "person per night", ""],
            ["Child on a touring pitch (3 to 15)", 4, "child per night", "Under 3s free"],
            ["Extra car", 3, "car per night", "Add it at reception for the barrier"],
            ["Towel pack (caravans)", 8, "person per stay", "Lodges include towels"],
            ["Wi-Fi pass (caravans)", 12, "stay", "Up to 4 devices"],
            ["Late departure until 1pm", 30, "stay", "Not Mon or Fri in the summer holidays"],
            ["Pitch request", 10, "stay", "Choose your exact pitch or caravan"],
            ["Pool session (touring guests)", 3, "person per session", "Free for hire guests"],
        ],
        "Season dates 2026": [
            ["Period", "From", "To", "Price band", "Arrival days", "Minimum stay"],
            ["Early season", "Sun 1 Mar 2026", "Thu 2 Apr 2026", "Low", "Any day", "2 nights"],
            ["Easter holidays", "Fri 3 Apr 2026", "Sun 12 Apr 2026", "Mid", "Any day", "3 nights"],
            ["Spring", "Mon 13 Apr 2026", "Thu 21 May 2026", "Low", "Any day", "2 nights"],
            [
                "Whitsun and early summer",
                "Fri 22 May 2026",
                "Fri 17 Jul 2026",
                "Mid",
                "Any day",
                "3 nights",
            ],
            [
                "Summer holidays",
                "Sat 18 Jul 2026",
                "Sun 6 Sep 2026",
                "Peak",
                "Monday or Friday for hire; any day for touring",
                "Hire: 4 nights Mon-Fri or 3 nights Fri-Mon; touring: 3 nights",
            ],
            ["Autumn", "Mon 7 Sep 2026", "Thu 22 Oct 2026", "Low", "Any day", "2 nights"],
            [
                "October half term",
                "Fri 23 Oct 2026",
                "Sun 1 Nov 2026",
                "Mid",
                "Any day",
                "3 nights",
            ],
            [
                "Late season (caravans and lodges only)",
                "Mon 2 Nov 2026",
                "Sun 15 Nov 2026",
                "Low",
                "Any day",
                "2 nights",
            ],
            [],
            ["Key dates", "From", "To", "Notes"],
            ["Touring field open", "Fri 27 Mar 2026", "Sun 1 Nov 2026", "Last pitches off by noon"],
            ["Swimming pool open", "Fri 3 Apr 2026", "Sun 1 Nov 2026", "Closed Tuesdays 12-1pm"],
            [
                "Holiday-home owners' season",
                "Sun 1 Mar 2026",
                "Sun 3 Jan 2027",
                "Park closed 4 Jan to 28 Feb 2027",
            ],
            ["Clubhouse refurbishment", "Mon 16 Nov 2026", "Thu 17 Dec 2026", "Reopens 18 Dec"],
        ],
    },
}

#: CSV exports, as :func:`benchmarks.mixed_corpus.write_csv`.
CSV: dict[str, list[list[str]]] = {
    "touring_bookings_jul2026.csv": [
        [
            "Booking ref",
            "Lead guest",
            "Pitch",
            "Pitch type",
            "Arrive",
            "Depart",
            "Nights",
            "Adults",
            "Children",
            "Dogs",
            "Unit",
            "Length (m)",
            "Extras",
            "Total (GBP)",
            "Status",
            "Notes",
        ],
        [
            "TB26-1142",
            "Darren Armstrong",
            "H07",
            "Hardstanding electric",
            "2026-07-17",
            "2026-07-24",
            "7",
            "2",
            "2",
            "1",
            "Caravan",
            "7.2",
            "",
            "356.00",
            "Confirmed",
            "Arriving about 9pm",
        ],
        [
            "TB26-1157",
            "Priya Sandhu",
            "H12",
            "Hardstanding electric",
            "2026-07-17",
            "2026-07-20",
            "3",
            "2",
            "0",
            "0",
            "Motorhome",
            "8.4",
            "Pitch request",
            "128.00",
            "Confirmed",
            "Asked for a sea-view pitch",
        ],
        [
            "TB26-1163",
            "Callum and Erin Reid",
            "T04",
            "Tent",
            "2026-07-17",
            "2026-07-20",
            "3",
            "2",
            "1",
            "0",
            "Tent",
            "",
            "",
            "88.00",
            "Confirmed",
            "First time camping; show them the tap and the Elsan point",
        ],
        [
            "TB26-1170",
            "Margaret Hedley",
            "G15",
            "Grass electric",
            "2026-07-18",
            "2026-07-25",
            "7",
            "2",
            "0",
            "2",
            "Caravan",
            "6.5",
            "Extra car",
            "308.00",
            "Confirmed",
            "Regular since 2011; two spaniels",
        ],
        [
            "TB26-1178",
            "Owen Pattinson",
            "G03",
            "Grass electric",
            "2026-07-18",
            "2026-07-22",
            "4",
            "3",
            "0",
            "0",
            "Campervan",
            "5.4",
            "Extra adult",
            "180.00",
            "Confirmed",
            "",
        ],
        [
            "TB26-1181",
            "The Nowak family",
            "T11",
            "Tent",
            "2026-07-19",
            "2026-07-23",
            "4",
            "2",
            "3",
            "1",
            "Tent",
            "",
            "",
            "164.00",
            "Confirmed",
            "Large tent, 6 x 4 m",
        ],
        [
            "TB26-1190",
            "Sean Murphy",
            "H19",
            "Hardstanding electric",
            "2026-07-20",
            "2026-07-27",
            "7",
            "2",
            "0",
            "0",
            "Motorhome",
            "7.9",
            "",
            "294.00",
            "Confirmed",
            "Blue Badge holder; pitch nearest the amenity block",
        ],
        [
            "TB26-1196",
            "Helen and Mark Foster",
            "G22",
            "Grass electric",
            "2026-07-20",
            "2026-07-24",
            "4",
            "2",
            "2",
            "0",
            "Caravan",
            "6.9",
            "",
            "180.00",
            "Cancelled",
            "Cancelled 2 July, inside 8 weeks, no refund",
        ],
        [
            "TB26-1204",
            "Abdul Rahman",
            "H02",
            "Hardstanding electric",
            "2026-07-21",
            "2026-07-24",
            "3",
            "2",
            "1",
            "0",
            "Caravan",
            "7.0",
            "",
            "138.00",
            "Confirmed",
            "",
        ],
        [
            "TB26-1211",
            "Lucy Charlton",
            "T18",
            "Tent",
            "2026-07-22",
            "2026-07-26",
            "4",
            "1",
            "1",
            "1",
            "Tent",
            "",
            "",
            "132.00",
            "Confirmed",
            "Cycling up the coast; arriving by bike",
        ],
        [
            "TB26-1219",
            "Gordon Bell",
            "H14",
            "Hardstanding electric",
            "2026-07-23",
            "2026-07-30",
            "7",
            "2",
            "0",
            "1",
            "Motorhome",
            "8.5",
            "",
            "308.00",
            "Confirmed",
            "Longest we can take on hardstanding",
        ],
        [
            "TB26-1225",
            "Sophie Graham",
            "G09",
            "Grass electric",
            "2026-07-24",
            "2026-07-27",
            "3",
            "4",
            "0",
            "0",
            "Campervan",
            "5.9",
            "Extra adult x2; Extra car",
            "168.00",
            "Confirmed",
            "Two vehicles: campervan and a car",
        ],
        [
            "TB26-1231",
            "Kevin Dunn",
            "H21",
            "Hardstanding electric",
            "2026-07-24",
            "2026-07-31",
            "7",
            "2",
            "1",
            "0",
            "Caravan",
            "7.4",
            "",
            "322.00",
            "Confirmed",
            "Late booking, paid in full on 3 July",
        ],
        [
            "TB26-1236",
            "Ellen Robson",
            "G27",
            "Grass electric",
            "2026-07-24",
            "2026-07-28",
            "4",
            "2",
            "2",
            "1",
            "Caravan",
            "6.2",
            "Pitch request",
            "198.00",
            "Confirmed",
            "Wants to be near the play area",
        ],
        [
            "TB26-1240",
            "Jakub and Anna Kowalski",
            "T02",
            "Tent",
            "2026-07-25",
            "2026-07-28",
            "3",
            "2",
            "0",
            "0",
            "Tent",
            "",
            "",
            "81.00",
            "Confirmed",
            "Coming on the 418 bus, no car",
        ],
        [
            "TB26-1244",
            "Derek Thompson",
            "H05",
            "Hardstanding electric",
            "2026-07-26",
            "2026-08-02",
            "7",
            "2",
            "0",
            "2",
            "Motorhome",
            "7.6",
            "",
            "322.00",
            "Confirmed",
            "Towing a small car on an A-frame",
        ],
        [
            "TB26-1249",
            "Fiona McLeod",
            "G11",
            "Grass electric",
            "2026-07-27",
            "2026-07-31",
            "4",
            "2",
            "2",
            "0",
            "Folding camper",
            "4.8",
            "",
            "180.00",
            "Confirmed",
            "Bringing a gazebo",
        ],
        [
            "TB26-1252",
            "Ravi and Meena Patel",
            "H16",
            "Hardstanding electric",
            "2026-07-27",
            "2026-08-03",
            "7",
            "2",
            "2",
            "0",
            "Caravan",
            "7.8",
            "Extra car",
            "371.00",
            "Awaiting payment",
            "Booked by phone 15 July; payment link sent",
        ],
        [
            "TB26-1257",
            "Anne Swinburne",
            "T15",
            "Tent",
            "2026-07-27",
            "2026-07-30",
            "3",
            "2",
            "1",
            "1",
            "Tent",
            "",
            "",
            "99.00",
            "Confirmed",
            "",
        ],
        [
            "TB26-1260",
            "Michael O'Brien",
            "G19",
            "Grass electric",
            "2026-07-28",
            "2026-08-04",
            "7",
            "2",
            "0",
            "0",
            "Caravan",
            "6.6",
            "",
            "259.00",
            "Confirmed",
            "Regular, always asks for G19 but no pitch request paid",
        ],
    ],
}

#: E-mails, as :func:`benchmarks.mixed_corpus.write_eml`.
EML: dict[str, dict[str, Any]] = {
    "pre_arrival_whitfield.eml": {
        "subject": "Your stay at Saltmarsh Bay: Friday 24 July, Eider caravan 27",
        "from": "Kirsty Dodds <bookings@saltmarshbay.example>",
        "to": "Rachel Whitfield <rachel.whitfield@example.com>",
        "date": "Tue, 14 Jul 2026 10:12:00 +0100",
        "text": """Hi Rachel,

Not long now! Here's everything you need for your week with us.

YOUR BOOKING
- Booking reference: SB26-0419
- Eider caravan 27 (3 bedrooms, sleeps 6), on Eider Row
- Friday 24 July to Friday 31 July 2026, 7 nights
- 2 adults and 3 children
- Total £973, paid in full - thank you!

GETTING HERE
Please don't trust the sat nav for the last mile: NE66 3QX takes you to the farm track at
the back of the park, which isn't suitable for cars. Instead, follow the brown caravan signs
from the Hawksmouth turn on the B1339 and come in by the main gate on Coble Lane.

ARRIVING
Your caravan will be ready from 4pm. We've got your car down as a grey Skoda Kodiaq,
registration NV21 WKP, so the barrier will lift for you automatically. If you're bringing a
second car, let me know and I'll add it (it's £3 per night).

If you'll be later than 6pm, your keys will be in the key safe by the reception door, and
I'll text the code to 07700 900781 by 2pm on the Friday.

Things to bring: towels (or hire them from us at £8 per person), beach gear, and wellies in
case the weather turns.

PUFFIN CLUB
Our kids' club runs Monday to Friday mornings, 10am to 12 noon, in the clubhouse family room
during the summer holidays. It's for ages 5 to 11 and costs £5 per child per session. Places
go quickly, so reply to this e-mail with the children's names and ages and which days you'd
like.

SWIMMING
Pool sessions are 90 minutes in the summer holidays and are booked at reception up to a day
ahead, so it's worth booking your first swim when you check in.

WELCOME PACK
We can have a welcome pack waiting in your fridge: bread, milk, butter, six eggs, bacon, tea,
coffee and a bottle of wine or juice, for £18. Just order by 5pm on Tuesday 21 July.

THE LOOKOUT
Our clubhouse serves food from 12 to 2:30pm and 5 to 8:30pm; book a table if you fancy eating
there on a Friday or Saturday. Family quiz night is Wednesday at 7pm, and the grown-ups' quiz
follows at 8:30pm.

Any questions at all, just reply or ring me on 01665 960214.

See you soon,

Kirsty Dodds
Bookings and guest services, Saltmarsh Bay Holiday Park
""",
    },
    "owners_newsletter_sept2026.eml": {
        "subject": "Owners' news, September 2026: 2027 pitch fees, winter closure and decking",
        "from": "Moira Dodds <owners@saltmarshbay.example>",
        "to": "Holiday-home owners <owners-list@saltmarshbay.example>",
        "date": "Fri, 18 Sep 2026 16:40:00 +0100",
        "text": """Dear owners,

What a summer! Thank you all for your patience during the water works in June, and a special
thank you to the owners on Dune Row who put up with the diggers for a fortnight.

Here's the news for the rest of the season and the year ahead.

2027 PITCH FEES
After a lot of number-crunching, Jim and I have set the 2027 pitch fees. They go up by 4.5%,
which is less than our own costs have risen (our insurance alone went up 11% this year).

- Standard pitch: £4,350
- Sea-view pitch (Harbour View and the front row of Dune Row): £5,190
- Lodge plot: £6,240

The fee covers the pitch, water and drainage, business rates, grounds maintenance, bin
collections, and use of the pool and Wi-Fi for you and your family. Electricity is metered
and billed separately every quarter at 29p per kWh; bottled gas is bought from the shop.

Invoices go out on Monday 2 November. As your licence says, you can pay in full by 1 March
2027, with a 2% discount if you pay by 31 January, or spread the fee over ten monthly direct
debits from March.

WINTER CLOSURE
The owners' season ends on Sunday 3 January 2027 and the park is closed from Monday 4 January
to Sunday 28 February 2027. Gary's team will turn off the water to all holiday homes on the
morning of 4 January.

If you'd like us to drain down and winterise your home, the fee is £65; book it with
reception by Saturday 31 October. If you'd rather do it yourself, it must be done before you
leave for the winter. Burst pipes are not covered by our insurance or, usually, by yours.

DECKING AND SHEDS
We've had a few questions about new decking, so to be clear: any new decking, skirting, shed
or extension needs our written approval before work starts. Decking can be no higher than
600mm off the ground, no nearer than 1 metre to the pitch boundary, and must be composite or
pressure-treated timber in grey or natural brown. Please send a simple drawing to Gary.
Contractors can only work Monday to Friday, 9am to 5pm, and not in the summer holidays.

OWNERS' MEETING
Our annual owners' meeting is on Saturday 10 October at 11am in the clubhouse, with coffee
and bacon rolls from 10:30. Bring your questions about the 2027 fees and the plans for the
new play area.

REMINDERS
- Proof of your home address (a council tax or utility bill from the last three months) and
  your insurance certificate are due by 31 March every year.
- If you lend your holiday home to friends or family, let reception know their names and
  dates so the barrier lets them in.
- The clubhouse is closing for refurbishment from Monday 16 November and reopens for the
  festive fortnight on Friday 18 December.

With best wishes from all of us,

Moira Dodds
Saltmarsh Bay Holiday Park
""",
    },
}

#: Text files written as they are (Markdown and HTML).
TEXT: dict[str, str] = {
    "local_area_guide.md": """# Around Saltmarsh Bay: our local guide

Written by Moira, who has lived in Hawksmouth all her life (bar three years in Newcastle she'd
rather not talk about). Updated March 2026.

## The beach

Saltmarsh Bay beach is a five-minute walk from the park: take the dune path from the gate at
the bottom of the touring field. It's two miles of sand, with rock pools at the north end under
Gull Point.

- RNLI lifeguards patrol between the red and yellow flags at weekends from 23 May, and every
  day from 4 July to 6 September, 10am to 6pm.
- Dogs: from 1 May to 30 September dogs aren't allowed on the stretch south of the lifeboat
  slipway. North of the slipway, dogs are welcome all year.
- The tide comes in fast around Gull Point. Check the tide times on the board outside
  reception before you go rock-pooling.
- No barbecues on the beach: the dunes are a Site of Special Scientific Interest.

## Walks

| Walk | Distance | Start | Good for |
|---|---|---|---|
| Gull Point loop | 2 miles | Dune path gate | Little legs and most pushchairs |
| Hawksmouth to Craster | 4.5 miles one way | Coble Lane | Kippers at the end |
| Craster to Dunstanburgh Castle | 1.3 miles one way | Craster harbour | Castle ruins |
| Alnmouth estuary | 3 miles round | Alnmouth village car park | Birdwatching |

The coastal bus 418 stops on Hawksmouth green about every two hours, so you can walk one way
and bus back. Do check the last bus: it leaves Craster at 17:40, and it's a long walk back in
the dark.

## Eating and drinking

- **The Coble Inn**, Hawksmouth village, 10 minutes' walk: a proper pub, food 12 to 8pm, dogs
  welcome in the bar. Book for Sunday lunch.
- **Haven Fryer**, Hawksmouth harbour: the best fish and chips on the coast (we're biased).
  Closed Mondays.
- **The Lookout**, our own clubhouse: see your welcome book for times.
- Craster has a smokehouse for kippers and a cafe by the harbour that does a cracking crab
  sandwich.

## Days out

- Alnwick Castle and The Alnwick Garden: 25 minutes by car. Book online for the best price.
- Bamburgh Castle: 35 minutes north, with a beach to match.
- Farne Islands boat trips from Seahouses, 30 minutes away: puffins from May to late July.
  The boats don't sail in a big swell, so ring on the morning.
- Holy Island (Lindisfarne): about 50 minutes. The causeway floods at high tide, so only cross
  within the published safe crossing times. Every year somebody gets stuck. Don't be that
  somebody.
- Rainy day: Barter Books in Alnwick's old railway station, with a coal fire in winter.

## Shops and services

- The park shop has the basics, fresh bread, Calor gas and local beer.
- Big supermarkets are in Alnwick, 20 minutes' drive.
- The nearest cash machine is at the Post Office in Hawksmouth (free withdrawals), open Monday
  to Saturday mornings.
- There's no petrol on the coast road; fill up in Alnwick.
- Vet: Coquet Vets, Alnwick, 01665 960377.
""",
    "website_faq.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>FAQs | Saltmarsh Bay Holiday Park, Northumberland</title>
</head>
<body>
<h1>Frequently asked questions</h1>
<p>Can't find what you're looking for? Ring us on 01665 960214 or e-mail
hello@saltmarshbay.example and Kirsty or one of the team will help.</p>

<h2>Booking</h2>

<h3>How much deposit do I pay?</h3>
<p>A deposit of 25% secures your booking, and the balance is due 8 weeks before you arrive. If
you book within 8 weeks of your arrival date, you pay in full when you book.</p>

<h3>What if I need to cancel?</h3>
<p>Cancel more than 8 weeks before arrival and you lose your deposit only. Inside 8 weeks we
keep the full amount, unless we manage to re-let your dates, in which case we refund everything
except a £25 admin fee. We strongly recommend holiday insurance.</p>

<h3>Can I choose my caravan or pitch?</h3>
<p>Yes, for a pitch request fee of £10 per stay. Otherwise we allocate the best we have
available when you arrive.</p>

<h3>How old do I have to be to book?</h3>
<p>The lead guest must be 21 or over and must stay for the whole booking.</p>

<h3>Do you take groups?</h3>
<p>We're a family park, so we don't take groups where everyone is under 25, or more than two
units booked together without talking to us first. Families and friends holidaying together
are very welcome; just ring us.</p>

<h2>Your stay</h2>

<h3>Is the park accessible?</h3>
<p>Eider caravans 23 and 24 have ramps, a wet room and wider doors, and our pool has a hoist.
The touring amenity block has an accessible shower room, opened with a RADAR key.</p>

<h3>When is the shop open?</h3>
<p>8am to 8pm in the summer holidays and 8:30am to 5:30pm for the rest of the season. It sells
milk, fresh bread from the Hawksmouth bakery every morning, local beer, Calor gas and
newspapers (order by 4pm for the next day).</p>

<h3>Can non-residents use the clubhouse?</h3>
<p>The Lookout bar is open from 12 noon to 11pm (midnight on Fridays and Saturdays). Everyone is
welcome until 8pm; after that it's guests and owners only. Under-18s must be out of the bar by
9pm.</p>

<h3>Is there a launderette?</h3>
<p>Yes, in the touring amenity block, open 8am to 9pm. Washers are £4 and dryers £2 a cycle,
paid with tokens from reception or the shop.</p>

<h3>Can I have a barbecue?</h3>
<p>Yes, as long as it's raised off the ground and at least 3 metres from any caravan, lodge or
tent. No disposable barbecues on the grass, no fire pits and no open fires anywhere.</p>

<h3>Can friends come and visit us?</h3>
<p>Day visitors are welcome but must sign in at reception and be off the park by 10pm.
Visitors pay £5 per adult to use the pool.</p>

<h2>Touring</h2>

<h3>How big a motorhome can you take?</h3>
<p>Our hardstanding pitches take units up to 8.5 metres. Grass pitches suit units under 7
metres, and aren't suitable for anything over 3.5 tonnes in very wet weather.</p>

<h3>Do you have EV charging?</h3>
<p>Yes: two 7kW chargers in the reception car park, paid by app at 45p per kWh. Please don't
charge cars from your pitch hook-up or caravan, as it overloads the supply.</p>

<h3>Where do I empty my toilet cassette?</h3>
<p>The Elsan point is beside the touring amenity block, next to the fresh-water tap and the
grey-water drain.</p>

<h3>Can I put up a gazebo?</h3>
<p>Awnings and porch awnings are free. A gazebo is fine if it fits on your own pitch, and please
take it down overnight if the wind gets up.</p>
</body>
</html>
""",
}

#: Born-digital PDFs: pages of lines, as :func:`benchmarks.mixed_corpus.write_text_pdf`.
PDF: dict[str, list[list[str]]] = {
    "park_rules_and_owners_licence.pdf": [
        [
            "SALTMARSH BAY HOLIDAY PARK",
            "Park Rules and Holiday Home Owners' Licence Terms - 2026 edition",
            "Saltmarsh Bay Holiday Park Ltd, Coble Lane, Hawksmouth, Alnwick NE66 3QX.",
            "Directors: James Dodds and Moira Dodds. Effective from 1 March 2026.",
            "",
            "PART A - PARK RULES (ALL GUESTS, VISITORS AND OWNERS)",
            "A1. Everyone on the park must follow these rules. Breaking them may lead to a guest",
            "being asked to leave without a refund, or to the ending of an owner's licence under",
            "Part B.",
            "A2. Speed limit: 5 mph everywhere on the park. No vehicle movements between 11pm",
            "and 7am, except emergency vehicles.",
            "A3. Quiet time is 11pm to 7am. No music may be audible outside your unit during",
            "quiet time.",
            "A4. Children under 12 must be supervised by an adult at all times in the play area,",
            "the pool building and near the dunes.",
            "A5. Day visitors must sign in at reception and leave the park by 10pm. Guests are",
            "responsible for the behaviour of their visitors. Visitors may not stay overnight",
            "unless they are included in the booking.",
            "A6. Barbecues must be raised off the ground. Fire pits, chimeneas, sky lanterns,",
            "fireworks and open fires are not allowed anywhere on the park, including on",
            "5 November.",
            "A7. Drones may not be flown over the park without written permission from the",
            "management.",
            "A8. No ball games between caravans or lodges; use the games field beside the play",
            "area.",
            "A9. Dogs (no more than two per unit) must be kept on a lead no longer than 2 metres",
            "everywhere on the park except the dog exercise field. Owners must clean up after",
            "them. Dogs of breeds covered by the Dangerous Dogs Act 1991 are not allowed.",
            "A10. Smoking and vaping are not allowed inside any unit, the clubhouse, the shop,",
            "the pool building or the amenity block.",
            "A11. Electric scooters and hoverboards may not be ridden on the park. Bicycles are",
            "welcome but must show lights after dark.",
            "A12. The management may enter any hire unit to carry out urgent repairs after",
            "knocking, and without notice in an emergency.",
        ],
        [
            "PART B - HOLIDAY HOME OWNERS' LICENCE TERMS",
            "B1. Term. The licence runs for as long as the holiday home stays on the park, subject",
            "to B9, and allows the owner to site one holiday home on the pitch named in it.",
            "B2. Holiday use only. The holiday home is for holidays and may not be used as",
            "anyone's only or main residence. The owner must give proof of a permanent home",
            "address (a council tax or utility bill dated within the last three months) by",
            "31 March each year.",
            "B3. Season. Owners and their guests may use the holiday home from 1 March to",
            "3 January the following year. The park is closed from 4 January to the end of",
            "February, and no one may stay overnight. During the closed period owners may visit",
            "to check on their home between 10am and 3pm on weekdays, after telling the site",
            "manager.",
            "B4. Pitch fee. The pitch fee is set each year and invoiced in early November for the",
            "following season. It must be paid in full by 1 March, with a 2% discount if paid by",
            "31 January, or by ten monthly direct debits from March to December. If an",
            "instalment is more than 28 days late, the whole of the remaining fee becomes due.",
            "B5. Services. Electricity is metered to each pitch and billed quarterly. Water,",
            "drainage and business rates are included in the pitch fee.",
            "B6. Insurance and safety. Owners must insure their holiday home, including public",
            "liability cover of at least 5 million pounds, and send the certificate to reception",
            "by 31 March each year. The gas installation must be checked by a Gas Safe registered",
            "engineer every 12 months, and the electrics inspected every 3 years.",
            "B7. Letting. Owners may lend their home to family and friends free of charge, if",
            "reception is told the guests' names and dates in advance. Letting for money is",
            "allowed only through the park's own letting scheme, which charges commission of 30%",
            "of the rent.",
            "B8. Alterations. No decking, skirting, shed, extension or change of colour without",
            "the written approval of the management (see the current decking guidance).",
        ],
        [
            "B9. Age of holiday homes. A holiday home may stay on the park until the end of the",
            "season in which it becomes 20 years old. After that the management may agree a",
            "one-year extension at a time, if the home passes an inspection of its condition",
            "and appearance.",
            "B10. Selling. An owner may sell the holiday home on its pitch only with the prior",
            "approval of the management, which will not be unreasonably withheld. The park is",
            "entitled to commission of 15% of the sale price. No commission is due on a home",
            "sold for removal from the park.",
            "B11. Ending the licence. The management may end the licence on 28 days' written",
            "notice if the owner seriously breaks these terms and does not put it right within",
            "14 days of a written warning, or at once for violence or threats towards staff,",
            "owners or guests.",
            "B12. Owners' pets. Owners may keep up to two dogs or cats at their holiday home and",
            "do not pay the dog charge.",
            "",
            "Questions about these terms: Moira Dodds, owners@saltmarshbay.example.",
            "",
            "Signed for Saltmarsh Bay Holiday Park Ltd: ______________________  Date: __________",
            "Signed by the owner(s): ______________________  Pitch number: ______",
        ],
    ],
}
