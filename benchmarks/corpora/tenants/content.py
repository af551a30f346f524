"""Documents that Millbeck Homes, a small housing association in the (fictional) Northern
English town of Thornsby, gives to its tenants on the Ravensholme, Moorfield and Carr Lane
estates, Prospect Street and the Beckside Court over-55s scheme: a tenants' handbook, a
residents' meeting slide deck with speaker notes, the 2026/27 rent and service-charge
workbook, an export of repairs contractors' contact details, two e-mails (the yearly gas
safety check programme and a summer e-newsletter), a damp-and-mould advice page, the
website FAQ page and the pets policy. Plain English throughout: the handbook and FAQ are
warm and practical, the policy is formal, the e-mails are chatty."""

from __future__ import annotations

from typing import Any

DOCX: dict[str, list[tuple[str, Any]]] = {
    "millbeck_tenants_handbook_2025.docx": [
        ("title", "Millbeck Homes - Your Tenant Handbook (2025 edition)"),
        ("h1", "Welcome"),
        (
            "p",
            "Welcome to your new home, and welcome to Millbeck Homes. We are a small, "
            "not-for-profit housing association and we look after just over 1,100 homes in "
            "and around Thornsby: houses on the Ravensholme and Moorfield estates, the flats "
            "at Carr Lane, the terraced houses on Prospect Street and our independent living "
            "scheme for people aged 55 and over at Beckside Court. We were set up in 1998 "
            "when the homes transferred from Thornsby Borough Council, so some of our longer "
            "standing tenants still call us 'the council'. We don't mind a bit.",
        ),
        (
            "p",
            "This handbook explains what you can expect from us and what we expect from you. "
            "Please keep it somewhere safe, next to your tenancy agreement. If anything in it "
            "isn't clear, give us a ring and we will talk you through it. - Maureen Hartley, "
            "Chief Executive",
        ),
        ("h1", "Getting in touch"),
        (
            "p",
            "Our office is Millbeck House, 22 Cloth Hall Street, Thornsby TH1 3LP. The main "
            "switchboard number is 01632 960 400 and you can e-mail us at "
            "hello@millbeckhomes.org.uk. For repairs, ring 01632 960 411 or e-mail "
            "repairs@millbeckhomes.org.uk.",
        ),
        (
            "p",
            "When the office is closed, emergency repairs can be reported to our out-of-hours "
            "service on 01632 960 499. This line is answered by Thornsby Careline on our "
            "behalf, every evening, all weekend and on bank holidays. Please only use it for "
            "real emergencies; anything else can wait until we open.",
        ),
        (
            "p",
            "Each estate has its own Housing Officer who deals with your tenancy, neighbour "
            "problems and estate inspections:",
        ),
        ("li", "Ravensholme and Prospect Street - Dean Whitworth"),
        ("li", "Moorfield - Gemma Lister"),
        ("li", "Carr Lane and Beckside Court - Shazia Akhtar"),
        (
            "p",
            "Beckside Court also has a Scheme Manager, Pauline Greenhalgh, who is on site "
            "from 8.30am to 2.30pm on weekdays.",
        ),
        ("h1", "Your tenancy"),
        (
            "p",
            "Most new tenants start with a starter tenancy. This is a trial period that lasts "
            "12 months. If you keep to the terms of your tenancy during that time, it becomes "
            "an assured tenancy automatically and you don't need to do anything. If there "
            "have been problems, such as rent arrears or complaints from neighbours, we can "
            "extend the starter period once, by a further 6 months, and we will always tell "
            "you why in writing.",
        ),
        (
            "p",
            "Tenants who move to us from another housing association or a council, and who "
            "already had a secure or assured tenancy there, are given an assured tenancy "
            "straight away.",
        ),
        ("h1", "Paying your rent"),
        (
            "p",
            "Your rent is due weekly in advance, on a Monday. We charge rent over 48 weeks of "
            "the year, which means there are four 'rent-free' weeks when nothing is due: "
            "two at Christmas, one in late August and one at the end of March. The dates for "
            "each year are in the rent and payment dates workbook we send every spring. "
            "Rent-free weeks are only rent-free if your account is clear - if you are behind, "
            "please keep paying to bring your balance down.",
        ),
        (
            "p",
            "If you are finding it hard to pay, talk to us early. Our Money Advice Officer, "
            "Kevin Ashworth, can help you check you are getting all the benefits you are "
            "entitled to, set up an affordable plan to pay off arrears and put you in touch "
            "with other help. His advice is free and confidential.",
        ),
        ("h1", "Repairs"),
        (
            "p",
            "You can report a repair by phone, by e-mail, through the MyMillbeck online "
            "account, or in person at Millbeck House. Please tell us your name, address and "
            "a phone number we can reach you on, and describe the problem as clearly as you "
            "can. A photo helps a lot. We will give you a job number - keep it, as it makes "
            "it much quicker to chase a job.",
        ),
        (
            "p",
            "We put every repair into one of four priorities. The priority decides how "
            "quickly we will come out.",
        ),
        (
            "table",
            [
                ["Priority", "Examples", "Our target"],
                [
                    "Emergency",
                    "Gas leak (ring the National Gas Emergency line first on 0800 111 999), "
                    "flooding or a burst pipe, total loss of electricity, a front or back "
                    "door that won't lock, your only toilet blocked, no heating in winter "
                    "where someone in the home is elderly, disabled or a young child",
                    "Attend within 4 hours and make safe within 24 hours",
                ],
                [
                    "Urgent",
                    "Partial loss of electricity, no hot water but heating still working, "
                    "a leak you can contain with a bucket, a faulty door-entry system, "
                    "a blocked sink or bath",
                    "Complete within 5 working days",
                ],
                [
                    "Routine",
                    "Dripping taps, sticking doors or windows, loose floor tiles, broken "
                    "kitchen cupboard doors, cracked wall tiles, blocked gutters",
                    "Complete within 20 working days",
                ],
                [
                    "Planned",
                    "Replacement kitchens, bathrooms, windows, doors, boilers and roofs",
                    "Carried out through our planned programme - we write to you before work starts",
                ],
            ],
        ),
        (
            "p",
            "For non-emergency jobs we offer morning appointments (8am to 12pm), afternoon "
            "appointments (12pm to 4pm) and a school-run slot (9.30am to 2.30pm). If nobody "
            "is in when we call, the operative will leave a card. If we are turned away or "
            "nobody is in for two booked appointments in a row on the same job, we may charge "
            "a £30 missed appointment fee.",
        ),
        ("h1", "Who repairs what"),
        (
            "p",
            "We are responsible for the structure and outside of your home, and for the "
            "fixtures and services we provide. You are responsible for some smaller items, "
            "and for any damage caused by you, your household or your visitors.",
        ),
        (
            "table",
            [
                ["Item", "Who is responsible"],
                ["Boiler, radiators and heating pipes", "Millbeck Homes"],
                ["Light bulbs and fluorescent tubes inside your home", "You"],
                ["Lighting in communal hallways and stairs", "Millbeck Homes"],
                ["Toilet seats, bath and sink plugs and chains", "You"],
                [
                    "Smoke and carbon monoxide alarms",
                    "Millbeck Homes fit and service them; you "
                    "should press the test button once a month",
                ],
                ["Boundary fences at the front of the house", "Millbeck Homes"],
                ["Gates, sheds and fences between back gardens", "You"],
                [
                    "Grass, hedges and garden tidiness",
                    "You, unless you are on our Garden Help scheme",
                ],
                ["Washing machine and dishwasher plumbing", "You"],
                ["TV aerial", "Millbeck Homes for communal aerials in flats; you in houses"],
                [
                    "Lost keys and lock changes",
                    "You - if we change the lock for you, the charge is £45",
                ],
                ["Internal decoration", "You"],
            ],
        ),
        ("h1", "Gas safety"),
        (
            "p",
            "The law says we must check every gas appliance we own once a year. Our contractor "
            "will write to you with an appointment. Please let them in: this check keeps you "
            "and your neighbours safe. If we can't get in after several tries we can apply "
            "to court for access and the costs may be added to your rent account.",
        ),
        ("h1", "Insuring your belongings"),
        (
            "p",
            "Our buildings insurance covers the structure of your home, but it does not cover "
            "your furniture, clothes, carpets or other belongings, for example after a fire, a "
            "flood or a break-in. We strongly recommend contents insurance. Millbeck Contents "
            "Cover, arranged through Crescent Insurance, starts at £1.45 a week for £10,000 "
            "of cover, and you can pay it with your rent. Ask at the office for a leaflet.",
        ),
        ("h1", "Making changes to your home"),
        (
            "p",
            "You must ask us in writing before making any improvement or alteration, such as "
            "fitting a new kitchen, putting up a shed, taking out a wall, fitting a satellite "
            "dish or putting in a driveway. We will reply within 15 working days. Please don't "
            "start work before you have our permission in writing.",
        ),
        (
            "p",
            "If you live in an upstairs flat, you are not allowed to put down laminate, wood "
            "or tiled floors in any room except the kitchen and bathroom, because of the noise "
            "it causes to the people below. Carpet with a good underlay is fine.",
        ),
        ("h1", "Lodgers and subletting"),
        (
            "p",
            "If you have an assured tenancy you can take in a lodger, but you must ask our "
            "permission first and tell us if it affects any benefits you get. Starter tenants "
            "cannot take in lodgers. Subletting your whole home while you live somewhere else "
            "is a criminal offence and we will take action to get the home back.",
        ),
        ("h1", "Moving out"),
        (
            "p",
            "If you want to end your tenancy you need to give us at least four weeks' notice "
            "in writing, and the tenancy must end on a Monday. Please hand in all your keys "
            "at Millbeck House by 12 noon on the day the tenancy ends; if keys are late we "
            "will charge another week's rent. Leave the home clean and empty. If we have to "
            "clear belongings, rubbish or a garden, or repair damage, we will charge you.",
        ),
        ("h1", "Complaints"),
        (
            "p",
            "We don't always get things right. If you are unhappy, tell us - by phone, in "
            "writing, by e-mail or in person. At Stage 1, the manager of the service will "
            "look into it and reply within 10 working days. If you are still not happy, ask "
            "for Stage 2 and a senior manager who was not involved will review it and reply "
            "within 20 working days. After that you can take your complaint to the Housing "
            "Ombudsman Service, which is free and independent.",
        ),
    ],
}

PPTX: dict[str, list[dict[str, Any]]] = {
    "spring_residents_meeting_march_2026.pptx": [
        {
            "title": "Spring Residents' Meeting",
            "body": [
                "Tuesday 17 March 2026, 6.30pm to 8.30pm",
                "Ravensholme Community Centre, Holme Lane",
                "Chaired by Brian Oldroyd, Chair of the Millbeck Tenants' Panel",
            ],
            "notes": "Welcome everyone. Fire exits are at the back by the kitchen and through "
            "the side door onto the car park - no drill planned tonight. Toilets are down "
            "the corridor on the left. The hearing loop is switched on, so switch your "
            "aid to T. Tea, coffee and biscuits at the back at the interval. There is a "
            "free raffle for a £25 supermarket voucher, drawn at the end, so hang on to "
            "your ticket.",
        },
        {
            "title": "Tonight's agenda",
            "body": [
                "Your rent from April 2026",
                "How we did on repairs this year",
                "New windows and doors for Moorfield",
                "Beckside Court lift replacement",
                "Community Chest grants",
                "Join the Tenants' Panel",
                "Damp and mould",
                "Your questions",
            ],
        },
        {
            "title": "Your rent from April 2026",
            "body": [
                "Rents go up by 4.8% from Monday 6 April 2026",
                "Average weekly rent rises from £98.40 to £103.12",
                "Beckside Court service charge rises more than other schemes - new lift contract",
                "Rent letters were posted by Friday 27 February",
            ],
            "notes": "Explain the formula: the government lets social landlords raise rents by "
            "the September CPI figure plus 1%. CPI in September 2025 was 3.8%, so the "
            "limit this year is 4.8% and that's what the Board agreed. On average that's "
            "about £4.72 a week more. Important for anyone on Universal Credit: you must "
            "report the new rent on your UC journal yourself after 6 April - it does not "
            "update automatically, and if you forget you'll be paid the old amount. If "
            "anyone is worried about paying, point them to Kevin Ashworth, who has a table "
            "at the back tonight.",
        },
        {
            "title": "Repairs: how we did (April 2025 to February 2026)",
            "table": [
                ["Priority", "Jobs done", "Done on time", "Our target"],
                ["Emergency", "412", "97%", "100%"],
                ["Urgent", "1,186", "91%", "95%"],
                ["Routine", "3,240", "84%", "90%"],
                ["Tenants satisfied with their last repair", "-", "81%", "85%"],
            ],
            "notes": "Be honest about routine repairs - we fell behind in the autumn because our "
            "joinery contractor went into administration in October and we had no "
            "joiner for about seven weeks. Oakwood Joinery started on a new contract on "
            "5 January and the backlog is now down from over 300 jobs to about 90. We "
            "expect to be back on target by the summer.",
        },
        {
            "title": "Moorfield windows and doors programme",
            "body": [
                "186 homes getting new double-glazed windows and a new front door",
                "Work starts Monday 1 June 2026 and should finish by March 2027",
                "Fitted by Kestrel Glazing",
                "Most homes take two days",
            ],
            "notes": "A surveyor will visit every home in April and May to measure up. Each tenant "
            "gets at least two weeks' notice of their fitting dates by letter. Front doors "
            "come in five colours - black, red, dark green, navy blue or grey - and the "
            "tenant chooses at the survey visit. If nobody picks, we fit grey. Back doors "
            "are not included this time unless they fail the survey. Internal window sills "
            "may need making good; Kestrel will fill but not paint, so tenants will need to "
            "touch up the decoration themselves.",
        },
        {
            "title": "Beckside Court lift replacement",
            "body": [
                "The old lift is being replaced by Castle Lift Services",
                "The lift will be out of use from Monday 13 April 2026",
                "Expected back in service by Friday 5 June 2026",
                "Pauline will speak to every upstairs resident before work starts",
            ],
            "notes": "This is the one everyone at Beckside will ask about. For the eight weeks: "
            "residents on the first and second floors who can't manage the stairs can ask "
            "to move into the ground-floor guest flat for the duration, free of charge - "
            "it's first come first served and there's only one, so after that we'll "
            "arrange help with shopping and prescriptions through Pauline. A stair-climber "
            "chair and trained staff will be on site on weekdays, 9am to 5pm, for "
            "appointments. The scooter store is moving to the old laundry drying room. "
            "Residents won't pay any extra service charge for the work itself - the new "
            "lift is paid from our major works budget; the service charge rise is only for "
            "the maintenance contract.",
        },
        {
            "title": "Community Chest grants",
            "body": [
                "Grants of up to £500 for resident groups and community projects",
                "Closing date: Thursday 30 April 2026",
                "Last year's grants included the Carr Lane gardening club and the Prospect "
                "Street Christmas lights",
            ],
            "notes": "Application forms are from Lorraine Pickles, our Tenant Involvement Officer, "
            "or on the website. The panel that decides is made up of three tenants and "
            "two staff, and it meets in the middle of May. Groups need their own bank "
            "account with two signatories who aren't related or living together. We can't "
            "fund trips abroad, alcohol, or anything party political. Individuals can't "
            "apply for themselves - it has to benefit the wider community.",
        },
        {
            "title": "Join the Tenants' Panel",
            "body": [
                "The Panel checks how we're doing and tells the Board what tenants think",
                "Meets on the first Wednesday of the month, 2pm at Millbeck House",
                "No experience needed - training given",
                "We pay your travel and childcare costs",
            ],
            "notes": "We have four places free. We would particularly like to hear from younger "
            "tenants and from Carr Lane, which has nobody on the Panel at the moment. "
            "Meetings last about two hours. Anyone who can't get to daytime meetings can "
            "join by video call. Interested people should leave their name with Lorraine "
            "tonight.",
        },
        {
            "title": "Damp and mould",
            "body": [
                "214 damp and mould reports in 2025",
                "We now inspect within 10 working days of your report",
                "Free mould treatment packs from Millbeck House",
                "Please tell us early - it's never a nuisance to report it",
            ],
            "notes": "Key message: we will not blame tenants for 'lifestyle'. Out of the 214 "
            "reports, around two thirds needed a repair from us - extractor fans, "
            "guttering, insulation - so do report it. Full advice is on the new damp and "
            "mould page on the website. Dehumidifiers can be lent to people while they "
            "wait for work.",
        },
        {
            "title": "Your questions",
            "body": [
                "Ask us anything - or talk to staff over a cuppa afterwards",
                "Next meeting: Tuesday 15 September 2026, 6.30pm",
                "Carr Lane Community Room (Ashby House, ground floor)",
            ],
            "notes": "Questions we know are coming: parking at Carr Lane - say honestly that we're "
            "looking at options with the council but there's nothing agreed and no "
            "promises. Dog mess on Ravensholme - refer to the pets policy and ask people to "
            "report it to Dean with dates and times. Remember to draw the raffle before "
            "people leave.",
        },
    ],
}

XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "rent_and_service_charges_2026-27.xlsx": {
        "By property type": [
            [
                "Property type",
                "Estate / scheme",
                "Bedrooms",
                "Net rent per week",
                "Service charge per week",
                "Total per week",
                "Monthly payment (12 instalments)",
                "Service charge covers",
            ],
            [
                "Bedsit flat",
                "Carr Lane",
                0,
                "£78.40",
                "£14.85",
                "£93.25",
                "£373.00",
                "Communal cleaning, door entry, stair and landing lights, bin store",
            ],
            [
                "1-bed flat",
                "Carr Lane",
                1,
                "£89.65",
                "£14.85",
                "£104.50",
                "£418.00",
                "Communal cleaning, door entry, stair and landing lights, bin store",
            ],
            [
                "2-bed flat",
                "Carr Lane",
                2,
                "£98.20",
                "£14.85",
                "£113.05",
                "£452.20",
                "Communal cleaning, door entry, stair and landing lights, bin store",
            ],
            [
                "1-bed flat (55 and over)",
                "Beckside Court",
                1,
                "£92.10",
                "£31.60",
                "£123.70",
                "£494.80",
                "Scheme Manager, lift maintenance contract, heating and lighting of "
                "the residents' lounge, laundry room, window cleaning, Careline alarm",
            ],
            [
                "2-bed bungalow",
                "Moorfield",
                2,
                "£104.75",
                "£3.20",
                "£107.95",
                "£431.80",
                "Grass cutting of shared verges and greens",
            ],
            [
                "3-bed house",
                "Moorfield",
                3,
                "£114.60",
                "£3.20",
                "£117.80",
                "£471.20",
                "Grass cutting of shared verges and greens",
            ],
            [
                "4-bed house",
                "Moorfield",
                4,
                "£126.45",
                "£3.20",
                "£129.65",
                "£518.60",
                "Grass cutting of shared verges and greens",
            ],
            [
                "2-bed house",
                "Ravensholme",
                2,
                "£101.35",
                "£3.20",
                "£104.55",
                "£418.20",
                "Grass cutting of shared verges and the play area",
            ],
            [
                "3-bed house",
                "Ravensholme",
                3,
                "£112.90",
                "£3.20",
                "£116.10",
                "£464.40",
                "Grass cutting of shared verges and the play area",
            ],
            [
                "2-bed terraced house",
                "Prospect Street",
                2,
                "£99.80",
                "£0.00",
                "£99.80",
                "£399.20",
                "No service charge",
            ],
            [
                "Notes: rents are charged over 48 weeks. Monthly payers pay 48 weeks' charges in "
                "12 equal instalments. Figures are averages for each type; your own rent is in "
                "your rent letter. Service charges are eligible for Housing Benefit and the "
                "housing element of Universal Credit.",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
            ],
        ],
        "Payment dates": [
            [
                "Month",
                "Weeks starting (Mondays)",
                "Weeks charged",
                "Rent-free weeks",
                "Direct debit - 1st of month option",
                "Direct debit - 15th of month option",
            ],
            ["April 2026", "6, 13, 20, 27", 4, "None", "Wed 1 April 2026", "Wed 15 April 2026"],
            ["May 2026", "4, 11, 18, 25", 4, "None", "Fri 1 May 2026", "Fri 15 May 2026"],
            ["June 2026", "1, 8, 15, 22, 29", 5, "None", "Mon 1 June 2026", "Mon 15 June 2026"],
            ["July 2026", "6, 13, 20, 27", 4, "None", "Wed 1 July 2026", "Wed 15 July 2026"],
            [
                "August 2026",
                "3, 10, 17, 24, 31",
                4,
                "Week starting 24 August 2026",
                "Mon 3 August 2026",
                "Mon 17 August 2026",
            ],
            [
                "September 2026",
                "7, 14, 21, 28",
                4,
                "None",
                "Tue 1 September 2026",
                "Tue 15 September 2026",
            ],
            [
                "October 2026",
                "5, 12, 19, 26",
                4,
                "None",
                "Thu 1 October 2026",
                "Thu 15 October 2026",
            ],
            [
                "November 2026",
                "2, 9, 16, 23, 30",
                5,
                "None",
                "Mon 2 November 2026",
                "Mon 16 November 2026",
            ],
            [
                "December 2026",
                "7, 14, 21, 28",
                2,
                "Weeks starting 21 December and 28 December 2026",
                "Tue 1 December 2026",
                "Tue 15 December 2026",
            ],
            [
                "January 2027",
                "4, 11, 18, 25",
                4,
                "None",
                "Mon 4 January 2027",
                "Fri 15 January 2027",
            ],
            [
                "February 2027",
                "1, 8, 15, 22",
                4,
                "None",
                "Mon 1 February 2027",
                "Mon 15 February 2027",
            ],
            [
                "March 2027",
                "1, 8, 15, 22, 29",
                4,
                "Week starting 29 March 2027",
                "Mon 1 March 2027",
                "Mon 15 March 2027",
            ],
            [
                "Direct debits due on a weekend or bank holiday are taken on the next working "
                "day. Weekly payers pay every Monday except in rent-free weeks. The 2027/28 rent "
                "year starts on Monday 5 April 2027.",
                "",
                "",
                "",
                "",
                "",
            ],
        ],
    },
}

CSV: dict[str, list[list[str]]] = {
    "repairs_contractors_contacts_export.csv": [
        [
            "Contractor",
            "Trade",
            "Areas covered",
            "Office phone",
            "Out of hours phone",
            "Email",
            "Contract ends",
            "Notes for tenants",
        ],
        [
            "Pennine Heating Services Ltd",
            "Gas servicing, boilers and heating",
            "All estates",
            "01632 960 530",
            "01632 960 531",
            "bookings@penninehs.co.uk",
            "31/03/2028",
            "Annual gas safety checks. Gas Safe registration 512873",
        ],
        [
            "Thornsby Plumbing & Drains",
            "Plumbing, leaks, blocked drains",
            "All estates",
            "01632 960 540",
            "01632 960 541",
            "jobs@thornsbyplumbing.co.uk",
            "30/09/2027",
            "Blocked drains outside the home are ours to fix; blocked sinks caused by fat or "
            "nappies are recharged",
        ],
        [
            "Aire Valley Electrical",
            "Electrics, smoke and CO alarms",
            "All estates",
            "01632 960 550",
            "01632 960 551",
            "office@airevalleyelec.co.uk",
            "30/09/2027",
            "Electrical safety test every 5 years",
        ],
        [
            "Oakwood Joinery",
            "Joinery: doors, kitchen units, floorboards, stairs",
            "All estates",
            "01632 960 560",
            "None",
            "admin@oakwoodjoinery.co.uk",
            "04/01/2029",
            "Contract started 05/01/2026",
        ],
        [
            "Kestrel Glazing Ltd",
            "Windows and doors",
            "Moorfield programme; glazing repairs all estates",
            "01632 960 570",
            "01632 960 571",
            "survey@kestrelglazing.co.uk",
            "31/03/2027",
            "Boarding up broken windows out of hours",
        ],
        [
            "RidgeLine Roofing",
            "Roofs, gutters, chimneys",
            "All estates",
            "01632 960 580",
            "None",
            "info@ridgelineroofing.co.uk",
            "31/03/2027",
            "Gutter clearing on Ravensholme every October",
        ],
        [
            "Castle Lift Services",
            "Lift repairs and maintenance",
            "Beckside Court",
            "01632 960 590",
            "01632 960 591",
            "service@castlelifts.co.uk",
            "12/04/2031",
            "If someone is trapped in the lift press the lift alarm or ring 999",
        ],
        [
            "SafeLock Locksmiths",
            "Locks, lost keys, lock-outs",
            "All estates",
            "01632 960 600",
            "01632 960 600",
            "help@safelockthornsby.co.uk",
            "31/03/2027",
            "Lock-outs are charged to the tenant: £45 in office hours, £85 out of hours",
        ],
        [
            "Greenway Grounds",
            "Grass cutting and communal grounds",
            "Carr Lane, Beckside Court, Moorfield and Ravensholme verges",
            "01632 960 610",
            "None",
            "crew@greenwaygrounds.co.uk",
            "31/10/2026",
            "Cuts every two weeks from April to October; also runs the Garden Help scheme",
        ],
        [
            "Brightwater Cleaning",
            "Communal cleaning",
            "Carr Lane and Beckside Court",
            "01632 960 620",
            "None",
            "team@brightwaterclean.co.uk",
            "31/03/2027",
            "Carr Lane blocks every Tuesday; Beckside Court on Mondays and Thursdays",
        ],
        [
            "Northern Pest Solutions",
            "Pest control",
            "Communal areas only",
            "01632 960 630",
            "None",
            "bookings@northernpest.co.uk",
            "31/03/2027",
            "Rats and mice in communal areas. Fleas, bedbugs and wasps inside your home are "
            "your responsibility",
        ],
        [
            "ClearAir Damp Solutions",
            "Damp and mould treatment, ventilation",
            "All estates",
            "01632 960 640",
            "None",
            "visits@clearairdamp.co.uk",
            "31/03/2028",
            "Mould washes, anti-mould paint and fitting extractor fans",
        ],
    ],
}

EML: dict[str, dict[str, Any]] = {
    "gas_safety_checks_summer_2026.eml": {
        "subject": "Your yearly gas safety check - Ravensholme and Moorfield, June to August 2026",
        "from": "Tracy Booth, Millbeck Homes <gassafety@millbeckhomes.org.uk>",
        "to": "Ravensholme and Moorfield tenants <tenants-rm@millbeckhomes.org.uk>",
        "date": "Mon, 11 May 2026 10:15:00 +0100",
        "text": (
            "Dear tenant,\n\n"
            "It's that time of year again. Every home with a gas supply has to have a gas "
            "safety check once a year - it's the law, and it's there to keep you, your family "
            "and your neighbours safe from fires, explosions and carbon monoxide poisoning.\n\n"
            "This summer our heating contractor, Pennine Heating Services, will be carrying "
            "out the checks on the Ravensholme and Moorfield estates between 1 June and 28 "
            "August 2026. Carr Lane, Beckside Court and Prospect Street were done in the "
            "winter, so if you live there you can ignore this e-mail.\n\n"
            "What happens next\n\n"
            "- You will get a letter with your appointment date at least 14 days before the "
            "visit.\n"
            "- Appointments are either 8am to 12pm or 12pm to 4pm.\n"
            "- If you work during the week, we have a small number of Saturday morning "
            "appointments on the four Saturdays in July. Ring me to ask for one - they go "
            "quickly.\n"
            "- The check takes about 45 minutes. The engineer will check your boiler, gas "
            "fire if you have one, the pipework and the flue, and will test your smoke and "
            "carbon monoxide alarms at the same time.\n"
            "- If you have your own gas cooker, the engineer will check the connection and "
            "that it is safe to use, but they can't repair it because it belongs to you.\n\n"
            "Every engineer carries a photo ID card from Pennine Heating and their own Gas Safe "
            "card. Always ask to see both, and if you're not sure, don't let them in - ring us "
            "and we'll confirm who they are.\n\n"
            "If the appointment doesn't suit you\n\n"
            "Please ring me to rearrange with at least 48 hours' notice. We would much rather "
            "move your appointment than waste a visit.\n\n"
            "If we can't get in\n\n"
            "If nobody is in for three appointments, we will send a final warning letter. If "
            "we still can't get in after that, we will have to apply to the court for an "
            "injunction to gain access, and the legal costs (usually around £350) will be "
            "charged to your rent account. We really don't want to do this, so please keep "
            "your appointment.\n\n"
            "Older boilers\n\n"
            "If your boiler is more than 15 years old, the engineer will note it for our "
            "boiler replacement programme. We are planning to replace around 60 boilers on "
            "Ravensholme in 2027 and will write to those households separately. A new boiler "
            "doesn't cost you anything.\n\n"
            "A couple of small favours: please clear the boiler cupboard before the visit, and "
            "shut pets in another room while the engineer is working.\n\n"
            "Any questions, just give me a ring.\n\n"
            "Tracy Booth\n"
            "Gas Safety Coordinator, Millbeck Homes\n"
            "Direct line: 01632 960 436\n"
        ),
    },
    "millbeck_news_summer_2026.eml": {
        "subject": "Millbeck News - summer 2026: new office hours, bin changes and the fun day",
        "from": "Lorraine Pickles, Millbeck Homes <news@millbeckhomes.org.uk>",
        "to": "Millbeck tenants <allresidents@millbeckhomes.org.uk>",
        "date": "Fri, 12 Jun 2026 16:40:00 +0100",
        "text": (
            "Hello everyone,\n\n"
            "Here's your summer round-up from Millbeck Homes. If you know a neighbour who "
            "doesn't use e-mail, we'd be grateful if you could pass the news on - printed "
            "copies are also in the Beckside Court lounge and the Carr Lane Community Room.\n\n"
            "1. NEW OFFICE OPENING HOURS\n\n"
            "From Monday 6 July 2026 the reception desk at Millbeck House will be open:\n"
            "Monday to Thursday: 9am to 4.30pm\n"
            "Friday: 9am to 1pm\n\n"
            "We're closing the desk on Friday afternoons so that staff can get out and about "
            "on the estates - Friday afternoons will be used for estate walkabouts and home "
            "visits. Our phone lines won't change: they are still open 8.30am to 5pm, Monday "
            "to Friday, and the out-of-hours emergency repairs number is exactly the same.\n\n"
            "We're also starting a monthly drop-in at the Carr Lane Community Room on the "
            "second Tuesday of every month, 10am to 12 noon, starting on 14 July. Shazia and "
            "Kevin will be there, so it's a good chance to ask about your tenancy or your "
            "rent without coming into town.\n\n"
            "2. CARR LANE BIN COLLECTIONS ARE CHANGING\n\n"
            "Thornsby Council is changing its rounds. From Wednesday 1 July 2026 the big "
            "communal bins at Carr Lane will be emptied on Wednesdays instead of Mondays. The "
            "blue recycling bins will be emptied every other Wednesday, starting on 8 July. "
            "Nothing is changing for the houses on Ravensholme, Moorfield and Prospect "
            "Street.\n\n"
            "Please don't leave furniture, mattresses or bags next to the bins. The council "
            "won't take them, and if we have to clear them we share the cost across everyone's "
            "service charge. You can book a bulky waste collection directly with the council "
            "- the first three items are free for our tenants if you quote the Millbeck "
            "reference code MH-BULKY.\n\n"
            "3. RAVENSHOLME FUN DAY\n\n"
            "Our summer fun day is back! Saturday 1 August 2026, 12 noon to 4pm, on the field "
            "behind Ravensholme Community Centre. Bouncy castle, face painting, a dog show, "
            "a barbecue and the famous tug of war between staff and tenants (we lost last "
            "year). Everything is free. If it rains, we move indoors into the community "
            "centre.\n\n"
            "4. REPAIRS BY TEXT\n\n"
            "You can now report a non-emergency repair by text message, with a photo if you "
            "like, to 07700 900 311. Put your name and address in the message. Please don't "
            "text emergencies - phone them in.\n\n"
            "That's it for now. Have a lovely summer.\n\n"
            "Lorraine Pickles\n"
            "Tenant Involvement Officer\n"
            "01632 960 415\n"
        ),
    },
}

TEXT: dict[str, str] = {
    "damp_and_mould_advice.md": """# Damp and mould: what to do and how we'll help

Damp and mould can damage your health, especially for babies, older people and anyone with
asthma or a breathing problem. It can also ruin clothes, furniture and bedding. If you see
mould or damp in your home, **please tell us straight away**. You won't be blamed, and it is
never a waste of our time.

## What kind of damp is it?

There are three main kinds of damp:

- **Condensation** - the most common. Warm, wet air from cooking, washing and breathing hits a
  cold wall or window and turns back into water. It usually shows up as black spots in corners,
  behind furniture, around windows and on north-facing walls.
- **Penetrating damp** - water getting in from outside, for example through a broken gutter, a
  cracked wall or a leaking roof. It often leaves a brown tide mark and gets worse after rain.
- **Rising damp** - water coming up through the floor because of a fault in the damp-proof
  course. It shows as a line up to about a metre above the floor. This is rare in our homes.

Penetrating and rising damp are always a repair for us. Condensation often has a building cause
too - a broken extractor fan, missing insulation or blocked vents - so we always want to know.

## Ways to cut down condensation

- Put lids on pans when cooking, and turn the extractor fan on.
- Keep the extractor fan running in the bathroom for 20 minutes after a bath or shower.
- Dry washing outdoors if you can. If you have to dry it inside, put it in the bathroom with
  the door closed and the window open or the fan on. Try not to dry clothes on radiators.
- If you have a tumble dryer, make sure it is vented outside, unless it is a condenser type.
- Keep trickle vents at the top of windows open, and don't block air bricks or vents.
- Leave a gap of about 5cm between furniture and outside walls, and don't overfill wardrobes.
- Try to keep all rooms at 16C or warmer while you are at home. Heating a home gently all
  day is better for damp than short blasts of high heat.
- Wipe water off windows and sills every morning.

If you are worried about the cost of heating, our Money Advice Officer can check whether you
can get the Warm Home Discount or other help with energy bills.

## Cleaning off small patches of mould

For a small patch (smaller than a dinner plate), wipe it with a mould remover spray and a damp
cloth, then throw the cloth away. Don't brush it or hoover it, as this sends spores into the
air. Wear gloves and open a window while you do it.

You can pick up a **free mould treatment pack** (spray, cloths, gloves and a mask) from the
reception at Millbeck House, or ask us to post one to you. For anything bigger than a dinner
plate, or mould that keeps coming back, please don't tackle it yourself - report it and we
will treat it.

## What we will do

| Step | What happens | When |
| --- | --- | --- |
| 1 | You report damp or mould by phone, e-mail, text, online or at the office | Any time |
| 2 | We contact you to book an inspection | Within 2 working days |
| 3 | A surveyor inspects your home | Within 10 working days of your report |
| 4 | We send you a written summary of what we found and what we'll do | Within 3 working days of the inspection |
| 5 | ClearAir Damp Solutions carry out a mould wash and any quick fixes | Within 5 working days of the inspection |
| 6 | Bigger repairs (roofs, insulation, new fans) are booked | We give you a date in the written summary |
| 7 | We come back to check the mould hasn't returned | About 6 weeks after the work |

If the damp or mould is so bad that it is an immediate risk to your health - for example
someone in the home has a serious lung condition, or there is a lot of mould in a baby's
bedroom - we treat it as an emergency and will make it safe within 24 hours. If we can't make
your home safe, we will move you into temporary accommodation until it is, at our cost.

## Dehumidifier loans

If you are waiting for repairs, we can lend you a dehumidifier for up to 6 weeks. Because they
use electricity, we will also give you a £20 energy top-up voucher for each loan. Ask when you
report the problem.

## Contact

Ring the repairs line on 01632 960 411, e-mail repairs@millbeckhomes.org.uk, text
07700 900 311 or use your MyMillbeck account.
""",
    "faq.html": """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Frequently asked questions - Millbeck Homes</title></head>
<body>
<header><p>Millbeck Homes | Home | Pay rent | Report a repair | Contact us</p></header>
<main>
<h1>Frequently asked questions</h1>
<p>Can't find the answer you need? Ring us on 01632 960 400 or e-mail hello@millbeckhomes.org.uk.</p>

<h2>Rent and money</h2>
<details><summary>How can I pay my rent?</summary>
<p>There are lots of ways to pay:</p>
<ul>
<li>Direct debit - weekly on a Monday, or monthly on the 1st or the 15th. This is the easiest way and you never have to remember.</li>
<li>Online through your MyMillbeck account, any time.</li>
<li>By phone on our 24-hour automated payment line, 01632 960 422. Have your debit card and rent reference ready.</li>
<li>With your allpay payment card at any Post Office or shop with the PayPoint sign.</li>
<li>By standing order from your bank.</li>
</ul>
<p>We stopped taking cash at Millbeck House in April 2024, so please don't bring cash to the office.</p>
</details>

<details><summary>I'm struggling to pay my rent. What should I do?</summary>
<p>Please don't ignore it - contact us as soon as you can. Kevin Ashworth, our Money Advice Officer, can help with benefits checks, budgeting and arrears plans. Ring him on 01632 960 427. If you need food urgently, any member of staff can give you a Thornsby Food Bank voucher. We also have a small Hardship Fund that can pay up to £150 once a year towards essentials like a cooker, beds or school uniform.</p>
</details>

<details><summary>What is the Garden Help scheme?</summary>
<p>If you are over 75, or you have a disability, and nobody else in your home can look after the garden, we can cut your front and back lawns up to 8 times a year. It costs £5 per cut, added to your rent account. We don't do hedges, weeding or borders. Ask your Housing Officer for a form.</p>
</details>

<h2>Moving home</h2>
<details><summary>Can I swap my home with another tenant?</summary>
<p>Yes, this is called a mutual exchange. You can swap with a tenant of Millbeck, the council or any other housing association, anywhere in the country. Use the HomeSwapper website to find a swap - it's free for our tenants. You must ask our permission before you move, and we will give you our decision within 42 days. We may say no if you have rent arrears, if you are still on a starter tenancy, or if the new home would be much too big or too small for your household.</p>
</details>

<details><summary>How do I ask for a transfer to a bigger or smaller home?</summary>
<p>All our empty homes are let through Thornsby Choice Homes, the choice-based lettings scheme run by Thornsby Council. You need to join the housing register on the Thornsby Choice Homes website, and then you can bid for homes each week. If you are giving up a family home for a smaller one, we can pay £500 towards your removal costs, plus £500 for each bedroom you give up.</p>
</details>

<h2>Your home</h2>
<details><summary>Can I decorate my home?</summary>
<p>Yes - decorating inside your home is your job and you can choose your own colours. You don't need our permission to paint or wallpaper. Please don't use polystyrene ceiling tiles, as they are a fire risk. When you move in, if a room is in poor decorative order we may give you decorating vouchers worth up to £25 a room, to a maximum of £150 for the home.</p>
</details>

<details><summary>I've lost my key fob for the door entry. How do I get a new one?</summary>
<p>Replacement fobs for Carr Lane and Beckside Court cost £12 each. You can buy one at the Millbeck House reception and it will be programmed while you wait. For safety, we'll switch off your lost fob so nobody else can use it. You can have a maximum of four fobs per flat.</p>
</details>

<details><summary>Can I get a dropped kerb so I can park on my drive?</summary>
<p>You'll need our written permission first, and then approval from Thornsby Council's highways team, who will carry out the work. You pay for the dropped kerb and the driveway. Dropped kerbs are not possible at Carr Lane or Beckside Court, because there are no private gardens.</p>
</details>

<details><summary>Can I run a business from home?</summary>
<p>Usually yes, for things like working on a laptop or doing the books for a small business. Ask us first if customers will be visiting, if you will store stock or if you want to childmind. Childminders must also be registered with Ofsted. We won't agree to anything that causes a nuisance, such as car repairs on the street.</p>
</details>

<details><summary>Can I keep a pet?</summary>
<p>Many of our tenants have pets. Depending on where you live, you may need written permission first. Please read our Pets Policy, which explains what you can keep and how to ask.</p>
</details>

<h2>Neighbours</h2>
<details><summary>How do I report anti-social behaviour?</summary>
<p>If someone is in danger or a crime is happening now, ring 999. For crimes that have already happened, ring the police on 101. Then tell your Housing Officer. We'll contact you within 1 working day if the problem involves violence, threats or hate crime, and within 5 working days for other reports. We may ask you to keep a diary or to record noise using The Noise App on your phone.</p>
<p>We can't treat everyday living noise as anti-social behaviour - for example children playing in the daytime, a baby crying, doors closing or people walking about. Talking to your neighbour in a friendly way often sorts things out, and we can arrange free mediation through Thornsby Mediation Service.</p>
</details>
</main>
<footer><p>Millbeck Homes, Millbeck House, 22 Cloth Hall Street, Thornsby TH1 3LP. Registered provider of social housing. Page last updated February 2026.</p></footer>
</body>
</html>
""",
}

PDF: dict[str, list[list[str]]] = {
    "millbeck_pets_policy.pdf": [
        [
            "MILLBECK HOMES - PETS POLICY",
            "Version 3. Approved by the Board on 14 January 2026. Next review: January 2029.",
            "",
            "1. Purpose",
            "We know that pets are good company and good for people's wellbeing. This policy",
            "sets out which animals tenants may keep in Millbeck homes, when permission is",
            "needed, and what we expect of pet owners so that pets do not cause a nuisance",
            "to neighbours or damage to our homes.",
            "",
            "2. Asking for permission",
            "You must have our written permission before you keep a cat or a dog, or any",
            "other animal not listed in section 4. Apply using the Pet Permission Form,",
            "available from Millbeck House or our website. Please include the type and breed",
            "of animal, a photo, and your vet's details. We will give you our decision in",
            "writing within 10 working days. We will not refuse permission unreasonably.",
            "",
            "3. What you may keep",
            "Houses and bungalows with their own garden: up to two cats or dogs in total.",
            "Ground-floor flats with their own private garden: one cat or one dog.",
            "Flats with a shared entrance or stairs (including all upper floors at Carr Lane):",
            "no dogs. One indoor cat may be allowed if it does not use the communal areas.",
            "Beckside Court: one cat or one small dog per flat. A small dog means one that",
            "weighs under 10kg when fully grown. Pets must be registered with the Scheme",
            "Manager and are not allowed in the residents' lounge or laundry room.",
            "",
            "4. Pets that do not need permission",
            "You do not need to ask before keeping small animals that live in a cage or tank,",
            "such as hamsters, gerbils, guinea pigs, budgies, fish or a small number of",
            "non-venomous reptiles, as long as you keep a reasonable number and keep them",
            "clean and secure.",
            "",
            "5. Animals we will not allow",
            "- Any dog banned under the Dangerous Dogs Act 1991, or any dog that needs a",
            "  certificate of exemption to be kept legally, including XL Bully type dogs.",
            "- Venomous snakes, spiders and other dangerous wild animals.",
            "- Livestock, pigeons and cockerels. We may agree to up to four hens (no cockerel)",
            "  in a house with a large rear garden.",
            "- Breeding animals for sale.",
        ],
        [
            "6. Your responsibilities as a pet owner",
            "- Keep dogs on a lead in all shared areas, including stairs, paths and car parks.",
            "- Clean up after your pet straight away, in your garden and outside it.",
            "- Dogs and cats must be microchipped, as the law requires, and we expect them to",
            "  be vaccinated and treated for fleas regularly.",
            "- Don't let your pet bark, howl or make a noise that disturbs neighbours.",
            "- Give us the name and phone number of someone who will look after your pet if",
            "  you go into hospital or are away in an emergency.",
            "- At the end of your tenancy you must pay for any damage your pet has caused,",
            "  and for flea treatment of the empty home if it is needed.",
            "",
            "7. Assistance dogs",
            "Assistance dogs, such as guide dogs and hearing dogs, are always allowed in every",
            "Millbeck home and in all shared areas, including the lounge at Beckside Court.",
            "They do not count towards the limits in section 3. Please still let us know so",
            "that we can keep our records up to date.",
            "",
            "8. Visiting and pet-sitting",
            "Visitors may bring pets for short visits. Looking after somebody else's pet in",
            "your home for more than 14 days in a row counts as keeping a pet, and the rules",
            "in sections 2 and 3 then apply.",
            "",
            "9. Feeding birds and wild animals",
            "Please don't feed pigeons, gulls or foxes, or put food out on the ground, as this",
            "attracts rats. Bird tables and hanging feeders are fine in private gardens, but",
            "not on balconies or in shared gardens.",
            "",
            "10. If things go wrong",
            "If we receive complaints about a pet, your Housing Officer will talk to you first",
            "and agree what needs to change. If the problem carries on, we may withdraw",
            "permission. We will give you 28 days' notice to find the pet a new home. Serious",
            "or repeated problems, or cruelty to an animal, may be treated as a breach of your",
            "tenancy. We may report cruelty or neglect to the RSPCA.",
            "",
            "11. Appeals",
            "If we refuse permission or withdraw it, you can ask for the decision to be",
            "reviewed by the Head of Housing. Write to us within 20 working days of our letter.",
            "",
            "Millbeck Homes, Millbeck House, 22 Cloth Hall Street, Thornsby TH1 3LP.",
            "Phone 01632 960 400.",
        ],
    ],
}
