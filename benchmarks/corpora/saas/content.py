"""Internal documents of Pollen Labs Ltd, a fictional 60-person, remote-first B2B SaaS
company (field-service scheduling and invoicing for trades businesses) with one office in
Bristol. Written by its own staff for colleagues: an upbeat People-team handbook, an
all-hands deck with speaker notes, terse engineering material (on-call rota, service
ownership export, onboarding guide, post-mortem mail), a Finance intranet page on expenses,
an IT laptop-refresh announcement and a formal information-security policy."""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------------------------------
# Word
# ---------------------------------------------------------------------------------------

DOCX: dict[str, list[tuple[str, Any]]] = {
    "pollen_employee_handbook.docx": [
        ("title", "Pollen Labs Employee Handbook"),
        (
            "p",
            "Version 4.1, last updated August 2025. Owned by the People team "
            "(people@pollenlabs.io, #ask-people on Slack). If something here is unclear "
            "or out of date, tell us - this is a living doc!",
        ),
        ("h1", "Welcome to Pollen"),
        (
            "p",
            "Hey, and a huge welcome! Pollen helps plumbers, electricians and HVAC firms "
            "run their day: scheduling, routing, quoting and getting paid. We're around 60 "
            "people, mostly remote, spread across the UK with a handful of folks in "
            "Ireland and Portugal. This handbook covers how we work, time off, pay, "
            "benefits and the practical bits. It doesn't replace your contract - where the "
            "two disagree, your contract wins.",
        ),
        (
            "p",
            "Your first port of call for anything people-related is your manager, then "
            "Priya Shah (Head of People) or Tom Avery (People Partner). For laptops, "
            "accounts and the office, ask Hannah Doyle in #it-help.",
        ),
        ("h1", "How we work"),
        (
            "p",
            "We're remote-first: nobody is expected to come into the office, and every "
            "meeting has a video link. To keep collaboration sane across the team we ask "
            "everyone to be reachable during core hours of 10:00 to 15:00 UK time, Monday "
            "to Friday. Outside those hours, shape your day however works for you and your "
            "team. Put your working pattern in your Slack profile so people know when to "
            "expect a reply.",
        ),
        (
            "p",
            "Working from abroad: you can work from outside your home country for up to 30 "
            "days a year, as long as your manager has approved it and you've given "
            "people@ a heads-up at least two weeks before you go (there are tax and "
            "right-to-work rules we need to check). Countries on the security team's "
            "restricted travel list are off limits for work devices.",
        ),
        (
            "p",
            "Our one office is The Hive, 3rd floor, 21 Welsh Back, Bristol. It's open "
            "Monday to Friday, 8am to 7pm, and desks are booked through Officely. "
            "Wednesday is our anchor day, when most Bristol-based teams come in, so it's "
            "the best day to visit. Ask Hannah for a door fob on your first visit.",
        ),
        (
            "p",
            "1:1s: every person has a 1:1 with their manager at least every two weeks "
            "(most teams do weekly). Your 1:1 is your time - bring the agenda. OKRs are "
            "set quarterly at company level and each team sets its own to match.",
        ),
        ("h1", "Time off"),
        (
            "p",
            "Everyone gets 27 days of paid time off a year, plus UK bank holidays (or your "
            "local public holidays if you're based in Ireland or Portugal). Part-timers get "
            "the same, pro rata. On top of that the whole company shuts down between "
            "Christmas and New Year, and those days don't come out of your allowance.",
        ),
        (
            "p",
            "Book PTO in HiBob. For anything longer than three days, please give notice of "
            "at least twice the length of the break (so two weeks' notice for a week off). "
            "You can carry over up to 5 unused days into the next holiday year, which runs "
            "January to December; carried-over days must be used by 31 March or they're "
            "lost. We also give you a paid day off on your birthday, or the nearest working "
            "day if it falls on a weekend.",
        ),
        (
            "p",
            "Feeling unwell? Tell your manager before 10:00 and log it in HiBob. You can "
            "self-certify for up to 7 calendar days; after that we'll need a fit note from "
            "your GP. We pay full salary for up to 15 working days of sickness in any "
            "rolling 12 months, then Statutory Sick Pay applies. Please don't work when "
            "you're ill - seriously.",
        ),
        (
            "p",
            "Parental leave (birth, adoption and surrogacy): if you're the primary carer "
            "you get 20 weeks at full pay, then 6 weeks at half pay, then statutory pay for "
            "the rest of your leave. Secondary carers get 6 weeks at full pay, which can be "
            "taken in up to three blocks any time in the first year. To qualify for the "
            "enhanced pay you need 6 months' continuous service by the expected week of "
            "birth or the placement date; before that, statutory pay applies. You can use up "
            "to 10 keeping-in-touch days while you're off.",
        ),
        (
            "p",
            "Bereavement: up to 10 days' paid leave when you lose a partner, child, parent "
            "or sibling, and up to 3 days for other relatives or close friends. Talk to "
            "your manager or Priya - we'll be flexible.",
        ),
        (
            "p",
            "Volunteering: 2 paid days a year to volunteer for a charity or community "
            "cause of your choice. Sabbatical: once you reach 4 years at Pollen, you can "
            "take a 4-week paid sabbatical (on top of your normal PTO) within the following "
            "two years.",
        ),
        ("h1", "Pay, reviews and promotions"),
        (
            "p",
            "Payroll runs monthly and you're paid on the 25th, or the last working day "
            "before it if the 25th falls on a weekend or bank holiday. Payslips appear in "
            "HiBob. Every role sits in a salary band, and bands are reviewed annually "
            "against market data from Ravio.",
        ),
        (
            "p",
            "We run performance reviews twice a year, in April and October. Promotions and "
            "pay changes only happen through the review cycle, and any pay change from the "
            "April cycle takes effect from 1 May (October cycle changes take effect from "
            "1 November).",
        ),
        ("h1", "Probation and notice"),
        (
            "p",
            "Probation lasts 3 months and can be extended once by up to 3 more months if we "
            "need more time together. During probation the notice period on both sides is "
            "1 week. After probation it's one month, or three months for leads and anyone "
            "with Head of or VP in their title.",
        ),
        ("h1", "Benefits"),
        (
            "p",
            "Here's what you get. Anything marked 'after probation' starts the first day of "
            "the month after you pass. Questions go to people@.",
        ),
        (
            "table",
            [
                ["Benefit", "What you get", "When it starts", "Good to know"],
                [
                    "Pension",
                    "5% employer contribution when you put in at least 3%",
                    "From your first payroll",
                    "Salary sacrifice through Penfold, so you save NI too",
                ],
                [
                    "Private medical",
                    "Vitality cover for you, paid by Pollen",
                    "After probation",
                    "Partner and kids can be added at your own cost (taxable)",
                ],
                [
                    "Dental and optical",
                    "Cash plan, up to £600 back each year",
                    "After probation",
                    "Claim through the Bupa app",
                ],
                ["Life assurance", "4x base salary", "Day one", "Name your beneficiaries in HiBob"],
                [
                    "Income protection",
                    "75% of salary for up to 2 years",
                    "Day one",
                    "Kicks in after 26 weeks of continuous absence",
                ],
                [
                    "Home office setup",
                    "£600 one-off for desk, chair, monitor",
                    "First month",
                    "Claim through Pleo with receipts",
                ],
                [
                    "Remote working allowance",
                    "£30 a month towards internet and bills",
                    "Day one",
                    "Added to payroll, taxed as income",
                ],
                [
                    "Coworking",
                    "Up to £150 a month for a coworking desk",
                    "Day one",
                    "Only if you live more than 50 miles from the Bristol office",
                ],
                [
                    "Learning budget",
                    "£1,200 per year plus 3 learning days",
                    "After probation",
                    "Courses, conferences, books; unused budget doesn't roll over",
                ],
                [
                    "Wellbeing allowance",
                    "£50 a month via Juno",
                    "Day one",
                    "Gym, therapy, yoga, running shoes - your call",
                ],
                [
                    "Cycle to work",
                    "Bike and kit up to £3,000",
                    "After probation",
                    "Through Cyclescheme, paid back from gross salary over 12 months",
                ],
                [
                    "Employee assistance",
                    "24/7 counselling line and 6 therapy sessions a year",
                    "Day one",
                    "Run by Spill, fully confidential",
                ],
                [
                    "Share options",
                    "EMI options, 4-year vesting with a 1-year cliff",
                    "Per your offer letter",
                    "Granted at the next board meeting after you join",
                ],
            ],
        ),
        ("h1", "Equipment"),
        (
            "p",
            "You'll get a MacBook before your first day, set up and enrolled in our device "
            "management. Laptops are refreshed on a three-year cycle - IT will get in touch "
            "when yours is due. Please don't install unapproved software on it; the "
            "Information Security Policy has the details.",
        ),
        ("h1", "Leaving Pollen"),
        (
            "p",
            "We'll be sad to see you go. Hand in your notice in writing to your manager and "
            "copy people@. Your kit (laptop, charger, door fob, any YubiKeys) needs to come "
            "back within 14 days of your last day - Hannah will send a prepaid courier box. "
            "Unused PTO is paid out in your final salary; if you've taken more than you've "
            "accrued, the difference is deducted.",
        ),
    ],
}

# ---------------------------------------------------------------------------------------
# PowerPoint
# ---------------------------------------------------------------------------------------

PPTX: dict[str, list[dict[str, Any]]] = {
    "all_hands_oct_2025.pptx": [
        {
            "title": "Pollen All-Hands: Q3 wrap and Q4 plans",
            "body": [
                "Thursday 9 October 2025, 16:00 UK",
                "Bristol office + Zoom",
                "Hosts: Maya Okonkwo (CEO) and Daniel Reyes (CTO)",
            ],
            "notes": "Maya opens. Remind everyone the recording goes in #all-hands within 24 "
            "hours and the Q&A doc stays open until Friday 5pm. Cameras optional.",
        },
        {
            "title": "Q3 in numbers",
            "body": [
                "ARR £7.4M at 30 September",
                "41 new customers signed in Q3",
                "Net revenue retention 112%",
                "Gross logo churn 1.9% for the quarter",
                "Route optimiser now used by 63% of active accounts",
            ],
            "notes": "Biggest new logo this quarter was Hartwell Heating & Cooling, 320 seats, "
            "closed by Jess in the last week of September. Please don't share the ARR "
            "figure outside the company - it's fine to say we're growing fast.",
        },
        {
            "title": "Q4 company OKRs",
            "body": [
                "O1: Become the default tool for mid-size HVAC firms",
                "KR: 30 new logos in Q4; KR: Xero two-way sync GA by 30 November",
                "O2: Customers can rely on us",
                "KR: 99.95% uptime on Tier 1 services; KR: zero SEV1s caused by config changes",
                "O3: Pollen is a great place to work",
                "KR: eNPS of 40 or above in the December pulse survey",
            ],
            "notes": "Sofia owns O2 and will share the reliability dashboard in #eng-reliability "
            "every Monday. Team OKRs are due to your lead by 17 October.",
        },
        {
            "title": "Headcount by team",
            "table": [
                ["Team", "Today", "Hiring in Q4", "Lead"],
                [
                    "Product engineering",
                    "22",
                    "+2 (senior backend, staff frontend)",
                    "Sofia Lindqvist",
                ],
                ["Platform and SRE", "6", "+1 (SRE)", "Marcus Chen"],
                ["Data", "4", "None planned", "Aisha Rahman"],
                ["Product and design", "7", "+1 (product designer)", "Nadia Haddad"],
                ["Sales", "8", "+3 (2 AEs, 1 SDR)", "Jess Whitfield"],
                ["Customer success and support", "8", "+1 (support engineer)", "Callum Reid"],
                ["People, finance and ops", "5", "No change", "Priya Shah"],
                ["Total", "60", "+8", "-"],
            ],
            "notes": "All open roles are on the careers page. Reminder: the referral bonus is "
            "£2,000, paid once your referral passes probation. It doesn't apply to "
            "people-managers hiring into their own team.",
        },
        {
            "title": "Product: what's shipping",
            "body": [
                "Xero two-way sync: beta with 25 customers now, GA target 30 November",
                "Route optimiser v2 (live traffic + skills matching): beta in November",
                "Mobile app offline mode: Q1 2026",
                "QuickBooks sync refresh: discovery only this quarter",
            ],
            "notes": "Nadia to demo route optimiser v2. If customers ask about offline mode, "
            "the line is 'early next year' - no specific date until the Q1 plan is locked.",
        },
        {
            "title": "Reliability",
            "body": [
                "Q3 uptime 99.91% against a 99.95% target",
                "2 SEV1s and 5 SEV2s in Q3",
                "16 Sep payments-sync SEV1: full post-mortem sent to engineering@",
                "Incident commander rota opening to non-SRE volunteers",
            ],
            "notes": "Marcus presents. Both SEV1s were config changes, hence the KR. Incident "
            "commander training for new volunteers is on Thursday 23 October, 14:00 to "
            "16:00, in person in Bristol with a Zoom link for remote folks. Sign up in "
            "#incident-commanders.",
        },
        {
            "title": "People updates",
            "body": [
                "Welcome Ama, Jamal, Lucy and Oscar!",
                "Pulse survey: eNPS 34 (up from 27 in March)",
                "Winter party: Thursday 11 December, Bristol",
                "Laptop refresh kicks off this month - watch for Hannah's e-mail",
            ],
            "notes": "Priya presents. Party: we'll cover train travel and one night's hotel "
            "for anyone coming from outside Bristol; book through TravelPerk by 14 "
            "November. The party is staff-only this year. Top survey theme was "
            "clarity on career progression - the new levelling framework lands in January.",
        },
        {
            "title": "Q&A",
            "body": [
                "Pre-submitted questions first, then open floor",
                "Anything we can't answer live goes in the Q&A doc",
            ],
            "notes": "Pre-submitted answers. Are we raising? No plans in the next 12 months: "
            "the £12M Series A led by Northmoor Ventures closed in March and gives us "
            "runway into 2028. Will salary bands be visible? Yes, all bands will be "
            "published internally in HiBob by the end of January. Is there a 4-day-week "
            "trial? Not this year. Is the office moving? No, the lease on The Hive runs "
            "to 2027.",
        },
    ],
}

# ---------------------------------------------------------------------------------------
# Excel
# ---------------------------------------------------------------------------------------

XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "oncall_rota_q4_2025.xlsx": {
        "Rota": [
            ["Week commencing", "Primary", "Secondary", "Incident commander", "Notes"],
            [
                "Mon 6 Oct 2025",
                "Leah Morgan",
                "Tomasz Nowak",
                "Marcus Chen",
                "Handover every Monday 10:00 UK in #oncall",
            ],
            ["Mon 13 Oct 2025", "Ben Hollis", "Chloe Barker", "Ines Duarte", ""],
            [
                "Mon 20 Oct 2025",
                "Dev Patel",
                "Ewan Fraser",
                "Ravi Menon",
                "Dev and Ewan swapped primary/secondary (Ewan at a wedding Sat)",
            ],
            ["Mon 27 Oct 2025", "Fatima Zahra", "George Kim", "Kate O'Brien", ""],
            ["Mon 3 Nov 2025", "Tomasz Nowak", "Leah Morgan", "Sofia Lindqvist", ""],
            [
                "Mon 10 Nov 2025",
                "Chloe Barker",
                "Ben Hollis",
                "Marcus Chen",
                "Xero sync GA prep - expect integrations-hub deploys",
            ],
            [
                "Mon 17 Nov 2025",
                "Jamal Idris",
                "Fatima Zahra",
                "Ines Duarte",
                "Jamal's first week as primary - George shadowing",
            ],
            ["Mon 24 Nov 2025", "Ewan Fraser", "Dev Patel", "Ravi Menon", ""],
            ["Mon 1 Dec 2025", "George Kim", "Hugo Silva", "Kate O'Brien", ""],
            [
                "Mon 8 Dec 2025",
                "Isla Grant",
                "Tomasz Nowak",
                "Leah Morgan",
                "Winter party Thu 11 Dec - secondary stays sober-ish",
            ],
            [
                "Mon 15 Dec 2025",
                "Leah Morgan",
                "Chloe Barker",
                "Sofia Lindqvist",
                "Code freeze from Fri 19 Dec 15:00 until Mon 5 Jan",
            ],
            [
                "Mon 22 Dec 2025",
                "Ben Hollis",
                "Isla Grant",
                "Marcus Chen",
                "Bank holidays 25 and 26 Dec: one extra day off in lieu per bank holiday covered",
            ],
            [
                "Mon 29 Dec 2025",
                "Fatima Zahra",
                "Ewan Fraser",
                "Ines Duarte",
                "Company shutdown week - pages for Tier 1 only",
            ],
        ],
        "Escalation": [
            [
                "Severity",
                "What it looks like",
                "Ack within",
                "Who gets paged",
                "If nobody acks",
                "Status page",
                "Post-mortem",
            ],
            [
                "SEV1",
                "Full outage, data loss or payments failing for multiple customers",
                "5 minutes, day or night",
                "Primary, secondary and incident commander",
                "Auto-escalates to the owning team's EM after 15 minutes, then CTO",
                "Update within 15 minutes of declaring",
                "Required, within 5 working days",
            ],
            [
                "SEV2",
                "Major feature degraded for many customers, or full outage for one customer",
                "15 minutes",
                "Primary",
                "Secondary after 15 minutes, then incident commander",
                "Update within 30 minutes",
                "Required, within 10 working days",
            ],
            [
                "SEV3",
                "Minor degradation with a workaround, or an internal tool down",
                "Next business hour",
                "Owning team's Slack channel (no page)",
                "Raised at the team's next standup",
                "Not needed",
                "Optional, at the EM's discretion",
            ],
            [
                "SEV4",
                "Cosmetic bug or single-user issue",
                "No ack needed",
                "Nobody - raise a Linear ticket",
                "n/a",
                "No",
                "No",
            ],
        ],
    },
}

# ---------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------

CSV: dict[str, list[list[str]]] = {
    "service_ownership_export.csv": [
        ["service", "owner_team", "tier", "runbook", "pager_channel"],
        [
            "api-gateway",
            "Platform",
            "1",
            "https://notion.so/pollenlabs/rb-api-gateway-4f21",
            "#page-api-gateway",
        ],
        [
            "auth-service",
            "Platform",
            "1",
            "https://notion.so/pollenlabs/rb-auth-service-91ac",
            "#page-auth",
        ],
        [
            "scheduler-core",
            "Scheduling",
            "1",
            "https://notion.so/pollenlabs/rb-scheduler-core-07de",
            "#page-scheduler",
        ],
        [
            "route-optimiser",
            "Scheduling",
            "2",
            "https://notion.so/pollenlabs/rb-route-optimiser-b3e9",
            "#page-routing",
        ],
        [
            "payments-sync",
            "Payments",
            "1",
            "https://notion.so/pollenlabs/rb-payments-sync-5c80",
            "#page-payments",
        ],
        [
            "invoice-renderer",
            "Payments",
            "2",
            "https://notion.so/pollenlabs/rb-invoice-renderer-2d14",
            "#page-invoicing",
        ],
        [
            "webhooks-dispatcher",
            "Integrations",
            "1",
            "https://notion.so/pollenlabs/rb-webhooks-dispatcher-e6f3",
            "#page-webhooks",
        ],
        [
            "integrations-hub",
            "Integrations",
            "2",
            "https://notion.so/pollenlabs/rb-integrations-hub-a871",
            "#page-integrations",
        ],
        [
            "notifications",
            "Scheduling",
            "2",
            "https://notion.so/pollenlabs/rb-notifications-3b5f",
            "#page-notify",
        ],
        [
            "mobile-bff",
            "Apps",
            "1",
            "https://notion.so/pollenlabs/rb-mobile-bff-c2d0",
            "#page-mobile",
        ],
        [
            "search-indexer",
            "Platform",
            "3",
            "https://notion.so/pollenlabs/rb-search-indexer-8e47",
            "#alerts-search",
        ],
        [
            "reporting-warehouse",
            "Data",
            "3",
            "https://notion.so/pollenlabs/rb-reporting-warehouse-1a9b",
            "#alerts-data",
        ],
        [
            "admin-console",
            "Platform",
            "3",
            "https://notion.so/pollenlabs/rb-admin-console-6d22",
            "#alerts-admin",
        ],
        [
            "feature-flags",
            "Platform",
            "2",
            "https://notion.so/pollenlabs/rb-feature-flags-f05c",
            "#page-flags",
        ],
        [
            "audit-log",
            "Security",
            "2",
            "https://notion.so/pollenlabs/rb-audit-log-7b3e",
            "#page-audit",
        ],
    ],
}

# ---------------------------------------------------------------------------------------
# E-mail
# ---------------------------------------------------------------------------------------

EML: dict[str, dict[str, Any]] = {
    "postmortem_payments_sync_sev1.eml": {
        "subject": "Post-mortem: SEV1 INC-2025-031 payments-sync (16 Sep)",
        "from": "Marcus Chen <marcus.chen@pollenlabs.io>",
        "to": "engineering@pollenlabs.io",
        "date": "Fri, 19 Sep 2025 11:20:00 +0100",
        "text": (
            "All,\n\n"
            "Summary of Tuesday's SEV1. Full doc in Notion under Incidents > INC-2025-031. "
            "Blameless as always.\n\n"
            "WHAT HAPPENED\n"
            "Tue 16 Sep, 14:12 to 16:47 BST (2h 35m). Card and bank payments made by our "
            "customers' end-clients were taken by Stripe but never marked as paid in Pollen. "
            "Invoices sat in 'processing'. 1,318 invoices across 212 customers affected. "
            "No money was lost or double-charged.\n\n"
            "Knock-on: because invoices looked unpaid, notifications sent overdue reminders "
            "to 407 end-clients who had already paid. That's what most of the customer "
            "anger was about.\n\n"
            "ROOT CAUSE\n"
            "The Stripe webhook signing secret was rotated in the Stripe dashboard at 14:05 "
            "as part of a planned key rotation, but the new value was never written to AWS "
            "Secrets Manager. webhooks-dispatcher rejected every Stripe event with a 400 "
            "(signature mismatch). Stripe retries with backoff, so nothing was dropped, but "
            "payments-sync received nothing for the whole window.\n\n"
            "DETECTION\n"
            "Bad. We found out from a support ticket raised by Hartwell Heating at 15:31, "
            "79 minutes in. No alert fires on webhook 4xx rates. Leah Morgan was IC; Ben "
            "Hollis was primary.\n\n"
            "RESOLUTION\n"
            "Ben updated the secret in Secrets Manager and restarted webhooks-dispatcher at "
            "16:29. Stripe's retries drained the backlog by 16:47. Ravi's team then ran a "
            "script to send a 'sorry, ignore that reminder' message to the 407 end-clients.\n\n"
            "CUSTOMER COMMS\n"
            "Status page updated at 15:40 (late - should have been 15 min after declaring). "
            "Callum's team e-mailed all 212 affected customers on Wednesday. Each gets a 10% "
            "credit on their October invoice; CS will apply it, no action needed from eng.\n\n"
            "ACTIONS\n"
            "1. Alert when webhook 4xx rate > 5% for 5 min, paging #page-webhooks. "
            "Owner: Marcus Chen. Due 30 Sep.\n"
            "2. Secret rotation runbook, two-person rule, rotation via Terraform only. "
            "Owner: Ines Duarte. Due 10 Oct.\n"
            "3. Pause overdue reminders automatically when payment ingestion lag > 30 min. "
            "Owner: Ravi Menon. Due 17 Oct.\n"
            "4. IC checklist: status page update is step 2, not an afterthought. "
            "Owner: Leah Morgan. Due 26 Sep.\n\n"
            "Post-mortem review was Thu 18 Sep; recording is in #incidents. Questions to "
            "me or in the thread.\n\n"
            "Marcus\n"
            "Platform & SRE lead"
        ),
    },
    "laptop_refresh_announcement.eml": {
        "subject": "Laptop refresh 2025 - are you due a new Mac?",
        "from": "Hannah Doyle <hannah.doyle@pollenlabs.io>",
        "to": "everyone@pollenlabs.io",
        "date": "Tue, 21 Oct 2025 09:30:00 +0100",
        "text": (
            "Hi everyone!\n\n"
            "It's that time - the 2025 laptop refresh is open. We replace laptops every "
            "three years, so if your current Mac was purchased before 1 November 2022 you're "
            "eligible. Not sure how old yours is? Open Kandji Self Service and look at the "
            "'Purchase date' on the device tab, or ask me in #it-help.\n\n"
            "What you'll get:\n"
            '- Engineering, data and design: MacBook Pro 14" with M4 Pro, 24GB RAM, 512GB\n'
            '- Everyone else: MacBook Air 15" with M4, 16GB RAM, 512GB\n'
            "If you need something different for a genuine work reason (e.g. more RAM for "
            "ML work), say so on the form and your manager will be asked to approve it.\n\n"
            "How to request:\n"
            "Fill in the 'Laptop refresh' form in Kandji Self Service by Friday 14 November. "
            "Orders go in as one batch the week after, and new machines ship from 1 December "
            "to your home address (or to The Hive if you'd rather collect it on a Wednesday).\n\n"
            "Setting up:\n"
            "The new laptop arrives pre-enrolled. Sign in with your Okta account and it'll "
            "pull down your apps. Please use Migration Assistant only for your home folder - "
            "not apps or system settings - so the new machine stays clean.\n\n"
            "Your old laptop:\n"
            "Send it back within 14 days of receiving the new one, using the prepaid DPD "
            "label that comes in the box. I'll wipe it and it'll go to our refurb partner. "
            "If you'd like to keep it instead, you can buy it for a flat £100, deducted "
            "from your next payslip - tick the box on the form. It still gets wiped and "
            "re-imaged before it's yours, and it has to be returned to me first.\n\n"
            "Joined recently or laptop newer than Nov 2022? Nothing to do, you'll be in a "
            "future batch.\n\n"
            "One more thing: the Bristol office will be closed on Friday 7 November while "
            "the new Wi-Fi and access-control system go in. Desk bookings for that day "
            "have been cancelled.\n\n"
            "Thanks!\n"
            "Hannah\n"
            "Workplace & IT Manager"
        ),
    },
}

# ---------------------------------------------------------------------------------------
# Markdown and HTML
# ---------------------------------------------------------------------------------------

TEXT: dict[str, str] = {
    "engineering_onboarding.md": """# Engineering onboarding

Maintained by Platform & SRE. PRs welcome (repo: `pollenlabs/eng-handbook`). Last reviewed Sept 2025.

Read this in week 1. Your buddy will walk you through the rest. Stuck? Ask in `#eng-help` - no question is too small.

## Week 1 checklist

| Day | What | Who |
|-----|------|-----|
| Mon | Laptop, Okta SSO, Slack, Google Workspace | Hannah (IT) |
| Mon | GitHub org invite, 1Password Engineering vault | Your EM |
| Tue | Local env up, first `make test` passing | Your buddy |
| Wed | Architecture walkthrough (90 min, recorded) | Marcus Chen |
| Thu | Ship a one-line PR to production | You + buddy |
| Fri | Security training in Vanta (must be done within 30 days, do it now) | You |

## Access

- Everything goes through Okta SSO. If an app isn't in your Okta dashboard, you probably don't need it; if you do, ask your EM.
- Internal tools (Grafana, admin-console, staging) are only reachable over Tailscale. Install it from Kandji Self Service and log in with Okta.
- AWS: no IAM users. Use `aws sso login --profile pollen-dev` for dev and staging. Prod access is via the `prod-readonly` role only, and write access is break-glass (request in `#prod-access`, approved by an SRE, auto-expires after 4 hours).
- Secrets live in 1Password (human) or AWS Secrets Manager (services). Never in `.env` files committed to git.

## Local setup

We're a monorepo (`pollenlabs/pollen`) plus `pollenlabs/infra` for Terraform.

```
git clone git@github.com:pollenlabs/pollen.git
cd pollen
brew bundle --file=Brewfile
make bootstrap
pollen dev up
```

- `make bootstrap` installs the pinned toolchain via mise: Go 1.22, Node 20, Postgres 15 client.
- `pollen dev up` starts everything in Docker Compose. First run pulls ~6GB, so do it on decent Wi-Fi.
- `make seed` loads the fake customer "Acme Plumbing" with 2,000 jobs. Never load real customer data locally.
- M-series Macs: if Postgres won't start, run `pollen dev reset` before asking.

## How we ship

- Trunk-based. Branch names: `<initials>/<linear-id>-short-slug`, e.g. `lm/SCH-412-fix-overlap`.
- PRs need 1 approving review and green CI. Tier 1 services (see the service ownership export) need 2 approvals, one from the owning team.
- Merge to `main` auto-deploys to staging.
- Prod deploys: `/deploy <service> prod` in `#deploys`. The bot runs the canary (10% for 10 min) and rolls back on error-rate alerts.
- No prod deploys after 15:00 on Fridays, on bank holidays, or during a code freeze unless the IC or an EM signs off in `#deploys`.
- Feature flags: anything customer-visible ships behind a flag in `feature-flags`. Clean up flags within 30 days of full rollout.

## Tiers and on-call

| Tier | Meaning | Paging |
|------|---------|--------|
| 1 | Customer-facing, money or scheduling breaks without it | 24/7 pages |
| 2 | Customer-facing, degraded experience if down | Pages 08:00-20:00 UK, otherwise next morning |
| 3 | Internal or batch | No pages, Slack alerts only |

- You join the shadow rotation after 6 weeks, and go on the primary rota after 3 months (your EM decides if it's sooner).
- On-call pay: £200 per week as primary, £100 per week as secondary, paid with the next month's payroll.
- If you're paged between 00:00 and 07:00, take the following morning off. No need to ask, just post in `#oncall`.
- Swaps: arrange them yourself, then update the rota sheet and PagerDuty. Both people must confirm in `#oncall`.
- Severity definitions and escalation paths live in the on-call rota workbook (Escalation tab).

## Rituals

- Async standup via Geekbot at 10:00.
- Eng sync: Wednesdays 16:00, 30 min.
- Demo Friday: every other Friday at 15:30. New joiners demo their first PR in week 2.
- Incident reviews: Thursdays 11:00, whenever there's a SEV1 or SEV2 to talk through.
""",
    "expenses_and_travel.html": """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Expenses &amp; travel - Pollen Intranet</title></head>
<body>
<nav><a href="/">Intranet home</a> &gt; <a href="/finance">Finance</a> &gt; Expenses &amp; travel</nav>
<h1>Expenses &amp; travel</h1>
<p><em>Page owner: Olu Adeyemi, Finance Lead. Last updated 2 September 2025.</em></p>

<p>Spending company money should be easy and sensible. Everyone gets a Pleo card on day one. Use it for work purchases where you can, and use Pleo's reimbursement flow when you had to pay with your own card. If in doubt, ask in <strong>#finance-help</strong> before you spend, not after.</p>

<h2>The basics</h2>
<ul>
  <li>Snap a photo of every receipt in the Pleo app straight away. Receipts are required for everything.</li>
  <li>Submit out-of-pocket claims within 30 days of the purchase. Claims older than that need Olu's sign-off.</li>
  <li>Claims approved by the 15th of the month are paid with that month's payroll on the 25th; anything later goes into the following month.</li>
  <li>Anything over £500 needs your manager's approval <em>before</em> you buy it. Over £2,000 also needs Finance.</li>
  <li>Software subscriptions must go through the security review first (see the Information Security Policy), even if they're cheap.</li>
</ul>

<h2>Booking travel</h2>
<p>Book all trains, flights and hotels through TravelPerk so we can find you if something goes wrong. Business travel is covered by our company travel insurance automatically when you book through TravelPerk.</p>
<table>
  <thead><tr><th>What</th><th>Policy</th></tr></thead>
  <tbody>
    <tr><td>Trains</td><td>Standard class. First class only if it costs less than standard, or the journey is over 3 hours and your manager approves.</td></tr>
    <tr><td>Flights</td><td>Economy. Premium economy is fine for flights longer than 6 hours.</td></tr>
    <tr><td>Hotels in London</td><td>Up to £190 per night</td></tr>
    <tr><td>Hotels elsewhere in the UK</td><td>Up to £130 per night</td></tr>
    <tr><td>Meals while travelling in the UK</td><td>Up to £40 per day, breakfast included if your hotel offers it</td></tr>
    <tr><td>Driving your own car</td><td>45p per mile (HMRC rate), plus parking and tolls</td></tr>
    <tr><td>Taxis</td><td>When there's no reasonable public transport, or after 21:00</td></tr>
  </tbody>
</table>

<h2>Team meetups and the office</h2>
<p>We're remote-first, so we cover travel to Bristol for in-person team meetups, up to four times a year per person, plus the company-wide winter party. Trips to The Hive just because you fancy a change of scene are on you. Commuting to your usual place of work isn't claimable, so if you live in Bristol and work from the office, that's your commute.</p>

<h2>Client entertainment and gifts</h2>
<p>Taking a customer or prospect out? Get your manager's OK first. The limit is £75 per head including drinks and tip, and the most senior Pollen person at the table pays. Gifts to customers are capped at £50 per person per year.</p>

<h2>What we don't pay for</h2>
<ul>
  <li>Alcohol, except at team events where your lead has approved a bar tab.</li>
  <li>Fines: parking tickets, speeding, late-return fees.</li>
  <li>Upgrades to seats, rooms or car hire that aren't covered above.</li>
  <li>In-flight wifi, unless you're on call.</li>
</ul>

<h2>FAQ</h2>
<details><summary>I lost a receipt. Now what?</summary>
<p>Fill in a missing receipt declaration in Pleo (three dots on the expense, then "No receipt"). You can do this at most twice per quarter; after that, lost-receipt expenses aren't reimbursed.</p></details>
<details><summary>Can I expense a conference ticket?</summary>
<p>Yes, but it comes out of your learning budget, so check your balance with your manager first. Travel and hotel for the conference follow the normal travel rules on this page.</p></details>
<details><summary>What about tips?</summary>
<p>Tips up to 12.5% are fine on meals and taxis.</p></details>
<details><summary>My Pleo card was declined.</summary>
<p>Default card limit is £1,000 per month. If you need it raised for a trip, post in #finance-help with the dates and rough cost.</p></details>
<details><summary>Can I use my own card and collect points?</summary>
<p>Yes - pay with your own card and claim it back through Pleo within the 30 days. Loyalty points and air miles are yours to keep.</p></details>

<footer><p>Questions: #finance-help or finance@pollenlabs.io</p></footer>
</body>
</html>
""",
}

# ---------------------------------------------------------------------------------------
# PDF
# ---------------------------------------------------------------------------------------

PDF: dict[str, list[list[str]]] = {
    "information_security_policy.pdf": [
        [
            "POLLEN LABS LTD - INFORMATION SECURITY POLICY",
            "Document ISP-01, version 3.2. Effective 1 July 2025. Classification: Internal.",
            "Owner: Gareth Lloyd, Head of Security. Approved by: Daniel Reyes, CTO.",
            "",
            "1. PURPOSE AND SCOPE",
            "1.1 This policy sets the minimum security requirements for protecting Pollen Labs",
            "    information and the data our customers entrust to us.",
            "1.2 It applies to all employees, contractors and temporary staff, and to any device",
            "    or account used to access Pollen Labs systems.",
            "",
            "2. DEVICES",
            "2.1 Only company-issued laptops enrolled in Kandji may be used to access internal",
            "    systems, source code or customer data.",
            "2.2 FileVault disk encryption must be enabled at all times.",
            "2.3 Screens must lock automatically after 5 minutes of inactivity. Lock your screen",
            "    whenever you step away, including at home.",
            "2.4 Operating system updates must be installed within 14 days of release. Updates",
            "    flagged as critical by the Security team must be installed within 72 hours.",
            "2.5 Personal mobile phones may be used for Slack, e-mail and Okta Verify only, and",
            "    only with a screen lock and the latest major OS version.",
            "2.6 A lost or stolen device must be reported immediately, and in any case within",
            "    1 hour of discovery, so that it can be remotely wiped.",
            "",
            "3. IDENTITY AND ACCESS",
            "3.1 All business applications must be accessed through Okta single sign-on.",
            "3.2 Multi-factor authentication is mandatory for every account. Staff with any",
            "    production access must use a hardware security key (YubiKey), issued by IT.",
            "3.3 Access follows least privilege. Managers approve access requests; system",
            "    owners review all access to their systems every quarter.",
            "3.4 Leavers' access is revoked by the end of their last working day.",
            "3.5 Passwords not covered by SSO must be generated and stored in 1Password and be",
            "    at least 14 characters long. Passwords must never be reused or shared.",
            "",
            "4. DATA CLASSIFICATION",
            "4.1 Public: approved for anyone (marketing site, published help articles).",
            "4.2 Internal: for staff only (this policy, OKRs, most Slack and Notion content).",
            "4.3 Confidential: limited to those who need it (contracts, salaries, board papers).",
            "4.4 Restricted: customer personal data, end-client payment details and credentials.",
            "4.5 Restricted data must stay within production systems. It must not be copied to",
            "    laptops, pasted into Slack, Linear or e-mail, or shared in screenshots unless",
            "    fully redacted.",
        ],
        [
            "5. NETWORK AND REMOTE WORKING",
            "5.1 Internal tools are only available over the company Tailscale VPN.",
            "5.2 Public Wi-Fi (cafes, trains, hotels) may be used only with Tailscale connected.",
            "5.3 Work devices must not be taken to countries on the restricted travel list held",
            "    by the Security team without written approval from the Head of Security.",
            "",
            "6. THIRD-PARTY SOFTWARE AND VENDORS",
            "6.1 No new SaaS tool, browser extension or AI service may be used with company",
            "    data until it has passed a security review.",
            "6.2 Request a review with the Vendor Request form in #security. Allow 10 working",
            "    days; reviews for tools that will hold Restricted data may take longer.",
            "6.3 Free or trial accounts are not exempt from review.",
            "",
            "7. SECURITY INCIDENTS",
            "7.1 Report any suspected security incident, including clicking a suspicious link",
            "    or sending data to the wrong person, within 1 hour of noticing it.",
            "7.2 Report in #sec-incidents on Slack or by e-mail to security@pollenlabs.io. Out",
            "    of hours, page the security on-call via PagerDuty service 'Security'.",
            "7.3 Do not attempt to investigate, delete evidence or contact the attacker yourself.",
            "7.4 Reporting a mistake in good faith will never lead to disciplinary action.",
            "",
            "8. TRAINING",
            "8.1 All staff must complete security awareness training within 30 days of joining",
            "    and once every year after that.",
            "8.2 Security runs phishing simulations throughout the year. Report suspected",
            "    phishing with the 'Report phish' button in Gmail.",
            "",
            "9. EXCEPTIONS",
            "9.1 Exceptions to this policy must be requested in writing from the Head of",
            "    Security, stating the business reason and any compensating controls.",
            "9.2 Approved exceptions last for a maximum of 90 days and must then be renewed.",
            "",
            "10. COMPLIANCE",
            "10.1 Breaches of this policy may result in disciplinary action, up to and including",
            "     dismissal, and in access being suspended while the matter is reviewed.",
            "10.2 This policy is reviewed at least annually. Next review due: July 2026.",
        ],
    ],
}
