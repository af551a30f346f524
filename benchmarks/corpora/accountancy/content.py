"""An unseen corpus: the client and staff documents of a firm of chartered accountants.

Pemberton Oakes LLP, 25 people in Leeds: a personal-tax engagement letter and terms of
business, a January self-assessment briefing deck for staff, a 2026 fee schedule and tax
deadlines workbook, a staff CPD log export, two e-mails (a client reminder about the papers
needed for a 2025/26 tax return, and the practice manager's note on new laptops, phones and
printing), a how-to page for the practice software, a client FAQ page and a three-page
anti-money-laundering and client identification policy. Formal for clients and policies,
terse for staff. Written independently of every other corpus here, with its questions
(``questions.jsonl``) written before the corpus was built. Text drawn into the PDF stays
inside Latin-1 (amounts there are written ``GBP``).
"""

from __future__ import annotations

from typing import Any

#: Word documents: ``(kind, content)`` blocks, as :func:`benchmarks.mixed_corpus.write_docx`.
DOCX: dict[str, list[tuple[str, Any]]] = {
    "engagement_letter_personal_tax.docx": [
        ("title", "Letter of Engagement and Terms of Business: Personal Tax"),
        (
            "p",
            "Pemberton Oakes LLP, Chartered Accountants, 14 Park Square East, Leeds LS1 2NE. "
            "Registered to carry on audit work in the UK by the Institute of Chartered "
            "Accountants in England and Wales (ICAEW). These terms apply from 6 April 2026 and "
            "cover the 2025/26 tax year and each later year until we replace them.",
        ),
        ("h1", "1. Purpose of this letter"),
        (
            "p",
            "This letter sets out the basis on which we will act for you as your tax adviser, "
            "and what each of us is responsible for. Please read it carefully, sign the copy we "
            "have sent to you through the client portal and return it within 21 days. We will "
            "not file anything with HM Revenue & Customs (HMRC) until we hold your signed letter.",
        ),
        ("h1", "2. Scope of our services"),
        ("p", "For each tax year we will:"),
        (
            "li",
            "prepare your self-assessment tax return and supporting schedules from the "
            "information and explanations you give us;",
        ),
        (
            "li",
            "calculate your income tax, Class 4 National Insurance and capital gains tax, and "
            "tell you how much to pay and when;",
        ),
        ("li", "submit the return to HMRC electronically once you have approved it;"),
        ("li", "check HMRC statements of account and PAYE coding notices on request;"),
        (
            "li",
            "deal with routine correspondence from HMRC, which we receive as your authorised "
            "agent.",
        ),
        (
            "p",
            "Unless we agree otherwise in writing, our work does not include tax planning "
            "advice, inheritance tax, the affairs of anyone other than you (including your "
            "spouse or civil partner), or representing you in an HMRC enquiry, for which we will "
            "quote separately.",
        ),
        ("h1", "3. Your responsibilities"),
        (
            "li",
            "You are legally responsible for your tax return, even though we prepare it. Check "
            "it carefully before you approve it.",
        ),
        (
            "li",
            "Send us all your records and information for the tax year ending 5 April by 31 "
            "October following the end of that year. For the 2025/26 return this means by "
            "Saturday 31 October 2026.",
        ),
        (
            "li",
            "Tell us straight away about any change of address, marital status, employment or "
            "source of income, and about any letter you receive from HMRC.",
        ),
        (
            "li",
            "Keep your records for at least 22 months after the end of the tax year, or for five "
            "years after the 31 January filing deadline if you are self-employed or a landlord.",
        ),
        (
            "li",
            "Pay your tax to HMRC yourself by the due dates. We do not pay HMRC on your behalf.",
        ),
        ("h1", "4. Our fees"),
        (
            "p",
            "Our fees are fixed for each tax year and are set out below. All fees are subject "
            "to VAT at the standard rate, currently 20%.",
        ),
        (
            "table",
            [
                ["Service", "Annual fee (excluding VAT)"],
                ["Tax return: employment, pension and investment income only", "£450"],
                [
                    "Tax return for a sole trader or partner, including annual accounts "
                    "(turnover up to £90,000)",
                    "£850",
                ],
                ["Tax return for a landlord with one rental property", "£550"],
                ["Each additional rental property", "£120"],
                ["Capital gains tax computation, per disposal", "£300"],
                ["High Income Child Benefit Charge calculation", "£75"],
                ["Making Tax Digital quarterly updates, per quarter", "£90"],
            ],
        ),
        (
            "p",
            "Where your records are incomplete or disorganised we will put them in order at our "
            "bookkeeping rate of £55 an hour, and we will tell you before we start. If your "
            "information reaches us after 30 November, a late information surcharge of £150 "
            "plus VAT applies and we cannot guarantee to file your return by 31 January.",
        ),
        (
            "p",
            "Work outside the scope in section 2, including an HMRC enquiry, is charged by the "
            "hour: £240 an hour for a partner, £160 an hour for a manager and £95 an hour for "
            "other staff.",
        ),
        ("h1", "5. Invoicing and payment"),
        (
            "p",
            "We invoice when we submit your return. Payment is due within 14 days of the "
            "invoice date, by bank transfer, by card through the client portal or by direct "
            "debit. If your annual fee is more than £600 you may spread it over 10 monthly "
            "direct debits from May to February at no extra cost. If an invoice is still unpaid "
            "after 30 days we may stop work until it is settled.",
        ),
        ("h1", "6. Data protection and confidentiality"),
        (
            "p",
            "We are the data controller for the personal data you give us. We use it only to "
            "provide our services and to meet our legal obligations, including the identity "
            "checks described in our client identification policy. We keep your working papers "
            "for seven years after the end of the tax year they relate to, then destroy them "
            "securely. Our full privacy notice is on our website.",
        ),
        ("h1", "7. Complaints"),
        (
            "p",
            "We aim to give you a high standard of service. If you are unhappy with any part of "
            "it, please write to Helen Pemberton, Managing Partner, at the address above or at "
            "complaints@pembertonoakes.example. We will acknowledge your complaint within five "
            "working days and send you a full response within eight weeks. If you are still not "
            "satisfied you may refer the matter to the ICAEW.",
        ),
        ("h1", "8. Liability"),
        (
            "p",
            "Our liability to you for any loss arising from our work is limited to £1,000,000 "
            "in aggregate for each tax year. We hold professional indemnity insurance that "
            "meets ICAEW requirements.",
        ),
        ("h1", "9. Ending our engagement"),
        (
            "p",
            "Either of us may end this engagement by giving 30 days' notice in writing. If you "
            "move to another accountant, we will answer their professional clearance letter "
            "within 10 working days.",
        ),
        (
            "p",
            "Signed for and on behalf of Pemberton Oakes LLP: David Oakes, Tax Partner, "
            "6 April 2026.",
        ),
    ],
}

#: Slide decks, as :func:`benchmarks.mixed_corpus.write_pptx`.
PPTX: dict[str, list[dict[str, Any]]] = {
    "busy_season_briefing_jan2026.pptx": [
        {
            "title": "January 2026: the self-assessment push",
            "body": [
                "All-staff briefing, Monday 5 January 2026, 08:45, Aire meeting room",
                "HMRC filing deadline: Saturday 31 January 2026",
                "Our target: every return filed by Friday 30 January, 17:00",
            ],
            "notes": (
                "Helen opens, David runs through the numbers. Keep it under 20 minutes; people "
                "want to get back to their desks."
            ),
        },
        {
            "title": "Where we are (as at Friday 2 January)",
            "table": [
                ["Status", "Returns", "Owner"],
                ["Filed", "388", "-"],
                ["Client approval pending", "47", "Tom Ackroyd"],
                ["In review", "36", "Joanne Pickles"],
                ["In preparation", "60", "Prep team"],
                ["Awaiting client information", "81", "Megan Doyle"],
                ["Total on the books", "612", ""],
            ],
            "notes": (
                "The number still waiting for paperwork is worse than last year (64 at the same "
                "point). Chasing is the priority this week."
            ),
        },
        {
            "title": "Hours and overtime",
            "body": [
                "Office open 07:30 to 20:00, Monday to Friday, until 30 January",
                "Saturday mornings 10, 17 and 24 January, 09:00 to 13:00 (volunteers: sign up "
                "with Claire)",
                "Overtime for staff below manager grade: time and a half",
                "Managers: time off in lieu, to be taken by 30 April",
                "More than 10 hours' overtime in a week needs Claire's approval",
            ],
            "notes": (
                "Last person out sets the alarm. The alarm code changes on 5 January; Claire "
                "will text it to everyone."
            ),
        },
        {
            "title": "Leave and absence",
            "body": [
                "No annual leave 12 to 30 January unless it was approved before 1 December",
                "Off sick? Phone Claire before 09:00; don't just e-mail",
                "Book medical appointments outside 10:00 to 16:00 if you can",
            ],
        },
        {
            "title": "Review and sign-off",
            "body": [
                "Every return is reviewed by a manager before it goes to the client",
                "Partner sign-off if tax payable is over £10,000, or there is a capital gain, or "
                "it is a first-year sole trader",
                "Client approval by e-signature in the portal: no signature, no filing",
                "File on the day approval arrives and save the HMRC receipt to the job",
            ],
            "notes": (
                "Last year two returns went in on a client's verbal OK. That must not happen "
                "again: it was raised at our ICAEW practice assurance visit."
            ),
        },
        {
            "title": "Chasing clients",
            "body": [
                "Automatic chasers from Ledgerline on 5, 12 and 19 January",
                "Then a phone call from the client manager",
                "Information arriving after Friday 23 January: a partner decides whether we "
                "can still file",
                "Late information surcharge of £150 applies; only a partner can waive it",
            ],
            "notes": (
                "If a client can't get us their information in time, remind them of HMRC's "
                "automatic £100 late filing penalty. We file on estimated figures only in "
                "exceptional cases and only with a partner's agreement."
            ),
        },
        {
            "title": "Looking after yourselves",
            "body": [
                "Lunch provided every Friday in January",
                "Pizza from 18:00 on Tuesday and Thursday evenings",
                "Taxi home after 20:00: up to £25, claim it on expenses",
                "Employee assistance line: 0800 030 5182, free, confidential, 24 hours",
            ],
            "notes": (
                "Natalie is running 15-minute wellbeing check-ins for anyone who wants one; "
                "book them through her calendar."
            ),
        },
        {
            "title": "Key dates",
            "table": [
                ["Date", "What happens"],
                ["Mon 5 Jan", "First chaser e-mails go out"],
                ["Fri 23 Jan", "Cut-off for client information"],
                ["Wed 28 Jan", "Last returns sent to clients for approval"],
                ["Fri 30 Jan", "All returns filed by 17:00"],
                ["Sat 31 Jan", "HMRC deadline; office closed"],
                ["Fri 6 Feb", "Busy-season wash-up meeting and team dinner"],
            ],
            "notes": (
                "The team dinner is at Salvo's in Headingley on 6 February, 19:30. The partners "
                "are paying."
            ),
        },
    ],
}

#: Workbooks, as :func:`benchmarks.mixed_corpus.write_xlsx`.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "fees_and_deadlines_2026.xlsx": {
        "Fee schedule 2026": [
            ["Service", "Basis", "Fee (GBP, ex VAT)", "Notes"],
            [
                "Personal tax return (employment, pension, investment income)",
                "Fixed, per year",
                450,
                "Includes one review meeting",
            ],
            [
                "Sole trader or partnership tax return with accounts",
                "Fixed, per year",
                850,
                "Turnover up to £90,000; above that, quoted",
            ],
            [
                "Landlord tax return (one property)",
                "Fixed, per year",
                550,
                "Add £120 for each additional property",
            ],
            [
                "Capital gains tax computation",
                "Per disposal",
                300,
                "Includes the 60-day UK property return if needed",
            ],
            [
                "High Income Child Benefit Charge calculation",
                "Fixed, per year",
                75,
                "Added to the tax return fee",
            ],
            [
                "Making Tax Digital for Income Tax (quarterly updates)",
                "Per quarter",
                90,
                "Compulsory from 6 April 2026 for qualifying income over £50,000",
            ],
            [
                "Limited company accounts and CT600 (turnover under £250,000)",
                "Fixed, per year",
                1650,
                "Includes the confirmation statement",
            ],
            [
                "Limited company accounts and CT600 (turnover £250,000 to £1m)",
                "Quoted",
                2900,
                "Minimum fee; quoted after a first meeting",
            ],
            ["Dormant company accounts", "Fixed, per year", 250, "Companies House filing only"],
            [
                "Confirmation statement (on its own)",
                "Per filing",
                95,
                "Companies House fee recharged at cost",
            ],
            ["VAT return", "Per quarter", 225, "Bookkeeping not included"],
            [
                "Payroll, up to 5 employees",
                "Per month",
                60,
                "£6 a month for each employee above 5",
            ],
            [
                "Auto-enrolment pension submissions",
                "Per month",
                25,
                "Only with our payroll service",
            ],
            ["Bookkeeping", "Per hour", 55, "Also used to tidy incomplete records"],
            ["HMRC enquiry support (manager)", "Per hour", 160, "Covered by fee protection"],
            ["Partner time", "Per hour", 240, "Advice outside an agreed fixed fee"],
            ["Fee protection (individual)", "Per year", 85, "Must start before HMRC writes"],
            ["Fee protection (business)", "Per year", 195, "Covers the directors' returns too"],
        ],
        "Key deadlines 2026": [
            ["Date", "Deadline", "Who it affects", "Our cut-off"],
            [
                "31 January 2026",
                "2024/25 online tax return and balancing payment; first payment on account "
                "for 2025/26",
                "Self-assessment clients",
                "Records by 31 October 2025",
            ],
            ["5 April 2026", "End of the 2025/26 tax year", "Everyone", "-"],
            [
                "6 April 2026",
                "Making Tax Digital for Income Tax starts (qualifying income over £50,000)",
                "Sole traders and landlords",
                "Sign-up meeting by 13 March 2026",
            ],
            [
                "31 May 2026",
                "P60s to employees",
                "Employers",
                "Final payroll details by 10 April 2026",
            ],
            [
                "6 July 2026",
                "P11D and P11D(b) forms to HMRC",
                "Employers with benefits in kind",
                "Benefit details by 1 June 2026",
            ],
            [
                "22 July 2026",
                "Class 1A National Insurance paid electronically",
                "Employers with benefits in kind",
                "-",
            ],
            [
                "31 July 2026",
                "Second payment on account for 2025/26",
                "Self-assessment clients",
                "-",
            ],
            [
                "7 August 2026",
                "First MTD quarterly update (quarter to 5 July 2026)",
                "Sole traders and landlords in MTD",
                "Records by 21 July 2026",
            ],
            [
                "5 October 2026",
                "Register for self-assessment if newly self-employed in 2025/26",
                "New sole traders and landlords",
                "Tell us by 14 September 2026",
            ],
            [
                "31 October 2026",
                "Paper tax returns for 2025/26",
                "Self-assessment clients",
                "We file online; this is our records deadline",
            ],
            [
                "7 November 2026",
                "Second MTD quarterly update (quarter to 5 October 2026)",
                "Sole traders and landlords in MTD",
                "Records by 21 October 2026",
            ],
            [
                "30 December 2026",
                "Online return filed to have tax under £3,000 collected through your tax code",
                "Employees and pensioners",
                "Records by 30 September 2026",
            ],
            [
                "31 January 2027",
                "2025/26 online tax return and balancing payment",
                "Self-assessment clients",
                "Records by 31 October 2026",
            ],
        ],
    },
}

#: CSV exports, as :func:`benchmarks.mixed_corpus.write_csv`.
CSV: dict[str, list[list[str]]] = {
    "cpd_log_2026.csv": [
        [
            "Staff member",
            "Role",
            "Date",
            "Activity",
            "Provider",
            "Hours",
            "Verifiable",
            "Cost (GBP)",
            "Approved by",
        ],
        [
            "Helen Pemberton",
            "Managing Partner",
            "2026-01-20",
            "ICAEW practice assurance update webinar",
            "ICAEW",
            "1.5",
            "Yes",
            "0",
            "n/a",
        ],
        [
            "Josh Kirkby",
            "Trainee (ACA)",
            "2026-01-28",
            "AML e-learning for new joiners",
            "Pemberton Oakes (internal)",
            "1",
            "Yes",
            "0",
            "Imran Qureshi",
        ],
        [
            "David Oakes",
            "Tax Partner",
            "2026-02-11",
            "Making Tax Digital for Income Tax: go-live workshop",
            "ICAEW Tax Faculty",
            "3",
            "Yes",
            "145",
            "Helen Pemberton",
        ],
        [
            "Claire Hebden",
            "Practice Manager",
            "2026-02-25",
            "GDPR for practice managers",
            "AccountingWEB Live",
            "2",
            "No",
            "60",
            "Helen Pemberton",
        ],
        [
            "Sarah Whitaker",
            "Audit Partner",
            "2026-03-04",
            "FRS 102 periodic review amendments",
            "Mercia",
            "7",
            "Yes",
            "395",
            "Helen Pemberton",
        ],
        [
            "Imran Qureshi",
            "Partner and MLRO",
            "2026-03-18",
            "MLRO annual refresher",
            "ICAEW",
            "4",
            "Yes",
            "210",
            "Helen Pemberton",
        ],
        [
            "Aisha Begum",
            "Trainee (AAT)",
            "2026-03-26",
            "Excel for accountants: pivot tables",
            "LinkedIn Learning",
            "1.5",
            "No",
            "0",
            "Megan Doyle",
        ],
        [
            "Liam Fairburn",
            "Payroll Supervisor",
            "2026-04-09",
            "Payroll year-end and P11D changes",
            "CIPP",
            "3",
            "Yes",
            "120",
            "Imran Qureshi",
        ],
        [
            "Joanne Pickles",
            "Personal Tax Manager",
            "2026-04-22",
            "Spring 2026 personal tax update",
            "Tolley",
            "2.5",
            "Yes",
            "89",
            "David Oakes",
        ],
        [
            "Tom Ackroyd",
            "Tax Senior",
            "2026-05-07",
            "Capital gains on residential property: 60-day returns",
            "ICAEW Tax Faculty",
            "2",
            "Yes",
            "65",
            "Joanne Pickles",
        ],
        [
            "Priyanka Shah",
            "Audit Senior",
            "2026-05-13",
            "Audit sampling masterclass",
            "Mercia",
            "6",
            "Yes",
            "350",
            "Sarah Whitaker",
        ],
        [
            "Natalie Brook",
            "HR Manager",
            "2026-05-20",
            "Employment law update 2026",
            "Calder Employment Law",
            "3",
            "No",
            "75",
            "Claire Hebden",
        ],
        [
            "Megan Doyle",
            "Accounts Senior",
            "2026-06-03",
            "Xero Advisor certification",
            "Xero",
            "5",
            "Yes",
            "0",
            "Imran Qureshi",
        ],
        [
            "Ellie Marsh",
            "Trainee (ACA)",
            "2026-06-17",
            "Anti-money laundering e-learning (annual)",
            "Pemberton Oakes (internal)",
            "1",
            "Yes",
            "0",
            "Imran Qureshi",
        ],
        [
            "Tom Ackroyd",
            "Tax Senior",
            "2026-06-24",
            "Mental health first aid (two days)",
            "MHFA England",
            "12",
            "No",
            "300",
            "Claire Hebden",
        ],
        [
            "David Oakes",
            "Tax Partner",
            "2026-07-08",
            "Yorkshire Tax Forum summer conference",
            "ICAEW Yorkshire",
            "6",
            "Yes",
            "180",
            "Helen Pemberton",
        ],
        [
            "Liam Fairburn",
            "Payroll Supervisor",
            "2026-07-15",
            "BrightPay advanced features webinar",
            "BrightPay",
            "1.5",
            "No",
            "0",
            "Imran Qureshi",
        ],
        [
            "Priyanka Shah",
            "Audit Senior",
            "2026-07-22",
            "Data analytics for audit: an introduction",
            "ICAEW",
            "3",
            "No",
            "0",
            "Sarah Whitaker",
        ],
    ],
}

#: E-mails, as :func:`benchmarks.mixed_corpus.write_eml`.
EML: dict[str, dict[str, Any]] = {
    "sa_documents_reminder.eml": {
        "subject": "Your 2025/26 tax return: what we need from you by 31 October",
        "from": "Joanne Pickles <joanne.pickles@pembertonoakes.example>",
        "to": "Gareth Lumb <gareth.lumb@example.com>",
        "date": "Tue, 1 Sep 2026 09:15:00 +0100",
        "text": """Dear Gareth,

It's that time of year again. To prepare your 2025/26 tax return (the year 6 April 2025 to
5 April 2026) we need your paperwork by Saturday 31 October 2026. Returns we receive by then
are filed well before the 31 January 2027 deadline, with no surcharge.

What to send us (only the ones that apply to you):

- Employment: your P60 for the year, a P45 if you changed jobs, and your P11D if you had
  benefits such as a company car or private medical insurance.
- Self-employment: your sales and expenses for your accounting year, your mileage log, and
  details of anything you bought for the business costing more than £500.
- Property: rent received, letting agent statements, and bills for repairs, insurance and
  mortgage interest.
- Savings and investments: bank and building society interest, dividend vouchers and any
  consolidated tax certificate from your investment platform.
- Pensions: statements for any state, private or workplace pension you receive, and any
  personal pension contributions you paid yourself.
- Gift Aid donations, with the charity names and dates.
- Anything you sold, such as shares or a second property, with the purchase and sale dates
  and costs.
- Child Benefit, if you or your partner earned over £60,000.

How to send it: upload everything to your folder in the client portal (Documents > 2025/26
tax return). Please don't e-mail bank statements or your UTR; e-mail is not secure enough.
If you prefer paper, drop it in at reception, Monday to Friday, 09:00 to 17:00, in an
envelope with your name on it. We scan everything and post the originals back within two
weeks.

If your records are in a muddle, don't worry and don't wait. Book a free 20-minute call with
me through the portal and we'll agree what's needed. Putting incomplete records in order is
charged at £55 an hour, and I'll always tell you the likely cost first.

Two reminders:

1. If your information reaches us after 30 November, a late information surcharge of £150
   plus VAT applies, and we can't promise to file by 31 January.
2. Your second payment on account for 2025/26 was due on 31 July 2026. If you haven't paid
   it yet, please do so now: HMRC charges interest from the due date.

Making Tax Digital: since 6 April 2026, sole traders and landlords with qualifying income
over £50,000 must keep digital records and send HMRC quarterly updates. If this applies to
you we will already have been in touch; if you think it might and you haven't heard from us,
just reply to this e-mail.

Kind regards,

Joanne Pickles
Personal Tax Manager
Pemberton Oakes LLP, 14 Park Square East, Leeds LS1 2NE
0113 496 0270
""",
    },
    "it_changes_march.eml": {
        "subject": "New laptops, Teams phones and printing: week of 9 March",
        "from": "Claire Hebden <claire.hebden@pembertonoakes.example>",
        "to": "allstaff@pembertonoakes.example",
        "date": "Mon, 23 Feb 2026 08:30:00 +0000",
        "text": """Morning all,

Now January is behind us, Aire Valley IT are replacing our laptops and phones. Short version
below; please read it all.

LAPTOPS
- Everyone gets a new Dell Latitude 7450. Swaps happen in the Aire meeting room, by team:
  - Tuesday 10 March: partners and the tax team
  - Wednesday 11 March: accounts and payroll
  - Thursday 12 March: audit, admin and trainees
- Each swap takes about 45 minutes. Bring your old laptop, its charger and your fob.
- Anything saved on your desktop or in Downloads will NOT be copied across. Move it to
  OneDrive or into Ledgerline before your slot.
- Docking stations and screens stay as they are.

PHONES
- The old desk phones are switched off at 17:30 on Friday 13 March.
- Teams Phone goes live on Monday 16 March. Your direct dial number stays the same.
- Everyone gets a Jabra Evolve2 55 headset; it will be on your desk on the morning of the 16th.
- Record a new voicemail greeting on day one, using the standard wording on the Ledgerline
  how-to page.
- The main number (0113 496 0270) rings Jodie on reception first, then the hunt group after
  20 seconds.

PRINTING
- From 16 March printing is "follow-me": print to PO-Print and release the job at any printer
  with your fob.
- Jobs not released within 24 hours are deleted.
- Colour printing is blocked by default. Ask me if you need it for a client report.

MFA
- Ledgerline will insist on multi-factor authentication through Microsoft Authenticator from
  Monday 2 March. Set it up before then.

Aire Valley IT will have an engineer on site Tuesday to Friday that week. For anything else:
helpdesk@airevalleyit.example or 0113 496 0388.

Thanks, and sorry in advance for the disruption.

Claire

Claire Hebden
Practice Manager, Pemberton Oakes LLP
""",
    },
}

#: Text files written as they are (Markdown and HTML).
TEXT: dict[str, str] = {
    "ledgerline_how_to.md": """# Ledgerline: how-to for staff

Owner: Claire Hebden. Last updated 2 March 2026.

Ledgerline is our practice management system: clients, jobs, time, billing, the client portal
and HMRC filing all live here. If it isn't in Ledgerline, it didn't happen.

## Logging in

1. Go to po.ledgerline.example and sign in with your Microsoft 365 account.
2. Approve the prompt in Microsoft Authenticator. MFA is compulsory from 2 March 2026.
3. Locked out? Claire can reset your MFA. Out of office hours, call Aire Valley IT.

## Timesheets

- Record time every day, in 6-minute units, against the client job, not a general code.
- The week's timesheet must be complete by 10:00 on Monday. Missing timesheets are read out at
  the Monday partners' meeting.
- Internal codes: ADMIN for internal work, CPD for training, HOL for leave, SICK for sickness.
- Chargeable target: 1,250 hours a year for seniors and trainees; 1,100 for managers.

## Setting up a self-assessment job

1. Open the client, then Jobs > New job > "SA return 2025/26".
2. Check the agent authorisation (64-8) light. Green means HMRC has authorised us. If it's red,
   don't prepare anything; tell the client manager.
3. Pick the fee from the 2026 fee schedule and tick "Fixed fee".
4. New jobs start at "Awaiting info". Ledgerline e-mails the client a chaser every 7 days until
   the status changes.

## Job statuses

| Status | Meaning | Who moves it on |
|---|---|---|
| Awaiting info | Chasers running, nothing received yet | Client manager |
| In prep | Return being prepared | Preparer |
| In review | With a manager for review | Reviewer |
| Partner review | Tax over £10,000, a capital gain or a first-year sole trader | Partner |
| Client approval | Sent to the portal for e-signature | Ledgerline (automatic) |
| Filed | HMRC receipt saved to the job | Preparer |

## Sending a return for approval

- Documents > Send for signature. Attach the return PDF and the tax computation.
- Portal invitations expire after 7 days. If a client says the link doesn't work, resend it
  from the same screen. Don't e-mail the PDF instead.
- When the client signs, the Submit to HMRC button appears on the job.

## Filing with HMRC

- Click Submit to HMRC. Ledgerline saves the submission receipt, with its IRmark, to the job.
- If HMRC rejects a return, the rejection reason shows in red on the job. Fix it and resubmit
  the same day. Stuck? Ask Joanne Pickles.

## Billing and write-offs

- Raise the invoice from the job once it's filed. Ledgerline adds VAT at 20%.
- Write-offs of more than £250 on a job need partner approval; add a note saying why.
- Never change a fixed fee on an invoice without the client manager's say-so.

## Voicemail greeting

Use this wording: "You've reached [your name] at Pemberton Oakes. I can't take your call right
now. Please leave a message, or call reception on 0113 496 0270."

## Help

- Ledgerline problems: Claire Hebden first, then Ledgerline support (support@ledgerline.example),
  Monday to Friday, 08:00 to 18:00.
- Training videos are under Help > Academy. New starters watch "Timesheets in 10 minutes" in
  their first week.
""",
    "client_faq.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Frequently asked questions | Pemberton Oakes LLP</title>
</head>
<body>
<h1>Frequently asked questions</h1>
<p>Pemberton Oakes LLP, Chartered Accountants, 14 Park Square East, Leeds LS1 2NE. Answers for
new and existing clients. Last updated May 2026.</p>

<h2>Getting started</h2>

<h3>Is the first meeting free?</h3>
<p>Yes. Your first meeting is free and lasts up to 30 minutes, at our office or on Microsoft
Teams. Afterwards we send you a fixed-fee quote.</p>

<h3>What do I need to bring to become a client?</h3>
<p>The law requires us to check your identity before we start work. Bring your passport or
photocard driving licence and a bank statement or utility bill dated within the last three
months. If you run a company, we also need details of everyone who owns or controls more than
25% of it.</p>

<h3>Can you take over from my current accountant?</h3>
<p>Yes. Once you have signed our engagement letter we write to your previous accountant for
professional clearance and the information we need. You don't have to contact them yourself,
though it is polite to let them know.</p>

<h2>Fees and payment</h2>

<h3>How do I pay?</h3>
<p>By bank transfer, by debit or credit card through the client portal, or by monthly direct
debit. We do not accept cash. We accept cheques until 30 June 2026; after that date we no
longer take them.</p>

<h3>Can I spread the cost?</h3>
<p>Yes. If your annual fee is more than £600 you can pay it in 10 monthly direct debits from
May to February, at no extra cost.</p>

<h3>What is fee protection?</h3>
<p>HMRC can open an enquiry into any return, sometimes at random. Our fee protection scheme
pays our fees for dealing with an enquiry, up to £75,000 per claim. It costs £85 a year for
individuals and £195 a year for businesses, and it must be in place before HMRC writes to
you.</p>

<h2>Tax returns</h2>

<h3>When do you need my records?</h3>
<p>By 31 October after the end of the tax year; for the 2025/26 return that is 31 October
2026. If your information reaches us after 30 November we charge a late information surcharge
and cannot guarantee to meet the 31 January deadline.</p>

<h3>What happens if my return is late?</h3>
<p>HMRC charges a £100 penalty as soon as the return is one day late, even if you owe no tax.
After three months it adds £10 a day for up to 90 days, with further penalties at six and
twelve months. Interest is charged on late-paid tax from the due date.</p>

<h3>Will you deal with HMRC for me?</h3>
<p>Yes. Once you have authorised us as your agent, HMRC deals with us on your behalf. HMRC
posts you an authorisation code: please send it to us as soon as it arrives, because it
expires after 30 days.</p>

<h3>Do I need to join Making Tax Digital?</h3>
<p>If you are a sole trader or landlord with qualifying income over £50,000, you must use
Making Tax Digital for Income Tax from 6 April 2026. The threshold falls to £30,000 from April
2027 and to £20,000 from April 2028. We can send the quarterly updates for you for £90 a
quarter.</p>

<h2>Visiting and contacting us</h2>

<h3>When are you open?</h3>
<p>Monday to Friday, 09:00 to 17:30. We are closed on bank holidays and from Christmas Eve to
New Year's Day inclusive. In January we also open on some Saturday mornings for existing
clients, by appointment.</p>

<h3>Is there parking?</h3>
<p>We have no parking of our own. The nearest car park is the Park Lane multi-storey, five
minutes' walk away, and Leeds station is a 10-minute walk.</p>

<h3>How quickly will you reply?</h3>
<p>We answer e-mails and portal messages within two working days, usually the same day.
During January replies can take up to five working days.</p>

<h3>Is the client portal secure?</h3>
<p>Yes. Documents are encrypted and stored in the UK, and you sign in with a password and a
code sent to your phone. Please use the portal, not e-mail, for anything containing your bank
details, National Insurance number or UTR.</p>

<h3>How do I make a complaint?</h3>
<p>Write to Helen Pemberton, our Managing Partner. The full procedure is in our engagement
letter.</p>
</body>
</html>
""",
}

#: Born-digital PDFs: pages of lines, as :func:`benchmarks.mixed_corpus.write_text_pdf`.
PDF: dict[str, list[list[str]]] = {
    "aml_client_identification_policy.pdf": [
        [
            "Pemberton Oakes LLP - Anti-Money Laundering and Client Identification Policy",
            "Version 3.2, approved by the partners on 12 January 2026. Next review: January 2027.",
            "",
            "1. PURPOSE AND SCOPE",
            "This policy sets out how the firm meets the Money Laundering, Terrorist Financing and",
            "Transfer of Funds (Information on the Payer) Regulations 2017 and the Proceeds of Crime",
            "Act 2002. It applies to every partner, employee, trainee and contractor. A breach is a",
            "disciplinary matter and may be a criminal offence. Our AML supervisor is the ICAEW.",
            "",
            "2. RESPONSIBILITIES",
            "Money Laundering Reporting Officer (MLRO): Imran Qureshi, Partner.",
            "Deputy MLRO, who acts when the MLRO is away: Claire Hebden, Practice Manager.",
            "Every client has a responsible partner, who signs off the client's risk assessment.",
            "",
            "3. WHEN CHECKS ARE NEEDED",
            "Customer due diligence (CDD) must be complete before we do any work or accept any money.",
            "The only exception is a first meeting of up to 30 minutes at which no advice is given.",
            "CDD is repeated when a client's circumstances change (for example a new director or",
            "owner) and when a client is due for review under the cycle in section 6.",
            "",
            "4. IDENTIFYING INDIVIDUALS",
            "For every individual client we need both of the following.",
            "a) Photo ID: a current passport or a UK photocard driving licence.",
            "b) Proof of address: a bank statement, council tax bill or utility bill.",
            "Proof of address must be dated within the last three months.",
            "Mobile phone bills are not accepted.",
            "We either see the originals in person and copy them, or the client uploads them to the",
            "portal and we run an electronic check through our verification service, Veritas ID.",
            "A client we never meet in person must pass the electronic check and also a 10-minute",
            "video call in which they show the same photo ID on camera.",
        ],
        [
            "5. COMPANIES, PARTNERSHIPS AND TRUSTS",
            "- Obtain the Companies House record and the register of people with significant control.",
            "- Identify every beneficial owner, meaning anyone who owns or controls more than 25%.",
            "- Check each beneficial owner as an individual under section 4.",
            "- Report any difference from the Companies House register to Companies House.",
            "- For trusts, identify the settlor, the trustees and any beneficiary with a fixed interest.",
            "",
            "6. RISK ASSESSMENT AND ONGOING MONITORING",
            "Every client is rated low, medium or high risk when they join. CDD is refreshed:",
            "- low risk: every three years;",
            "- medium risk: every two years;",
            "- high risk: every year, with a file review by the responsible partner in person.",
            "A client is high risk if they are a politically exposed person (PEP) or a close family",
            "member of one, has links to a high-risk third country on the HM Treasury list, or runs a",
            "cash-intensive business such as a takeaway, car wash or nail bar.",
            "",
            "7. ENHANCED DUE DILIGENCE",
            "High-risk clients need enhanced due diligence: evidence of their source of funds and",
            "source of wealth, and written approval from the MLRO before the engagement letter is",
            "signed. PEPs also need approval from the managing partner, Helen Pemberton.",
            "",
            "8. CASH",
            "We do not accept cash from clients in any amount.",
            "If a client tries to pay in cash, refuse politely and tell the MLRO the same day.",
            "",
            "9. REPORTING SUSPICIONS",
            "If you know or suspect that anyone is involved in money laundering, complete an internal",
            "report form (Ledgerline > Compliance > Internal report).",
            "You must tell the MLRO by the end of the same working day.",
            "Do not discuss it with anyone else, and never with the client: tipping off is a criminal",
            "offence. The MLRO decides whether to make a Suspicious Activity Report (SAR) to the",
            "National Crime Agency (NCA) and records the reasons either way. If a SAR is made and we",
            "need consent to continue, no further work is done for that client until the NCA replies",
            "or seven working days have passed.",
        ],
        [
            "10. TRAINING",
            "All staff complete the firm's AML e-learning every year by 30 June. The pass mark is 80%.",
            "New joiners complete it within their first month, before they work on any client file.",
            "The MLRO attends an external refresher course every year.",
            "",
            "11. RECORD KEEPING",
            "CDD records and risk assessments are kept in Ledgerline for five years after the client",
            "relationship ends, then deleted. Internal reports and the MLRO's decisions are kept for",
            "the same period in a restricted folder that only the MLRO and the deputy MLRO can open.",
            "",
            "12. ANNUAL REPORT",
            "The MLRO reports to the partners each January on internal reports, SARs made, training",
            "completion and any changes in the law.",
            "",
            "Questions about this policy: Imran Qureshi, extension 214, mlro@pembertonoakes.example.",
        ],
    ],
}
