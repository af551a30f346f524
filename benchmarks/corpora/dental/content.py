"""Patient-facing documents of Cornmarket Dental Practice, a small independent mixed NHS and
private dental practice at 14 Cornmarket in the (fictional) Shropshire market town of
Brackenford. Written by the practice manager, reception lead and dentists for patients and
people thinking of registering: a printed information leaflet with fee tables, the slides and
speaker notes from a new-patient welcome evening, the 2026 price list workbook, a hygiene rota
export, two friendly e-mails from reception, an extraction aftercare page, the website FAQ and
the formal cancellation and complaints policy. The tone runs from chatty (reception e-mails)
through plain clinical (aftercare) to formal (policy)."""

from __future__ import annotations

from typing import Any

DOCX: dict[str, list[tuple[str, Any]]] = {
    "patient_information_leaflet.docx": [
        ("title", "Cornmarket Dental Practice - Patient Information Leaflet"),
        (
            "p",
            "Welcome to Cornmarket Dental Practice. We have looked after families in Brackenford "
            "since 1987, when Mr Geoffrey Marsh opened a single surgery above the old saddlery on "
            "Cornmarket. Today the practice is owned and run by his daughter, Dr Helen Marsh, and "
            "has three surgeries, a hygiene room and a small team who know most of our patients by "
            "name. This leaflet explains how the practice works, what we charge and how to reach us. "
            "Please keep it somewhere handy.",
        ),
        ("h1", "Finding us and getting in touch"),
        (
            "p",
            "Cornmarket Dental Practice, 14 Cornmarket, Brackenford, Shropshire SY7 9QD. "
            "Telephone 01632 960418. E-mail reception@cornmarketdental.co.uk. "
            "Website www.cornmarketdental.co.uk.",
        ),
        (
            "p",
            "We are on the east side of the market square, between Harrison's bakery and the "
            "building society. There is no parking at the practice itself. The nearest car park is "
            "the Smithfield Road pay-and-display, about three minutes' walk away. Two blue badge "
            "spaces in Tanners Yard, behind the practice, can be reserved by ringing reception the "
            "day before your appointment.",
        ),
        ("h1", "Opening hours"),
        (
            "table",
            [
                ["Day", "Hours", "Notes"],
                ["Monday", "8.30am to 5.30pm", ""],
                ["Tuesday", "8.30am to 7.00pm", "Late evening; last appointment 6.30pm"],
                ["Wednesday", "8.30am to 5.30pm", ""],
                ["Thursday", "8.00am to 5.30pm", "Early start for working patients"],
                ["Friday", "8.30am to 4.00pm", ""],
                [
                    "Saturday",
                    "9.00am to 12.30pm",
                    "First and third Saturday of the month only, pre-booked",
                ],
                ["Sunday", "Closed", ""],
            ],
        ),
        (
            "p",
            "The reception telephones are switched to the answerphone between 1.00pm and 2.00pm on "
            "weekdays so that the team can take a lunch break, but the front door stays open and "
            "you can still book or pay in person.",
        ),
        ("h1", "Our team"),
        (
            "table",
            [
                ["Name", "Role", "Qualifications / GDC number"],
                ["Dr Helen Marsh", "Principal Dentist", "BDS (Birmingham) 2004, GDC 68214"],
                ["Dr Tomasz Nowak", "Associate Dentist", "BDS (Cardiff) 2011, GDC 201377"],
                ["Dr Priya Raman", "Associate Dentist (from May 2026)", "BDS (Bristol) 2019"],
                ["Rachel Whitby", "Dental Hygienist", "Dip DH, GDC 4471"],
                [
                    "Sam Okafor",
                    "Dental Hygienist and Therapist",
                    "BSc Oral Health Science, GDC 263190",
                ],
                ["Carol Jenkins", "Practice Manager", ""],
                ["Bethan Lloyd", "Reception Lead", ""],
                [
                    "Gemma Price, Lauren Hughes, Aisha Karim",
                    "Dental Nurses",
                    "Aisha is in training",
                ],
            ],
        ),
        ("h1", "NHS and private care"),
        (
            "p",
            "We offer both NHS and private dentistry. Children under 18 are accepted for NHS care "
            "straight away. Our adult NHS list is full, so new adult patients who want NHS care "
            "join a waiting list and we contact them in date order as places come up. Anyone can "
            "register as a private patient or join the Cornmarket Care Plan, our monthly payment "
            "plan, without waiting.",
        ),
        (
            "p",
            "NHS charges are set by the government and are the same at every NHS practice in "
            "England. You pay one charge for each course of treatment, however many visits it "
            "takes. The current charges are:",
        ),
        (
            "table",
            [
                ["NHS band", "What it covers", "Charge"],
                [
                    "Band 1",
                    "Examination, diagnosis, advice, x-rays, and a scale and polish if clinically needed",
                    "£27.40",
                ],
                [
                    "Band 2",
                    "Everything in Band 1 plus fillings, root canal treatment and extractions",
                    "£75.30",
                ],
                [
                    "Band 3",
                    "Everything in Bands 1 and 2 plus crowns, dentures and bridges",
                    "£326.70",
                ],
                [
                    "Urgent treatment",
                    "Assessment and urgent care such as pain relief or a temporary filling",
                    "£27.40 per urgent course",
                ],
            ],
        ),
        (
            "p",
            "For a Band 3 course we ask for half of the charge when the moulds or scans for your crown, "
            "bridge or denture are taken, and the balance on the day it is fitted. Band 1 and Band 2 "
            "charges are paid at the first treatment appointment.",
        ),
        ("h1", "Who does not pay NHS charges"),
        ("li", "Under 18s, and under 19s in full-time education"),
        (
            "li",
            "Pregnant women, and women who have had a baby in the last 12 months (with a valid maternity exemption certificate)",
        ),
        (
            "li",
            "People receiving Income Support, income-based Jobseeker's Allowance, income-related Employment and Support Allowance, Pension Credit Guarantee Credit or qualifying Universal Credit",
        ),
        (
            "li",
            "People named on a valid HC2 certificate (people on an HC3 certificate may get partial help)",
        ),
        (
            "p",
            "We are required to ask for proof of exemption. If you claim free treatment and are not "
            "entitled to it, the NHS Business Services Authority may send you a penalty charge of up "
            "to £100 on top of the original charge.",
        ),
        ("h1", "Paying for your treatment"),
        (
            "p",
            "Private fees are on our separate price list, which you can pick up at reception or "
            "download from our website. You will always receive a written estimate before any "
            "private treatment over £150. We accept cash, debit cards, Visa and Mastercard credit "
            "cards, and Apple Pay and Google Pay. We no longer accept cheques.",
        ),
        ("h1", "Getting to your surgery"),
        (
            "p",
            "The front entrance on Cornmarket has two steps. Step-free access is through the rear "
            "door from Tanners Yard: ring the bell and a member of the team will come and let you in. "
            "Surgery 1 is on the ground floor. Surgeries 2 and 3 and the hygiene room are up one flight "
            "of stairs and there is no lift, so if you use a wheelchair or find stairs difficult, "
            "please tell us when you book and we will see you in Surgery 1. A hearing loop is "
            "fitted at the reception desk.",
        ),
        ("h1", "Dental emergencies"),
        (
            "p",
            "If you are a registered patient and in pain, ring us at 8.30am. We keep emergency "
            "slots free every morning and every afternoon and will always try to see you the same "
            "day. When we are closed, NHS patients should call NHS 111. Care Plan members can call "
            "the out-of-hours dentist rota we share with two other local practices on 07700 900461 "
            "(6pm to 10pm on weekdays, 9am to 1pm at weekends and on bank holidays).",
        ),
        ("h1", "Comments, compliments and complaints"),
        (
            "p",
            "We like to hear how we are doing. If something has not gone right, please speak to "
            "Carol Jenkins, our Practice Manager, or ask at reception for a copy of our complaints "
            "policy. Leaflet updated February 2026.",
        ),
    ],
}

PPTX: dict[str, list[dict[str, Any]]] = {
    "new_patient_welcome_evening.pptx": [
        {
            "title": "Welcome to Cornmarket Dental",
            "body": [
                "New patient welcome evening",
                "Tuesday 10 March 2026, 6.30pm, in the waiting room",
                "Carol Jenkins, Practice Manager, and Dr Helen Marsh, Principal Dentist",
            ],
            "notes": "Thank everyone for coming out on a weeknight. Tea, coffee and squash are on the "
            "table at the back; toilets are through reception on the left. We will talk for "
            "about 35 minutes and then take questions. Point out the fire exit through the "
            "rear door into Tanners Yard.",
        },
        {
            "title": "Who we are",
            "body": [
                "A family practice on Cornmarket since 1987",
                "3 dentists (from May), 2 hygienists, 3 dental nurses and 2 receptionists",
                "Around 6,200 patients on our books",
                "NHS for children, NHS waiting list for adults, private and Care Plan for everyone",
            ],
            "notes": "Mention that Dr Priya Raman joins us in May, so we will have three dentists again. "
            "Dr Nowak does most of our root canal work and has a special interest in it; he is "
            "the person to ask for if someone has had a bad experience with a root filling in "
            "the past. Sam is both a hygienist and a therapist, which means he can also do "
            "simple fillings on children when a dentist has prescribed them.",
        },
        {
            "title": "Registering with us",
            "body": [
                "Complete the registration form and medical history (online or on paper)",
                "No ID or proof of address needed",
                "Bring a list of any medicines you take",
                "Children are registered alongside a parent or guardian",
            ],
            "notes": "People always ask about ID. We do not need ID or proof of address to register, "
            "and NHS rules say we cannot turn anyone away for not having them. What we do need "
            "is an up-to-date medical history, and we ask you to check it at every visit. "
            "Forms need to reach us at least 48 hours before the first appointment so that the "
            "dentist has time to read them; if they arrive late we may have to move the "
            "appointment.",
        },
        {
            "title": "Your first appointment",
            "body": [
                "New patient examination: allow 45 minutes",
                "Teeth, gums, soft tissues and a mouth cancer check",
                "X-rays if the dentist needs them",
                "A written treatment plan and estimate to take home",
            ],
            "notes": "The first examination is longer than a routine check-up: 45 minutes instead of "
            "20. Ask people to arrive 10 minutes early. Most new adult patients have two small "
            "bitewing x-rays at the first visit unless they have had some taken elsewhere in the "
            "last year and can get them sent over. The treatment plan can be e-mailed if they "
            "prefer. The dentist will also set a recall interval, which for adults can be "
            "anything from 3 to 24 months depending on how healthy the mouth is.",
        },
        {
            "title": "NHS or private?",
            "table": [
                ["", "NHS", "Private"],
                ["Check-up", "Band 1 charge", "£52, or included in a Care Plan"],
                ["White fillings on back teeth", "Not normally available", "Available"],
                [
                    "Hygienist",
                    "Only when the dentist prescribes it",
                    "Book directly, no check-up needed",
                ],
                ["Saturday appointments", "Not available", "First and third Saturdays"],
            ],
            "notes": "Please do not run down the NHS; lots of our patients are NHS and very happy. "
            "Explain that on the NHS, back teeth are normally filled with amalgam or glass "
            "ionomer rather than white composite. Mixed treatment is allowed: someone can have "
            "an NHS course and choose to pay privately for a white filling on a back tooth, but "
            "the dentist has to write that on the treatment plan before it is done.",
        },
        {
            "title": "The Cornmarket Care Plan",
            "table": [
                ["Plan", "Per month", "What is included"],
                ["Essentials", "£14.50", "2 check-ups a year, x-rays, 5% off treatment"],
                [
                    "Essentials Plus",
                    "£21.90",
                    "2 check-ups, 2 hygiene visits (30 minutes), x-rays, 10% off treatment",
                ],
                ["Child (under 18)", "£6.50", "2 check-ups, fluoride varnish, fissure sealants"],
            ],
            "notes": "Plans are paid by Direct Debit on the 1st of each month. There is a one-off joining "
            "fee of £20, which we are waiving for anyone who signs up at tonight's evening. The "
            "minimum term is 12 months, after which one month's notice is enough to leave. "
            "Hygiene visits that are not used in the year do not roll over. The child plan is "
            "only for children whose parent is a private or plan patient; children can of "
            "course have free NHS care instead.",
        },
        {
            "title": "Keeping in touch",
            "body": [
                "Text reminder 2 days before every appointment",
                "E-mail when your check-up is due",
                "Please tell us when your mobile number or address changes",
            ],
            "notes": "Our reminder texts come from the sender name CornmktDent. Replying C confirms the "
            "appointment. We stopped posting recall cards in February except for people with no "
            "mobile or e-mail. Bethan can change anyone's contact preferences at the desk tonight.",
        },
        {
            "title": "If you cannot make it",
            "body": [
                "Please give us at least 24 hours' notice",
                "Missed private appointments are charged",
                "Full details in our cancellation policy",
            ],
            "notes": "Keep this light. Most people are very good. Mention that someone else is always "
            "waiting for a slot, especially for the hygienists, and that the Tuesday evening and "
            "Saturday appointments are booked up about six weeks ahead.",
        },
        {
            "title": "Any questions?",
            "body": [
                "Reception: 01632 960418",
                "reception@cornmarketdental.co.uk",
                "www.cornmarketdental.co.uk",
            ],
            "notes": "Hand out the registration packs and the 2026 price list. Anyone joining a Care Plan "
            "tonight can fill in the Direct Debit form with Bethan at the desk. Dr Marsh will "
            "stay behind until 8pm for anyone who wants a quick private word about a worry.",
        },
    ],
}

XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "price_list_2026.xlsx": {
        "NHS Charges": [
            ["Band", "Charge", "What is included", "Examples"],
            [
                "Band 1",
                "£27.40",
                "Examination, diagnosis and preventive care",
                "Check-up, x-rays, scale and polish if clinically needed, fluoride varnish",
            ],
            [
                "Band 2",
                "£75.30",
                "All Band 1 treatment plus further treatment",
                "Fillings, root canal treatment, extractions, gum treatment",
            ],
            [
                "Band 3",
                "£326.70",
                "All Band 1 and 2 treatment plus laboratory work",
                "Crowns, dentures, bridges",
            ],
            [
                "Urgent",
                "£27.40",
                "Urgent assessment and treatment",
                "Pain relief, temporary filling, re-cementing a crown",
            ],
            ["Denture repair", "Free", "No charge", "Repairs to an NHS denture"],
            ["Removal of stitches", "Free", "No charge", ""],
            [
                "Lost or damaged appliance",
                "30% of the Band 3 charge",
                "Replacement within 12 months",
                "Replacing a denture lost or damaged through no fault of the dentist",
            ],
        ],
        "Private Fees": [
            ["Category", "Treatment", "Fee", "Notes"],
            [
                "Examinations",
                "New patient examination",
                "£65",
                "45 minutes, includes up to 2 bitewing x-rays",
            ],
            ["Examinations", "Routine examination", "£52", "Included in all Care Plans"],
            [
                "Examinations",
                "Emergency appointment (in hours)",
                "£85",
                "Assessment and temporary treatment; further treatment charged separately",
            ],
            ["Examinations", "Small x-ray (bitewing or periapical)", "£15 each", ""],
            ["Examinations", "Full mouth x-ray (OPG)", "£50", ""],
            ["Hygiene", "Hygiene visit, 30 minutes", "£68", "With Rachel or Sam"],
            [
                "Hygiene",
                "Hygiene visit, 45 minutes with Airflow stain removal",
                "£92",
                "Recommended for tea, coffee, red wine and smoking stains",
            ],
            [
                "Hygiene",
                "Gum (periodontal) treatment, per quarter of the mouth",
                "£110",
                "Needs a referral from one of our dentists",
            ],
            ["Hygiene", "Fluoride varnish", "£18", "Free for Child Care Plan members"],
            ["Hygiene", "Fissure sealant, per tooth", "£30", ""],
            ["Fillings", "White filling, small", "£120", ""],
            ["Fillings", "White filling, medium", "£155", ""],
            ["Fillings", "White filling, large", "£195", ""],
            [
                "Fillings",
                "Amalgam (silver) filling",
                "£95",
                "Not used for under 15s or pregnant or breastfeeding patients",
            ],
            ["Fillings", "Temporary filling", "£40", ""],
            ["Root canal", "Root canal treatment, front tooth", "£395", ""],
            ["Root canal", "Root canal treatment, premolar", "£495", ""],
            [
                "Root canal",
                "Root canal treatment, molar",
                "£695",
                "Usually two visits with Dr Nowak",
            ],
            ["Crowns and bridges", "Porcelain bonded to metal crown", "£575", ""],
            [
                "Crowns and bridges",
                "All-ceramic crown (E.max)",
                "£675",
                "Best match for front teeth",
            ],
            [
                "Crowns and bridges",
                "Gold crown",
                "from £750",
                "Price depends on the gold price at the time",
            ],
            [
                "Crowns and bridges",
                "Bridge, per unit",
                "£575",
                "A three-unit bridge has three units",
            ],
            ["Crowns and bridges", "Re-cement a crown", "£45", "Free within 12 months of fitting"],
            ["Dentures", "Full acrylic denture, upper or lower", "£650", ""],
            ["Dentures", "Full acrylic dentures, upper and lower together", "£1,150", ""],
            ["Dentures", "Partial acrylic denture", "£475", ""],
            [
                "Dentures",
                "Chrome cobalt partial denture",
                "£995",
                "Lighter and thinner than acrylic",
            ],
            ["Dentures", "Denture reline", "£160", ""],
            ["Dentures", "Denture repair, simple", "£65", "Usually back the next working day"],
            ["Extractions", "Simple extraction", "£130", ""],
            ["Extractions", "Surgical extraction", "£260", "May need stitches"],
            [
                "Cosmetic",
                "Home whitening, upper and lower trays with gel",
                "£345",
                "Over 18s only, after an examination",
            ],
            ["Cosmetic", "Extra whitening gel, 4 syringes", "£40", ""],
            ["Cosmetic", "Composite bonding, per tooth", "£210", ""],
            ["Appliances", "Sports mouthguard", "£90", "Choice of colours; ready in about a week"],
            ["Appliances", "Night guard for grinding (hard acrylic)", "£175", ""],
        ],
    },
}

CSV: dict[str, list[list[str]]] = {
    "hygiene_rota_13-24_april_2026.csv": [
        [
            "date",
            "day",
            "clinician",
            "role",
            "room",
            "start",
            "finish",
            "lunch",
            "session_type",
            "notes",
        ],
        [
            "13/04/2026",
            "Mon",
            "Rachel Whitby",
            "Hygienist",
            "Hygiene room",
            "08:30",
            "17:00",
            "12:45-13:30",
            "Private and Care Plan hygiene",
            "",
        ],
        [
            "14/04/2026",
            "Tue",
            "Rachel Whitby",
            "Hygienist",
            "Hygiene room",
            "11:00",
            "19:00",
            "14:30-15:00",
            "Private and Care Plan hygiene",
            "Late session; last appointment 18:15",
        ],
        [
            "15/04/2026",
            "Wed",
            "Sam Okafor",
            "Hygienist/Therapist",
            "Surgery 1",
            "08:30",
            "17:00",
            "13:00-13:45",
            "Hygiene and therapy",
            "Children's fluoride clinic 15:30-17:00",
        ],
        [
            "16/04/2026",
            "Thu",
            "Rachel Whitby",
            "Hygienist",
            "Hygiene room",
            "08:00",
            "16:30",
            "12:30-13:15",
            "NHS prescribed gum treatment (AM); private hygiene (PM)",
            "",
        ],
        [
            "17/04/2026",
            "Fri",
            "Sam Okafor",
            "Hygienist/Therapist",
            "Hygiene room",
            "08:30",
            "16:00",
            "12:30-13:00",
            "Hygiene and therapy",
            "",
        ],
        [
            "18/04/2026",
            "Sat",
            "Sam Okafor",
            "Hygienist/Therapist",
            "Surgery 1",
            "09:00",
            "12:30",
            "",
            "Private and Care Plan hygiene",
            "Third Saturday; fully booked",
        ],
        [
            "20/04/2026",
            "Mon",
            "Rachel Whitby",
            "Hygienist",
            "Hygiene room",
            "08:30",
            "17:00",
            "12:45-13:30",
            "Private and Care Plan hygiene",
            "Airflow unit away for service - no stain removal appointments today",
        ],
        [
            "21/04/2026",
            "Tue",
            "Rachel Whitby",
            "Hygienist",
            "Hygiene room",
            "11:00",
            "19:00",
            "14:30-15:00",
            "Private and Care Plan hygiene",
            "Late session (last appt 18:15)",
        ],
        [
            "22/04/2026",
            "Wed",
            "Sam Okafor",
            "Hygienist/Therapist",
            "Surgery 1",
            "08:30",
            "17:00",
            "13:00-13:45",
            "Hygiene and therapy",
            "Children's fluoride clinic cancelled - Sam on a course from 15:00",
        ],
        [
            "23/04/2026",
            "Thu",
            "Sam Okafor",
            "Hygienist/Therapist",
            "Hygiene room",
            "08:00",
            "16:30",
            "12:30-13:15",
            "NHS prescribed gum treatment (AM); private hygiene (PM)",
            "Covering Rachel Whitby (annual leave)",
        ],
        [
            "24/04/2026",
            "Fri",
            "Sam Okafor",
            "Hygienist/Therapist",
            "Hygiene room",
            "08:30",
            "13:00",
            "",
            "Hygiene and therapy",
            "Half day - practice training afternoon from 14:00",
        ],
    ],
}

EML: dict[str, dict[str, Any]] = {
    "appointment_reminders_changing.eml": {
        "subject": "Changes to how we remind you about appointments",
        "from": "Bethan Lloyd <reception@cornmarketdental.co.uk>",
        "to": "Cornmarket Dental patients <patients@cornmarketdental.co.uk>",
        "date": "Wed, 14 Jan 2026 10:12:00 +0000",
        "text": (
            "Dear patient,\n\n"
            "Happy New Year from all of us at Cornmarket Dental! I'm writing to let you know about a "
            "change to the way we remind you about your appointments, which starts on Monday 2 February.\n\n"
            "Text reminders\n"
            "From 2 February you'll get a text message two days before every appointment, sent at "
            "around 10am. The text will come from CornmktDent. Please reply C to confirm you're coming, "
            "or R if you need to rearrange and one of us will ring you back. Please don't reply with "
            "anything else and expect it to cancel your appointment - the texts are only read by "
            "reception during opening hours, so a late-night message saying you can't make it first "
            "thing in the morning may not reach us in time. If in doubt, ring us on 01632 960418 and "
            "leave a message.\n\n"
            "E-mail reminders\n"
            "If you booked your appointment more than four weeks ago, you'll also get an e-mail a "
            "week before, just to jog your memory.\n\n"
            "Check-up reminders\n"
            "We're stopping the postcards we used to send when your check-up was due. Instead we'll "
            "e-mail you. If we don't have an e-mail address or mobile number for you, don't worry - "
            "you'll still get a card in the post.\n\n"
            "Phone calls\n"
            "We used to ring everyone the day before their appointment, but with more than six "
            "thousand patients this just isn't possible any more. If you would really prefer a phone "
            "call (some of our older patients have asked for this), just tell us and we'll make a note "
            "on your record and keep ringing you.\n\n"
            "Children\n"
            "Reminders for children's appointments go to the mobile number of the parent or guardian "
            "on the child's record. If you share care with someone else and they should get the "
            "reminders instead, let us know.\n\n"
            "One small but important thing: reminders are a courtesy, not a guarantee. Phones get "
            "changed and messages go astray, so if a reminder doesn't arrive, our missed appointment "
            "policy still applies. Please pop your appointments in your diary when you book.\n\n"
            "If you'd like to check or update the mobile number and e-mail address we hold for you, "
            "just reply to this e-mail or ask at the desk next time you're in.\n\n"
            "Thanks so much, and see you soon!\n\n"
            "Bethan\n"
            "Bethan Lloyd, Reception Lead\n"
            "Cornmarket Dental Practice, 14 Cornmarket, Brackenford SY7 9QD\n"
            "01632 960418\n"
        ),
    },
    "easter_hours_and_dr_raman.eml": {
        "subject": "Easter opening times - and a new dentist joining us!",
        "from": "Bethan Lloyd <reception@cornmarketdental.co.uk>",
        "to": "Cornmarket Dental patients <patients@cornmarketdental.co.uk>",
        "date": "Mon, 16 Mar 2026 09:30:00 +0000",
        "text": (
            "Hello everyone,\n\n"
            "Spring is (nearly) here, so here are our Easter arrangements, plus some lovely news "
            "about our team.\n\n"
            "EASTER OPENING\n"
            "Thursday 2 April - open in the morning, closed from 1pm for staff training\n"
            "Good Friday 3 April - closed\n"
            "Saturday 4 April - closed (this would normally be one of our Saturday mornings, so the "
            "Saturday clinic moves to Saturday 11 April instead)\n"
            "Easter Monday 6 April - closed\n"
            "Tuesday 7 April - open as normal from 8.30am\n\n"
            "If you need a dentist urgently while we're closed, NHS patients should call 111. Care Plan "
            "members can call our out-of-hours rota on 07700 900461 between 9am and 1pm on each of the "
            "closed days. If you think you'll run out of any medication we've prescribed (for example "
            "high-fluoride toothpaste), please ask for a repeat by Wednesday 1 April.\n\n"
            "WELCOME DR RAMAN\n"
            "We're really pleased to tell you that Dr Priya Raman will be joining us as an associate "
            "dentist on Tuesday 5 May, the day after the bank holiday. Priya qualified from Bristol in "
            "2019 and has spent the last four years at a busy practice in Hereford. She's especially "
            "interested in cosmetic dentistry, like composite bonding and whitening, and she's lovely "
            "with nervous patients. Outside work she's a keen fell runner, so don't be surprised if "
            "you see her tearing up the hill on the Brackenford 10K route! She speaks Tamil as well "
            "as English.\n\n"
            "Priya will work Wednesdays, Thursdays and Fridays. She'll be taking over Dr Marsh's "
            "Friday clinics, as Dr Marsh is cutting down to four days a week. If you normally see Dr "
            "Marsh on a Friday, we'll be in touch to ask whether you'd like to move to another day "
            "with Dr Marsh or stay on Fridays and see Dr Raman - it's completely your choice.\n\n"
            "Dr Raman will take on new private and Care Plan patients from the day she starts, and "
            "from June she'll begin seeing adults from our NHS waiting list. If you're on the list, "
            "you don't need to do anything - we'll contact people in the order they joined.\n\n"
            "Happy Easter when it comes, and thank you for being such lovely patients.\n\n"
            "Best wishes,\n"
            "Bethan and the team at Cornmarket Dental\n"
            "01632 960418 | reception@cornmarketdental.co.uk\n"
        ),
    },
}

TEXT: dict[str, str] = {
    "aftercare_extraction.md": """# After your extraction: looking after the socket

*Cornmarket Dental Practice - please read this when you get home, and keep it for the next week.*

Having a tooth taken out leaves a small wound, called a socket. A blood clot forms in the socket
within the first hour and acts as a natural plaster while the gum and bone heal underneath. Most of
the advice below is about protecting that clot.

## The first hour

- Keep biting firmly on the gauze pad we gave you for 30 minutes. Do not keep checking it.
- Your lip, cheek and tongue will be numb for 2 to 4 hours (sometimes up to 5 hours after a lower
  tooth). Take care not to bite or burn them. Watch children closely, as they often chew a numb lip.
- Do not eat or have hot drinks until the numbness has completely worn off.

## The first 24 hours

- Do not rinse your mouth out, and do not spit hard. Let saliva and any blood dribble out instead.
- Do not drink alcohol for 24 hours.
- Avoid hard exercise such as running, the gym or heavy lifting for 24 hours, as a raised heart rate
  can start the bleeding again.
- Eat soft, lukewarm food and chew on the other side of your mouth.
- Sleep with your head raised on an extra pillow on the first night. Put an old towel over the
  pillowcase, as a little blood-stained saliva overnight is normal.
- You can brush your other teeth as usual that evening, but keep the brush away from the socket.

## Smoking and vaping

Do not smoke or vape for at least 48 hours, and ideally for 72 hours. Sucking on a cigarette or vape
can pull the clot out of the socket, and smoking slows healing and is the biggest single cause of
dry socket.

## Pain and swelling

Some discomfort is normal once the numbness wears off. Paracetamol and ibuprofen usually work well,
either on their own or together, as long as you follow the dose on the packet and nobody has told you
that you cannot take them. **Do not take aspirin for pain relief**, because it can make the socket
bleed. If you take aspirin every day because your doctor prescribed it, carry on taking it as normal.

Swelling is usually worst on the second day and then settles over the following few days. A cold
pack wrapped in a tea towel, held against the cheek for 10 minutes at a time, helps on the first day.

## From the next day: salt water rinses

Start rinsing gently the day after your extraction. Dissolve half a teaspoon of salt in a glass of
warm (not hot) water and hold it over the socket, then let it fall out of your mouth. Do this four
times a day, after meals, for one week.

## Stitches

If you had stitches they are dissolvable. They usually fall out on their own within 7 to 10 days.
If they are still annoying you after two weeks, ring us and we will take them out; this is free of
charge.

## If it starts bleeding again

Roll up a clean gauze pad (or a clean cotton handkerchief) into a firm pad, place it over the socket
and bite down hard for 20 minutes without checking. A damp tea bag works too - the tannin helps
the blood to clot. Sit upright and stay calm.

## When to get help

| What you notice | What to do |
|---|---|
| Bleeding that has not stopped after two 20-minute spells of biting on a pad | Ring the practice; out of hours call NHS 111 |
| Pain getting worse 2 to 4 days after the extraction, often with a bad taste or smell | This may be dry socket - ring us for a dressing appointment |
| Swelling that keeps spreading after day 3, or a temperature | Ring the practice the same day |
| Swelling that makes it hard to swallow or breathe | Go to A&E or call 999 |
| Numbness that has not worn off by the next morning | Ring the practice and ask to speak to your dentist |

During opening hours call us on 01632 960418. If you are a Care Plan member, the out-of-hours rota
number is on the back of your plan card.
""",
    "faq.html": """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Frequently asked questions | Cornmarket Dental Practice, Brackenford</title>
</head>
<body>
<header>
<p><a href="/">Cornmarket Dental Practice</a> | <a href="/fees">Fees</a> | <a href="/team">Our team</a> | <a href="/faq">FAQ</a> | <a href="/contact">Contact</a></p>
</header>
<main>
<h1>Frequently asked questions</h1>
<p>Can't find what you're looking for? Ring reception on 01632 960418 and we'll be happy to help.</p>

<h2>Joining the practice</h2>

<details>
<summary>Are you taking on new NHS patients?</summary>
<p>For children, yes. Any child under 18 can register for NHS care with us straight away. For adults,
our NHS list is currently full, but you can join our waiting list online or at reception. At the moment
the wait for an adult NHS place is around eight months. We contact people strictly in the order they
joined the list.</p>
</details>

<details>
<summary>Can I register as a private patient instead?</summary>
<p>Yes. There is no waiting list for private care, and new private patients are usually offered a first
examination within two to three weeks. You can move from the NHS waiting list to private care at any
time, and if you do you keep your place on the list.</p>
</details>

<details>
<summary>From what age should my child come to the dentist?</summary>
<p>As soon as their first tooth appears, and certainly by their first birthday. Early visits are short
and gentle and help children get used to us. Children under 16 must be brought to their appointments
by a parent, guardian or another adult the parent has named on the child's record.</p>
</details>

<h2>Appointments</h2>

<details>
<summary>Do you have evening or weekend appointments?</summary>
<p>We stay open until 7pm on Tuesdays. We also open on the first and third Saturday morning of each month;
Saturday appointments are for private and Care Plan patients only and must be booked in advance. These
appointments are very popular, so please book well ahead.</p>
</details>

<details>
<summary>How often do I need a check-up?</summary>
<p>It depends on your own mouth. Following national guidance, your dentist will recommend a gap of
between 3 and 24 months for adults, and no more than 12 months for children. Many of our patients with
healthy gums and no recent decay come once a year.</p>
</details>

<details>
<summary>Can I see the hygienist without a check-up?</summary>
<p>If you are a private or Care Plan patient, yes. Our hygienists work on "direct access", so you can book a
hygiene appointment without seeing a dentist first. On the NHS, treatment by the hygienist is only available
when one of our dentists has prescribed it as part of your course of treatment.</p>
</details>

<details>
<summary>How do I cancel or move an appointment?</summary>
<p>Phone us on 01632 960418 or e-mail reception@cornmarketdental.co.uk, giving at least 24 hours' notice.
Answerphone messages left outside opening hours are time-stamped, so they count. Please see our cancellation
policy for the charges for missed private appointments.</p>
</details>

<h2>Treatment</h2>

<details>
<summary>I'm really nervous. Can you help?</summary>
<p>Please tell us when you book - you won't be the first, and it helps us plan. We can give you a longer
appointment, explain each step before we do it, agree a stop signal, and let you listen to your own music.
We do not provide sedation at the practice. If our dentist agrees that you need sedation, NHS patients
can be referred to the Shropshire Community Dental Service, although the wait is currently several months.</p>
</details>

<details>
<summary>Do you do tooth whitening?</summary>
<p>Yes, we offer home whitening with custom-made trays, supervised by your dentist. By law, whitening
can only be carried out by a dentist (or a hygienist or therapist on a dentist's prescription) and not
on anyone under 18, except to treat disease. We do not offer in-surgery "power" or laser whitening.
Whitening does not change the colour of existing crowns or white fillings.</p>
</details>

<details>
<summary>What should I do if I have toothache or break a tooth?</summary>
<p>Ring us as soon as we open at 8.30am. We hold emergency appointments every day for registered
patients. If you are not registered with us, call NHS 111, who can find you an urgent appointment.
Go straight to A&amp;E if you have facial swelling that is affecting your breathing, swallowing or
vision, or if you have had a blow to the head.</p>
</details>

<h2>Other questions</h2>

<details>
<summary>Can you provide an interpreter?</summary>
<p>Yes. We can book a telephone interpreter for any appointment at no cost to you - just tell us the
language when you book. For a British Sign Language interpreter in person, we need at least two weeks'
notice.</p>
</details>

<details>
<summary>Do you sell toothbrushes and other products?</summary>
<p>Yes, reception stocks interdental brushes, floss, high-fluoride toothpaste (on prescription only),
sensitive toothpaste and electric toothbrush heads. Care Plan members get 10% off products.</p>
</details>

</main>
<footer>
<p>Cornmarket Dental Practice, 14 Cornmarket, Brackenford, Shropshire SY7 9QD. Registered with the
Care Quality Commission. Page last updated 3 March 2026.</p>
</footer>
</body>
</html>
""",
}

PDF: dict[str, list[list[str]]] = {
    "cancellation_and_complaints_policy.pdf": [
        [
            "Cornmarket Dental Practice",
            "Cancellation, Missed Appointment and Complaints Policy",
            "Version 4. Approved by Dr H. Marsh, January 2026. Next review due January 2027.",
            "",
            "1. Purpose",
            "This policy explains what the Practice asks of patients when an appointment cannot be",
            "kept, the charges that apply to missed private appointments, and how the Practice",
            "handles complaints. It applies to all patients, whether treated under the NHS or privately.",
            "",
            "2. Cancelling or changing an appointment",
            "2.1 Patients are asked to give at least 24 hours' notice of any cancellation.",
            "2.2 Appointments on a Monday must be cancelled by 4.00pm on the preceding Friday.",
            "2.3 Notice may be given by telephone (including answerphone), by e-mail, or in person.",
            "    A reply to a text reminder is not accepted as notice of cancellation.",
            "",
            "3. Missed and late-cancelled private appointments",
            "Where less than the required notice is given, or a patient does not attend, the",
            "following fees apply to private and Care Plan appointments:",
            "",
            "    Length of appointment booked          Fee",
            "    Up to 30 minutes                      GBP 30",
            "    31 to 60 minutes                      GBP 60",
            "    Over 60 minutes                       GBP 90, plus any laboratory costs already incurred",
            "",
            "3.1 Care Plan members: the fee for the first missed appointment in any 12-month period",
            "    is waived. Subsequent missed appointments are charged in full.",
            "3.2 Private treatment plans with a total value over GBP 600 require a deposit of 25% of",
            "    the estimate when the first treatment appointment is booked. The deposit is",
            "    non-refundable if an appointment is cancelled with less than 48 hours' notice.",
            "",
            "4. NHS patients",
            "No charge is made to NHS patients for missed appointments. However, where an NHS",
            "patient misses two appointments without notice within a 12-month period, the Practice",
            "may end the current course of treatment and may decline to offer further routine",
            "NHS appointments. A letter will be sent after the first missed appointment.",
            "",
            "5. Late arrival",
            "A patient who arrives more than 10 minutes late for an appointment of 30 minutes or",
            "less (or more than 15 minutes late for a longer appointment) may be asked to rebook.",
            "In that case the appointment will be treated as missed.",
            "",
            "6. Exceptional circumstances",
            "The Practice Manager may waive any fee in this policy in cases of sudden illness,",
            "bereavement, or other circumstances outside the patient's control.",
        ],
        [
            "7. Complaints",
            "7.1 The Practice welcomes feedback and treats every complaint seriously. Complaints may",
            "    be made in person, by telephone, by letter or by e-mail, and should be addressed to",
            "    Mrs Carol Jenkins, Practice Manager. Where the complaint concerns the Practice",
            "    Manager, it should be addressed to Dr Helen Marsh, Principal Dentist.",
            "7.2 A complaint should normally be made within 12 months of the events concerned, or",
            "    within 12 months of the patient becoming aware of them.",
            "7.3 The Practice will acknowledge a complaint within 3 working days of receipt.",
            "7.4 The Practice aims to complete its investigation and send a full written response",
            "    within 10 working days. Where more time is needed, the patient will be told the",
            "    reason and given a revised date.",
            "7.5 The patient will be offered a meeting with the Practice Manager and, where",
            "    appropriate, the clinician concerned. The patient may bring a relative or friend.",
            "7.6 A complaint may be made on behalf of a patient by another person with the",
            "    patient's written consent.",
            "",
            "8. If you are not satisfied",
            "NHS treatment: patients may instead complain directly to NHS England, telephone",
            "0300 311 2233. If a patient remains dissatisfied after the NHS complaints process, they",
            "may ask the Parliamentary and Health Service Ombudsman to review the complaint",
            "(telephone 0345 015 4033).",
            "Private treatment: patients may contact the Dental Complaints Service, an independent",
            "service funded by the General Dental Council, on 020 8253 0800.",
            "",
            "9. Records",
            "Complaint records are kept separately from clinical records and will not affect the",
            "care a patient receives. Records are retained for 10 years.",
            "",
            "Cornmarket Dental Practice, 14 Cornmarket, Brackenford, Shropshire SY7 9QD",
            "Telephone 01632 960418   E-mail reception@cornmarketdental.co.uk",
        ],
    ],
}
