"""An unseen corpus: the public documents of a town's library service.

Harrowgate Vale Libraries, run by Harrowgate Vale Borough Council: the Central Library on
Abbey Street, two branch libraries (Northgate and Saltersford) and a mobile library, the Vale
Rover. The council's membership and borrowing policy, the slides of the Friends of the
library's AGM, an opening-hours and events workbook, the mobile library timetable export, two
e-mails (the spring newsletter to members and the notice of Northgate's closure for
refurbishment), a help page on e-books and online services in Markdown, the website FAQ in
HTML and a three-page computer and Wi-Fi acceptable use policy. Written in the mixed voice of
council officers and library staff, independently of every other corpus here, with its
questions (``questions.jsonl``) written before the corpus was built. Text drawn into the PDF
stays inside Latin-1.
"""

from __future__ import annotations

from typing import Any

#: Word documents: ``(kind, content)`` blocks, as :func:`benchmarks.mixed_corpus.write_docx`.
DOCX: dict[str, list[tuple[str, Any]]] = {
    "membership_and_borrowing_policy.docx": [
        ("title", "Harrowgate Vale Libraries: Membership and Borrowing Policy"),
        (
            "p",
            "Harrowgate Vale Borough Council. Approved by the Communities Committee on 19 "
            "January 2026 and in force from 1 April 2026. Policy owner: Gwen Oduya, Head of "
            "Library and Information Services.",
        ),
        ("h1", "1. Purpose and scope"),
        (
            "p",
            "This policy sets out who may join, what members may borrow and for how long, and "
            "the charges that apply, at the Central Library on Abbey Street, Northgate Library, "
            "Saltersford Library and the mobile library (the Vale Rover). Joining is free.",
        ),
        ("h1", "2. Who can join"),
        (
            "p",
            "Anyone who lives, works or studies in the United Kingdom may join. Bring photo ID "
            "and one proof of your current address dated within the last three months, for "
            "example a utility bill, council tax bill or bank statement. A single document "
            "showing both, such as a photocard driving licence, is acceptable.",
        ),
        (
            "li",
            "Adults (16 and over) join in their own name and are responsible for everything "
            "borrowed on their card.",
        ),
        (
            "li",
            "Children can have their own card from birth. A parent or carer with parental "
            "responsibility must sign the application and is responsible for items borrowed on "
            "the child's card until the child turns 16.",
        ),
        (
            "li",
            "Children's cards cannot borrow DVDs or Blu-rays rated 12 or above unless a parent "
            "or carer has ticked the film consent box on the application.",
        ),
        (
            "li",
            "Visitors who cannot show a proof of address may join as temporary members. "
            "Temporary membership lasts six months and allows two books on loan at a time, with "
            "no DVDs.",
        ),
        ("h1", "3. Your library card"),
        (
            "p",
            "You need your card number and four-digit PIN to borrow, renew, reserve, book a "
            "computer and use online services; the digital card in the Harrowgate Vale "
            "Libraries app works too. Report a lost or stolen card straight away: you are "
            "responsible for anything borrowed on it until you do. A replacement for a stolen "
            "card is free if you give us a police crime reference number.",
        ),
        ("h1", "4. Loans and renewals"),
        (
            "table",
            [
                ["Item type", "Loan period", "Adult card limit", "Child card limit"],
                ["Books and audiobooks on CD", "3 weeks", "15 items", "10 items"],
                ["Quick Picks (new bestsellers, yellow spine label)", "2 weeks", "2", "none"],
                ["DVDs and Blu-rays", "1 week", "4", "2"],
                ["Reading group sets (up to 12 copies)", "6 weeks", "1 set", "none"],
            ],
        ),
        (
            "p",
            "The overall limit is 15 items on an adult card and 10 items on a child's card, "
            "whatever the mix.",
        ),
        (
            "p",
            "Items can be renewed up to three times, in person, online, in the app or by phoning "
            "the renewals line on 01632 960 400 (09:00 to 17:00, Monday to Friday). An item "
            "cannot be renewed if another member has reserved it, and Quick Picks cannot be "
            "renewed at all.",
        ),
        (
            "li",
            "Return items to any Harrowgate Vale library or to the Vale Rover, whichever "
            "library issued them.",
        ),
        (
            "li",
            "The Central Library book drop, beside the main entrance, is open 24 hours a day; "
            "items posted after closing are backdated to the previous opening day.",
        ),
        (
            "li",
            "Books borrowed from the Vale Rover are lent for four weeks rather than three, so "
            "that they fall due on one of the Rover's fortnightly visits to your stop.",
        ),
        ("h1", "5. Charges"),
        (
            "p",
            "The Council stopped charging overdue fines on children's cards on 1 April 2025. "
            "Adult overdue charges still apply. Members aged 65 and over, and members who "
            "receive Universal Credit, Pension Credit or Personal Independence Payment, pay the "
            "concession rate: show proof once and it is recorded on your card.",
        ),
        (
            "table",
            [
                ["Charge", "Adult", "Concession", "Child (under 16)"],
                ["Overdue book or audiobook, per item per day", "20p", "10p", "No charge"],
                ["Maximum overdue charge per item", "£5.00", "£2.50", "No charge"],
                ["DVD or Blu-ray hire, per item per week", "£1.80", "£1.20", "90p"],
                ["Overdue DVD or Blu-ray, per item per day", "£1.00", "75p", "No charge"],
                ["Reserving an item from Harrowgate Vale stock", "Free", "Free", "Free"],
                ["Inter-library loan from another authority", "£4.50", "£2.25", "Free"],
                ["Replacement library card", "£2.00", "£1.50", "50p"],
                [
                    "Lost or damaged item",
                    "Cost of replacement plus £3.00 admin fee",
                    "As adult",
                    "Cost of replacement only",
                ],
            ],
        ),
        (
            "li",
            "Your card is blocked from borrowing once you owe £8.00 or more. You can still use "
            "the computers and return items while it is blocked.",
        ),
        (
            "li",
            "An item more than six weeks overdue is treated as lost and invoiced. If you return "
            "it in good condition within 30 days of the invoice, the invoice is cancelled and "
            "only the overdue charge remains.",
        ),
        (
            "li",
            "Staff may waive up to £10 of charges in exceptional circumstances, such as a "
            "hospital stay or a bereavement; larger amounts need the library manager's "
            "agreement.",
        ),
        ("h1", "6. Reservations"),
        (
            "p",
            "Reserve online, in the app or at any counter. You can have up to 10 "
            "reservations at a time. We will tell you by e-mail or text message when an item is "
            "ready, and keep it for 7 days at the collection point you chose. Items can be "
            "collected from any of the three libraries; the Vale Rover can take reservations "
            "but cannot be a collection point.",
        ),
        ("h1", "7. Home Library Service"),
        (
            "p",
            "If you cannot get to a library because of age, illness, disability or caring "
            "responsibilities, trained volunteers will bring books to your home "
            "every four weeks. There are no overdue charges on Home Library Service loans. To "
            "apply, call the Home Library Service coordinator, Brenda Causley, on "
            "01632 960 417.",
        ),
        ("h1", "8. Conduct and withdrawal of membership"),
        (
            "p",
            "Membership may be suspended for abusive behaviour, deliberate damage or repeated "
            "failure to return items. Appeal in writing to the Head of Library and Information "
            "Services within 28 days of the decision.",
        ),
    ],
}

#: Slide decks, as :func:`benchmarks.mixed_corpus.write_pptx`.
PPTX: dict[str, list[dict[str, Any]]] = {
    "friends_agm_2026.pptx": [
        {
            "title": "Friends of Harrowgate Vale Libraries: AGM 2026",
            "body": [
                "Annual General Meeting, Saturday 14 March 2026, 10:30",
                "Lecture Room, Central Library, Abbey Street",
                "Chair: Patricia Hume",
            ],
            "notes": (
                "Welcome everyone. Fire exits are either side of the stage; toilets are past the "
                "lift. Apologies received from Cllr Dev Raman and from three members. Tea and "
                "biscuits afterwards in the foyer."
            ),
        },
        {
            "title": "Agenda",
            "body": [
                "Minutes of the 2025 AGM and matters arising",
                "Chair's report",
                "Treasurer's report and independent examination",
                "Election of officers",
                "Plans for 2026-27",
                "Subscriptions vote and any other business",
            ],
        },
        {
            "title": "Our year in numbers",
            "table": [
                ["Measure", "2024-25", "2025-26"],
                ["Members", "212", "247"],
                ["Volunteer hours", "3,150", "3,860"],
                ["Book sale income", "£2,870", "£3,412"],
                ["Library events we supported", "18", "24"],
                ["Grants given to the library service", "£4,100", "£5,650"],
            ],
            "notes": (
                "Membership is up by 35, most of them signed up at the Christmas fair. The "
                "volunteer hours include the Home Library Service drivers, who did over a "
                "thousand hours on their own."
            ),
        },
        {
            "title": "What your money paid for in 2025-26",
            "body": [
                "£1,800 for the Summer Reading Challenge: medals, certificates, finale party",
                "£1,250 for large-print and dyslexia-friendly books at Saltersford",
                "£1,050 for a laptop and projector for the Lecture Room",
                "£950 for the sensory garden planters at Northgate",
                "£600 for two Chatterbooks author visits",
            ],
            "notes": (
                "Thank the Saltersford team for the photos of the new large-print shelves. The "
                "planters at Northgate will be stored by the council while the building is "
                "being refurbished."
            ),
        },
        {
            "title": "Treasurer's report",
            "body": [
                "Opening balance, 1 April 2025: £6,118",
                "Income £7,964: subscriptions £1,932, book sales £3,412, Christmas fair "
                "£1,780, donations £840",
                "Spending £6,102: grants to the library £5,650, insurance £287, printing and "
                "postage £165",
                "Closing balance, 31 March 2026: £7,980",
            ],
            "notes": (
                "Geoffrey Lister presenting. The accounts were independently examined by Carol "
                "Benn, who does it for us free of charge; copies are on the table at the back."
            ),
        },
        {
            "title": "Election of officers",
            "table": [
                ["Role", "Nominee", "Status"],
                ["Chair", "Patricia Hume", "Standing again"],
                ["Treasurer", "Geoffrey Lister", "Standing again"],
                ["Secretary", "Naomi Fairweather", "New, replacing Alan Trott"],
                ["Events coordinator", "Sunil Kapoor", "New post"],
                ["Membership secretary", "Joan Whitby", "Standing again"],
            ],
            "notes": (
                "Alan Trott is stepping down after nine years as secretary: present him with "
                "the book tokens and the card before the vote. Nominations closed on 28 "
                "February; no contested posts."
            ),
        },
        {
            "title": "Plans for 2026-27",
            "body": [
                "Big Book Sale: Saturday 9 May 2026, Central Library foyer, 10:00 to 15:00",
                "Help run the Northgate pop-up library during the refurbishment",
                "Fund the Summer Reading Challenge again, target £2,000",
                "Start a Reading Friends group for isolated older readers at Saltersford",
                "Christmas fair: Saturday 28 November 2026",
            ],
            "notes": (
                "We need 12 volunteers for the book sale, for two-hour shifts; the sign-up sheet "
                "is with Sunil. Book donations for the sale can be left at the Central Library."
            ),
        },
        {
            "title": "Membership and how to help",
            "body": [
                "Annual subscription: £10 individual, £15 household, £5 concessions and students",
                "Life membership: £120",
                "Subscriptions are due on 1 April each year",
                "Pay by standing order or at the Central Library enquiry desk",
                "Contact: friends@hvlibrariesfriends.example",
            ],
            "notes": (
                "The rates have not changed since 2023. The committee proposes keeping them the "
                "same for 2026-27; this needs a show of hands."
            ),
        },
    ],
}

#: Workbooks, as :func:`benchmarks.mixed_corpus.write_xlsx`.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "opening_hours_and_events_2026.xlsx": {
        "Opening hours": [
            [
                "Library",
                "Address",
                "Monday",
                "Tuesday",
                "Wednesday",
                "Thursday",
                "Friday",
                "Saturday",
                "Sunday",
                "Notes",
            ],
            [
                "Central Library",
                "Abbey Street, Harrowgate Vale HV1 1AB",
                "09:00-19:00",
                "09:00-19:00",
                "09:00-19:00",
                "09:00-20:00",
                "09:00-17:30",
                "09:00-16:00",
                "11:00-15:00",
                "Local Studies room (second floor) open Tuesday to Saturday only",
            ],
            [
                "Northgate Library",
                "2 Beck Lane, Northgate HV4 3PD",
                "10:00-17:00",
                "Closed",
                "10:00-17:00",
                "13:00-19:00",
                "10:00-17:00",
                "09:30-12:30",
                "Closed",
                "Closed for refurbishment from 1 June 2026; reopens 2 September 2026",
            ],
            [
                "Saltersford Library",
                "Mill Lane, Saltersford HV6 2LT",
                "Closed",
                "09:30-17:00",
                "09:30-13:00",
                "09:30-17:00",
                "14:00-18:00",
                "10:00-13:00",
                "Closed",
                "Step-free entrance by the side door on Mill Lane",
            ],
            [
                "Vale Rover (mobile library)",
                "See the mobile library timetable",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "Visits each stop every two weeks",
            ],
            [
                "Bank holidays",
                "All libraries and the Vale Rover are closed on bank holidays",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
            ],
        ],
        "Events Apr-Jul 2026": [
            ["Date", "Time", "Event", "Library", "Ages", "Cost", "Booking"],
            [
                "Every Monday",
                "10:30-11:00",
                "Baby Rhyme Time",
                "Central Library",
                "0 to 2",
                "Free",
                "Drop in",
            ],
            [
                "Every Tuesday",
                "10:00-10:45",
                "Toddler Story Time",
                "Saltersford Library",
                "2 to 4",
                "Free",
                "Drop in",
            ],
            [
                "Every Thursday",
                "14:00-16:00",
                "Knit and Natter",
                "Northgate Library",
                "Adults",
                "Free",
                "Drop in (moves to Northgate Community Centre from 4 June)",
            ],
            [
                "Sat 11 April 2026",
                "14:00-15:30",
                "Lego Club",
                "Central Library",
                "5 to 11",
                "Free",
                "Drop in, children under 8 with an adult",
            ],
            [
                "Wed 15 April 2026",
                "18:30-20:00",
                "Author talk: Helen Marr on The Salt Roads",
                "Central Library, Lecture Room",
                "Adults",
                "£4.00",
                "Book online or at any counter",
            ],
            [
                "Wed 22 April 2026",
                "10:00-12:00",
                "Digital drop-in: getting started with Libby",
                "Saltersford Library",
                "Adults",
                "Free",
                "Drop in, bring your phone or tablet",
            ],
            [
                "Sat 25 April 2026",
                "10:30-12:00",
                "Family history for beginners",
                "Central Library, Local Studies room",
                "Adults",
                "£6.50",
                "Book ahead, 12 places",
            ],
            [
                "Sat 9 May 2026",
                "10:00-15:00",
                "Friends' Big Book Sale",
                "Central Library, foyer",
                "All ages",
                "Free entry",
                "No booking needed",
            ],
            [
                "Wed 20 May 2026",
                "16:00-17:00",
                "Chatterbooks reading group",
                "Saltersford Library",
                "8 to 12",
                "Free",
                "Book ahead, 10 places",
            ],
            [
                "Sat 30 May 2026",
                "10:00-10:45",
                "Teddy bears' picnic story time",
                "Northgate Library",
                "2 to 5",
                "Free",
                "Drop in",
            ],
            [
                "Sat 13 June 2026",
                "13:00-16:00",
                "Repair Cafe",
                "Saltersford Library",
                "All ages",
                "Free, donations welcome",
                "Drop in, one item per person",
            ],
            [
                "Wed 24 June 2026",
                "19:00-20:30",
                "Crime writing panel with Tom Okafor and Jess Liddell",
                "Central Library, Lecture Room",
                "Adults",
                "£5.00",
                "Book online",
            ],
            [
                "Sat 11 July 2026",
                "10:00-12:00",
                "Summer Reading Challenge launch party",
                "Central Library",
                "4 to 11",
                "Free",
                "Drop in",
            ],
            [
                "Thu 16 July 2026",
                "18:00-19:30",
                "Friends' quiz night",
                "Saltersford Library",
                "Adults, teams of up to 6",
                "£3.00 per person",
                "Book by 9 July",
            ],
        ],
    },
}

#: CSV exports, as :func:`benchmarks.mixed_corpus.write_csv`.
CSV: dict[str, list[list[str]]] = {
    "vale_rover_timetable.csv": [
        [
            "Stop ID",
            "Village or area",
            "Stop location",
            "Postcode",
            "Day",
            "Week",
            "Time",
            "Notes",
            "Good to know",
        ],
        [
            "VR01",
            "Ashby Moor",
            "Lay-by outside the post office",
            "HV8 4QS",
            "Monday",
            "A",
            "09:45-10:30",
            "",
            "Post office sells stamps and newspapers",
        ],
        [
            "VR02",
            "Kelsall Bridge",
            "Village hall car park",
            "HV8 5JA",
            "Monday",
            "A",
            "11:00-12:15",
            "",
            "Village hall toilets open during the visit",
        ],
        [
            "VR03",
            "Thornby",
            "Outside St Oswald's Primary School",
            "HV8 6RT",
            "Monday",
            "A",
            "13:30-14:15",
            "Term time only",
            "Parents please wait at the gate, not on the zigzags",
        ],
        [
            "VR04",
            "Thornby",
            "The Green, by the bus shelter",
            "HV8 6RW",
            "Monday",
            "A",
            "14:30-15:30",
            "",
            "Bus 36 stops here at 14:52 for Saltersford",
        ],
        [
            "VR05",
            "Hollins Cross",
            "Hillside Court care home",
            "HV5 1CE",
            "Tuesday",
            "A",
            "10:00-10:45",
            "Residents and their visitors only",
            "Sign in at the care home reception first",
        ],
        [
            "VR06",
            "Hollins Cross",
            "Car park of The Plough Inn",
            "HV5 2DN",
            "Tuesday",
            "A",
            "11:15-12:30",
            "",
            "By kind permission of the landlord; please don't block the cellar door",
        ],
        [
            "VR07",
            "Brackenfield",
            "Church Road, opposite the war memorial",
            "HV7 3EH",
            "Tuesday",
            "A",
            "13:45-15:15",
            "",
            "Next to the noticeboard",
        ],
        [
            "VR08",
            "Low Fulford",
            "Fulford Methodist Chapel",
            "HV9 1FL",
            "Wednesday",
            "B",
            "09:30-10:15",
            "",
            "Chapel toilets open during the visit",
        ],
        [
            "VR09",
            "High Fulford",
            "Outside the Spar shop, Main Street",
            "HV9 2GB",
            "Wednesday",
            "B",
            "10:45-12:00",
            "",
            "Busy road: please use the crossing by the shop",
        ],
        [
            "VR10",
            "Ravensike",
            "Ravensike Sports Club car park",
            "HV9 4HS",
            "Wednesday",
            "B",
            "13:15-14:45",
            "",
            "Floodlit car park in winter",
        ],
        [
            "VR11",
            "Northgate",
            "Northgate Green, by the shops",
            "HV4 3PA",
            "Thursday",
            "B",
            "15:30-17:30",
            "Extra stop 4 June to 27 August 2026 while Northgate Library is closed",
            "Shared with the Thursday market stalls",
        ],
        [
            "VR12",
            "Deepdale",
            "Deepdale Farm Shop car park",
            "HV7 8JU",
            "Friday",
            "B",
            "10:00-11:00",
            "",
            "Farm shop cafe open for drinks",
        ],
        [
            "VR13",
            "Elmscott",
            "School Lane, outside number 14",
            "HV7 9KD",
            "Friday",
            "B",
            "11:30-12:00",
            "Short stop: reservations and returns",
            "Narrow lane: please park on the main road",
        ],
        [
            "VR14",
            "Saltersford Park",
            "Park Road, by the play area",
            "HV6 3LR",
            "Friday",
            "B",
            "13:30-15:00",
            "",
            "Buggies welcome on board",
        ],
        [
            "Note",
            "Week A: weeks beginning 5 January, 19 January, 2 February 2026 and every second week after; Week B is the week in between.",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
        ],
    ],
}

#: E-mails, as :func:`benchmarks.mixed_corpus.write_eml`.
EML: dict[str, dict[str, Any]] = {
    "spring_newsletter_2026.eml": {
        "subject": "Your library this spring: Easter closures, new kiosks and summer reading",
        "from": "Harrowgate Vale Libraries <news@hvlibraries.example>",
        "to": "members@hvlibraries.example",
        "date": "Thu, 2 Apr 2026 08:00:00 +0100",
        "text": """Hello from all of us at Harrowgate Vale Libraries!

Spring is here, the daffodils are out on Abbey Street and we have lots of news for you.

EASTER OPENING
All our libraries and the Vale Rover are closed on Good Friday (3 April) and Easter Monday
(6 April). We are open as normal on Easter Saturday. Anything due back while we are closed
will automatically be given a few extra days, so no need to worry.

NEW SELF-SERVICE KIOSKS AT SALTERSFORD
Saltersford now has two self-service kiosks, just inside the door. You can borrow, return,
renew and pay charges on them using your card or the app. The team are still there to help,
of course, and Tariq says he will happily show anyone how they work.

SUMMER READING CHALLENGE 2026: "WILD TALES"
This year's challenge for 4 to 11 year olds starts on Saturday 11 July with a launch party at
the Central Library. Read any six library books over the summer holidays to earn a medal and
a certificate. It's free to take part, and you can sign up at any library or on the Vale
Rover. The challenge finishes on Saturday 5 September. We need volunteers aged 14 to 18 to
help out: it looks great on a CV and counts towards Duke of Edinburgh volunteering. Ask
Rhiannon Blake, our children's librarian, for a form.

MAGAZINES ON LIBBY
You can now read more than 3,000 magazines in the Libby app as well as e-books and
e-audiobooks, from Good Housekeeping to Private Eye. Magazines never count towards your
borrowing limit. See our e-books help page for how to get started.

COMING UP
- Helen Marr talks about her new novel The Salt Roads at the Central Library on Wednesday
  15 April at 6.30pm. Tickets are £4.
- The Friends' Big Book Sale is on Saturday 9 May in the Central Library foyer. Hardbacks
  £1, paperbacks 50p, children's books 20p.
- Repair Cafe comes to Saltersford on Saturday 13 June: bring a broken toaster, lamp or
  jumper and our volunteer fixers will have a go.

HELLO AND GOODBYE
After 31 years with the service, Central Library manager Martin Ashcroft retires on
30 April. Thank you, Martin, for everything! His successor, Deborah Quaye, joins us on
Tuesday 5 May from Leeds Libraries. Do come and say hello.

NORTHGATE REFURBISHMENT
Northgate Library will close on 30 May for a summer refurbishment, reopening on 2 September
with a new roof, an accessible toilet and a brand-new children's area. Northgate members will
get a separate e-mail with all the details in May.

HOME LIBRARY SERVICE VOLUNTEERS WANTED
Do you have a couple of hours once a month and a car? Our Home Library Service takes books to
people who can't get to us. Mileage is paid at 45p a mile. Call Brenda on 01632 960 417.

Happy reading,

The Harrowgate Vale Libraries team

You are receiving this because you ticked "keep me informed" when you joined. To stop these
e-mails, reply with UNSUBSCRIBE in the subject line.
""",
    },
    "northgate_closure.eml": {
        "subject": "Northgate Library closing for refurbishment: 1 June to 1 September 2026",
        "from": "Siobhan Kerr <siobhan.kerr@harrowgatevale.gov.example>",
        "to": "northgate.members@hvlibraries.example",
        "date": "Mon, 11 May 2026 09:15:00 +0100",
        "text": """Dear Northgate Library member,

I'm writing to let you know the arrangements while Northgate Library is closed for
refurbishment this summer.

KEY DATES
- Last day of opening: Saturday 30 May (we close at 12:30 as usual).
- Closed: Monday 1 June to Tuesday 1 September.
- Reopening: Wednesday 2 September at 10:00.

WHAT'S BEING DONE
The council is replacing the leaking roof, adding an accessible toilet and baby-change room,
putting in new LED lighting and creating a bigger children's area with a storytelling corner.
We are also getting two self-service kiosks. The work is being done by Pennine Build Ltd and
costs £318,000, paid from the council's community buildings fund.

YOUR LOANS
Anything borrowed from Northgate that is due back while we are closed has been automatically
extended to Saturday 12 September. You don't need to do anything. You can still return items
early at the Central Library, Saltersford Library or the Vale Rover.

Please don't post books through the Northgate door or the book drop; the book drop will be
sealed from 30 May.

RESERVATIONS
Reservations waiting to be collected at Northgate on 30 May will be moved to the pop-up
library (see below). New reservations can be collected at the pop-up, at the Central Library
or at Saltersford: just choose when you place the reservation.

POP-UP LIBRARY
From Thursday 4 June there will be a pop-up library at Northgate Community Centre, Beck Lane
(next door but one to the library), staffed by me and Friends volunteers:
- Tuesdays 10:00 to 13:00
- Thursdays 14:00 to 18:00
You can borrow from a small collection of new books, return items, collect reservations and
use one of two laptops. Knit and Natter will meet there on Thursdays at the usual time. The
community centre car park is free for the first two hours.

VALE ROVER
The mobile library will also stop on Northgate Green, by the shops, every other Thursday
from 15:30 to 17:30 during the closure.

The computers, printing and the Local Studies collection are at the Central Library, open
seven days a week.

We're sorry for the disruption and can't wait to show you the new library. If you have any
questions, e-mail northgate.library@harrowgatevale.gov.example or call me on 01632 960 452.

Best wishes,

Siobhan Kerr
Library Supervisor, Northgate Library
""",
    },
}

#: Text files written as they are (Markdown and HTML).
TEXT: dict[str, str] = {
    "ebooks_and_online_services.md": """# E-books, e-audiobooks and online services

Harrowgate Vale Libraries help pages. Page owner: Lucy Farrant, Digital Services Librarian.
Last updated March 2026.

Everything on this page is free for library members. You need your library card number (the
14 digits under the barcode, starting 2384) and your four-digit PIN.

## Libby: e-books, e-audiobooks and magazines

Libby is our app for e-books, e-audiobooks and digital magazines. Download it free from the
App Store or Google Play, search for Harrowgate Vale Libraries and sign in with your card.

- Borrow up to **8 e-books and 8 e-audiobooks** at a time.
- Loans last 14 days. You can change this to 7 or 21 days in Libby's settings before you
  borrow.
- Place up to 10 holds (reservations) on titles that are on loan.
- Titles return themselves when the loan ends, so there are never any late charges.
- You can renew a title 3 days before it is due, as long as nobody is waiting for it.
- Magazines are not loans: read as many as you like and keep them for as long as you like.

### Can I use a Kindle?

Libby e-books cannot be sent to Kindle e-readers in the UK. If you have a Kindle Fire tablet,
you can install Libby from the Amazon Appstore. Kobo e-readers work with our e-books, and so
does any phone, tablet or computer.

## PressReader: newspapers

PressReader has today's newspapers from the UK and around the world, on the day they are
published, including the Harrowgate Vale Gazette. Sign in with your library card in the
PressReader app. Each sign-in gives you 30 days of access before you need to sign in again.

## Family history

- **Ancestry Library Edition** can only be used on the library computers or on the library
  Wi-Fi, in any of our three libraries. It is not available from home.
- **Findmypast** can be used from home with your library card.
- Local Studies staff at the Central Library can help you get started; see the events list
  for our family history sessions.

## Learning and reference

- **Theory Test Pro**: practise for the car and motorcycle driving theory tests, free from
  home.
- **Britannica Library**: the encyclopaedia for adults, plus Britannica Kids for ages 6 to 12.
- **Which?**: consumer reviews and product tests. Library computers only.

## Problems signing in?

1. Check you are using the full 14-digit card number, with no spaces.
2. Forgotten your PIN? Use "Reset PIN" on the library catalogue and we will send a new one to
   the e-mail address on your account. For security we cannot give out PINs over the phone.
3. Card expired? Cards need renewing every three years; bring photo ID to any library.
4. Still stuck? Come to a digital drop-in, or e-mail digital@hvlibraries.example and Lucy
   will reply within two working days.
""",
    "faq.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Frequently asked questions | Harrowgate Vale Libraries</title>
</head>
<body>
<h1>Frequently asked questions</h1>
<p>Can't find what you need? Ask at any counter, call 01632 960 400 or e-mail
libraries@harrowgatevale.gov.example.</p>

<h2>Visiting the library</h2>

<h3>Is there parking at the library?</h3>
<p>The Central Library has no car park of its own. The nearest is the Abbey Street
multi-storey, two minutes' walk away (pay and display), and there are two blue badge bays
directly outside the library on Abbey Street. Northgate Library has a small free car park with
eight spaces. At Saltersford there is free on-street parking on Mill Lane for up to two
hours.</p>

<h3>Can I bring my dog?</h3>
<p>Only assistance dogs are allowed inside our libraries and on the Vale Rover. There are dog
hooks and a water bowl outside the Central Library entrance.</p>

<h3>Can I eat and drink in the library?</h3>
<p>Cold drinks in a bottle with a lid are fine everywhere. Hot drinks and food are allowed in
the Reading Room caf&eacute; on the ground floor of the Central Library, which is open
10:00 to 15:00, Monday to Saturday.</p>

<h3>Are there toilets and baby-changing facilities?</h3>
<p>The Central Library and Saltersford Library both have accessible toilets with baby-changing.
Northgate Library has no public toilet at the moment; one is being added in the 2026
refurbishment.</p>

<h3>Do you have a hearing loop?</h3>
<p>Yes, there is a hearing loop at every counter and in the Central Library Lecture Room.</p>

<h3>Is there somewhere quiet to study?</h3>
<p>The silent study area on the second floor of the Central Library has 40 desks with power
sockets. You can't book a desk: it is first come, first served.</p>

<h2>Books and borrowing</h2>

<h3>Can I return books to any library?</h3>
<p>Yes. You can return items to any Harrowgate Vale library or to the Vale Rover. We can't
accept books borrowed from other councils' libraries.</p>

<h3>What if the library doesn't have the book I want?</h3>
<p>Fill in a "suggest a purchase" form online or at the counter. If we decide not to buy it,
we can usually get it for you from another library service as an inter-library loan (there is
a charge for adults).</p>

<h3>Do you take donations of books?</h3>
<p>We don't add donated books to our stock, but the Friends of Harrowgate Vale Libraries
sell them to raise money for the library. Please bring donations to the Central Library on a
Tuesday or Thursday morning, no more than two bags at a time. We can't accept encyclopaedias,
magazines or anything damp or damaged.</p>

<h2>Rooms, lost property and volunteering</h2>

<h3>Can I hire a room?</h3>
<p>Yes. Book at least 10 working days ahead by e-mailing rooms@hvlibraries.example.</p>
<table>
<tr><th>Room</th><th>Seats</th><th>Community groups</th><th>Commercial</th></tr>
<tr><td>Lecture Room, Central Library</td><td>60</td><td>&pound;16 per hour</td>
<td>&pound;28 per hour</td></tr>
<tr><td>Abbey Room, Central Library</td><td>12</td><td>&pound;8 per hour</td>
<td>&pound;14 per hour</td></tr>
<tr><td>Community Room, Saltersford Library</td><td>20</td><td>&pound;10 per hour</td>
<td>&pound;18 per hour</td></tr>
</table>

<h3>I've lost something in the library. What happens to it?</h3>
<p>Lost property is kept at the counter of the library where it was found for four weeks.
Bank cards and passports are handed to the police the same day.</p>

<h3>Can I volunteer?</h3>
<p>Yes: we have volunteers helping with the Home Library Service, digital drop-ins, Lego Club
and the Summer Reading Challenge. You need to be at least 14 to volunteer, and volunteers who
visit people at home need a DBS check, which the council pays for.</p>
</body>
</html>
""",
}

#: Born-digital PDFs: pages of lines, as :func:`benchmarks.mixed_corpus.write_text_pdf`.
PDF: dict[str, list[list[str]]] = {
    "computer_and_wifi_use_policy.pdf": [
        [
            "Harrowgate Vale Borough Council - Library and Information Services",
            "Public Computer and Wi-Fi Acceptable Use Policy",
            "Version 3.1, approved by Gwen Oduya, Head of Library and Information Services,",
            "on 2 February 2026. Applies at the Central, Northgate and Saltersford libraries",
            "and on the Vale Rover. By logging on you agree to this policy.",
            "",
            "1. WHO CAN USE THE COMPUTERS",
            "Library members can use the public computers free of charge for up to two hours a",
            "day, in sessions of up to one hour. Staff may allow more time if nobody is waiting.",
            "Visitors without a library card can buy a guest pass at the counter for GBP 1.50",
            "per hour; photo ID is needed.",
            "Children under 12 must have an adult (18 or over) with them at all times while",
            "using a computer.",
            "Children's cards log on to the Junior profile, which has stronger filtering.",
            "Jobseekers referred by the Jobcentre or the council's Employment Hub can have",
            "an extra two hours a day for job searching and applications.",
            "",
            "2. BOOKING",
            "Computers can be booked up to seven days ahead, online, by phone or at the",
            "counter. A booked session that is not claimed within 10 minutes of its start time",
            "is released to the next person waiting.",
            "",
            "3. FILTERING AND MONITORING",
            "The council filters internet access on the computers and the Wi-Fi to block",
            "illegal material, pornography, gambling and sites known to spread malware.",
            "No filter is perfect. If a legitimate site is blocked, tell staff; ICT will review",
            "the request within two working days.",
            "Session records (card number, computer and time) are kept for 12 months and may",
            "be given to the police if the law requires it. We do not record the content of",
            "e-mails or messages.",
        ],
        [
            "4. WHAT YOU MUST NOT DO",
            "- view, download or send illegal, obscene or hateful material;",
            "- harass, threaten or bully anyone, online or in the library;",
            "- try to get round the filtering, install software or change computer settings;",
            "- use another person's card or PIN, or let someone else use your session;",
            "- play sound aloud: use headphones, which you can buy at the counter for GBP 2;",
            "- eat at the computers.",
            "Gaming is allowed on the computers, except during the after-school rush from",
            "15:30 to 17:30 on weekdays when the computers are kept for homework.",
            "",
            "5. YOUR FILES AND PRIVACY",
            "Everything you save on a library computer is deleted when you log off or the",
            "computer restarts. Save your work to a USB memory stick or to your own cloud",
            "storage. USB memory sticks (16 GB) are on sale at the counter for GBP 5.",
            "Staff cannot recover lost files and are not responsible for your data.",
            "Always log out of e-mail and banking sites before you finish.",
            "",
            "6. PRINTING, COPYING AND SCANNING",
            "Printing and photocopying are paid for at the counter, by cash or card.",
            "A4 black and white: 15p per side",
            "A4 colour: 60p per side",
            "A3 black and white: 30p per side",
            "A3 colour: GBP 1.20 per side",
            "Scanning to e-mail or to a USB memory stick is free.",
            "To print from your own laptop or phone, upload the file at print.hvlibraries.example",
            "and release it at any library printer. Jobs are held for 24 hours, then deleted.",
            "The Vale Rover cannot print.",
        ],
        [
            "7. WI-FI",
            "Free Wi-Fi is available in all three libraries and on the Vale Rover. Connect to",
            "HVL-Public (no password) and accept the terms on the welcome page once a day.",
            "Each Wi-Fi session lasts up to four hours, after which you simply reconnect.",
            "The same filtering applies as on the library computers.",
            "",
            "8. ACCESSIBILITY",
            "One computer in each library has a large-key keyboard, a trackball mouse and the",
            "ZoomText magnifier and JAWS screen reader. At the Central Library this is PC 1,",
            "next to the enquiry desk. It can be booked for up to three hours a day.",
            "",
            "9. IF THE POLICY IS BROKEN",
            "First breach: a verbal warning and your session is ended.",
            "Second breach within 12 months: you may not use the computers for one month.",
            "Serious breaches, such as accessing illegal material or threatening staff, may",
            "lead to an immediate ban from the computers of up to 12 months and may be",
            "reported to the police.",
            "You can appeal in writing to the Head of Library and Information Services within",
            "14 days of the decision.",
            "",
            "Next review: February 2027.",
        ],
    ],
}
