"""The invented documents of the unseen-corpus benchmark's ``school`` corpus.

A village primary, St Aldhelm's C of E Primary School in Little Wenford, West Dorset, and
what it gives its parents: a handbook, the welcome-evening slides for new Reception
families, a term-dates and clubs workbook, a lunch-menu export, two e-mails from the office,
a uniform page in Markdown, a web FAQ and a one-page attendance policy. Written on
2026-12-06 by an author who had not seen the answering code, in a chatty head-teacher and
school-office style (long sentences, asides, facts part way through paragraphs) rather than
a company's, and with its questions (``questions.jsonl``) written before any of them was
asked; nothing here is drawn from another corpus. Text drawn into the PDF stays inside
Latin-1.
"""

from __future__ import annotations

from typing import Any

#: Word documents: ``(kind, content)`` blocks, as :func:`benchmarks.mixed_corpus.write_docx`.
DOCX: dict[str, list[tuple[str, Any]]] = {
    "parents_handbook.docx": [
        ("title", "St Aldhelm's C of E Primary School: Handbook for Parents and Carers 2026–27"),
        ("h1", "A welcome from Mrs Penrose"),
        (
            "p",
            "Whether this is your first child to come through our little blue gate or your "
            "fourth, welcome! I have been head teacher here since 2019, and I still think St "
            "Aldhelm's is the friendliest school in West Dorset, though I accept I may be a touch "
            "biased. We are a small Church of England school of just under a hundred children, "
            "tucked in beside St Aldhelm's church at the bottom of Chalcombe Lane in Little "
            "Wenford, and we like to think we know every child (and most of the dogs) by name. "
            "This handbook tries to answer the questions that usually come up in the first few "
            "weeks, but please never worry about popping into the office to ask – Mrs "
            "Fairweather has heard every question there is, and a few there isn't.",
        ),
        ("h1", "Our classes"),
        (
            "p",
            "Children are taught in four mixed-age classes, each named after a bird you can see "
            "from the playground if you are patient enough: Wren Class is our Reception class "
            "with Mrs Bramble, Robin Class is Years 1 and 2 with Miss Hurst, Kestrel Class is "
            "Years 3 and 4 with Mr Reid, and Owl Class – Years 5 and 6 – is taught by Mr "
            "Akinola, who is also our deputy head. Every class has a teaching assistant in the "
            "mornings, and Wren Class has one all day.",
        ),
        ("h1", "The school day"),
        (
            "p",
            "The playground gates are opened by Mr Hollis, our caretaker, at 8.35am, and "
            "children can go straight into class from then, which makes the mornings a great deal "
            "calmer than the old days of lining up in the rain. Registers are taken at 8.45am, "
            "and the gate by the church path is locked at 8.50am, so anyone arriving after that "
            "will need to come round to the main office door and be signed in by a grown-up in "
            "the late book. The timings below are the same for every class, except that Wren "
            "Class eat a little earlier so that they aren't queuing behind the big ones.",
        ),
        (
            "table",
            [
                ["Time", "What happens"],
                ["8.35am", "Gates open; children come straight into class"],
                ["8.45am", "Registers taken"],
                ["10.30am to 10.45am", "Morning break (fruit is provided for Reception to Year 2)"],
                ["11.45am", "Wren Class go in for lunch"],
                ["12 noon to 1pm", "Lunch for Years 1 to 6, then play outside"],
                ["2.30pm", "Collective worship in the hall or the church"],
                ["3.15pm", "Home time"],
            ],
        ),
        (
            "p",
            "Home time is 3.15pm for every class, and we ask that you wait on the playground, "
            "rather than crowding round the classroom doors, until your child's teacher brings "
            "the class out and sends each child to you one at a time. On Fridays the 2.30pm "
            "worship is our Celebration Assembly, and you are always welcome to squeeze in at "
            "the back of the hall.",
        ),
        ("h1", "If someone else is collecting"),
        (
            "p",
            "We will only let your child go home with the adults you have named on their "
            "registration form. If somebody different is picking up – Granny, a neighbour, a "
            "friend's mum after a play date – please ring the office or tell the class teacher "
            "at the morning door, and give that person your family password, which we will ask "
            "them for at the gate; without it we will keep your child safely in school and ring "
            "you, however apologetic the grown-up is.",
        ),
        ("h1", "Absence and illness"),
        (
            "p",
            "If your child is poorly, please ring the absence line on 01308 488210 and choose "
            "option 1 before 9.15am, leaving your child's name, class and a brief reason – "
            "'tummy bug' is plenty, we don't need the details! If we haven't heard from you by "
            "9.30am we will start ringing the contacts on your child's form, which is not meant "
            "to alarm anyone; it is simply what every school has to do. Our attendance policy, "
            "which has the rules about holidays in term time, is on the website and is a short "
            "read.",
        ),
        ("h1", "Medicines"),
        (
            "p",
            "We can give prescribed medicines only, in their original box with the pharmacy "
            "label on, and only once you have filled in a medicine form at the office; the one "
            "exception is that if a medicine needs to be taken three times a day we'll ask you to "
            "give it before school, after school and at bedtime, so we won't give it in school at "
            "all. Inhalers and adrenaline pens stay in the classroom in a named bag and go with "
            "the class on every trip, even the short walk to the church next door.",
        ),
        ("h1", "Lunches and snacks"),
        (
            "p",
            "All children in Reception, Year 1 and Year 2 are entitled to a free hot lunch under "
            "the government's universal infant free school meals scheme, and we'd encourage you "
            "to take it up because it helps the school's funding too. From Year 3 onwards a hot "
            "lunch costs £2.70 a day, booked and paid for through ParentPay by midnight on the "
            "Sunday before, although if you think you may be eligible for free school meals do "
            "have a quiet word with Mrs Fairweather – it takes five minutes and is completely "
            "confidential. Meals are cooked on site by Mrs Dunning and her team, and the menu "
            "runs on a two-week cycle that is sent home at the start of each half term.",
        ),
        (
            "p",
            "Packed lunches are fine too, but please remember that we are a nut-free school, "
            "because several of our children have severe allergies, and that includes peanut "
            "butter, chocolate spread with hazelnuts in it and cereal bars with nuts. Drinks "
            "should be water only; squash and fizzy drinks will come home unopened.",
        ),
        ("h1", "What to bring every day"),
        ("li", "A book bag with their reading book and reading record"),
        ("li", "A named water bottle"),
        ("li", "A coat, every single day, whatever the forecast said at breakfast"),
        (
            "li",
            "PE kit on Tuesdays and Thursdays for Robin, Kestrel and Owl Classes; Wren Class do "
            "PE on Friday mornings",
        ),
        ("li", "Wellies for Forest School, which can be left on the welly rack by the back door"),
        ("h1", "Reading and homework"),
        (
            "p",
            "Nothing matters more than reading, so we ask that you hear your child read for at "
            "least ten minutes five times a week and sign their reading record; children who "
            "read at home five times in a week get a raffle ticket for the end-of-term book "
            "draw. Spellings go home on a Monday and are quizzed on the following Friday, and "
            "from Year 3 there is one piece of maths homework a week, set on a Thursday, which "
            "should take no longer than half an hour – if it's taking much longer than that, "
            "stop, and jot a note for the teacher in the reading record.",
        ),
        ("h1", "Behaviour, houses and Golden Time"),
        (
            "p",
            "Our three school rules are simple: be kind, be safe and be ready to learn. Every "
            "child belongs to one of three houses, named after the hills we can see from the top "
            "field – Pilsdon, Lewesdon and Eggardon – and brothers and sisters are always put in "
            "the same house, which saves a lot of arguments at the tea table. House points are "
            "added up in Friday's assembly, and the house with the most at the end of the summer "
            "term has its name engraved on the old silver cup and wins an extra afternoon of "
            "Golden Time, the half hour of choosing time that children earn through the week.",
        ),
        ("h1", "Birthdays"),
        (
            "p",
            "We know it's lovely to share a birthday treat, but with so many allergies in school "
            "we ask you not to send in sweets or cakes for the class. Instead, the birthday "
            "child chooses a book to keep from the birthday box in the library and is sung to, "
            "very loudly, in Friday's assembly.",
        ),
        ("h1", "Mobile phones and smart watches"),
        (
            "p",
            "Children in Years 5 and 6 who walk home alone may bring a mobile phone, which must be "
            "switched off and handed in to the office when they arrive and collected on the way "
            "out. Smart watches that can take photos or send messages are not allowed in school "
            "for any year group; a plain watch for telling the time is very welcome.",
        ),
        ("h1", "Getting in touch"),
        (
            "p",
            "The office is open from 8.15am to 4pm, Monday to Friday, and you can reach Mrs "
            "Fairweather on 01308 488210 (option 2) or by e-mail at "
            "office@st-aldhelms.dorset.sch.uk. If you have a worry about your child, the class "
            "teacher is always the first person to talk to – catch them at the classroom door "
            "after school, not in the morning when they are juggling two dozen book bags – and "
            "if it isn't sorted, then please make an appointment to see me. Our special "
            "educational needs coordinator, Miss Priya Chandra, works part time and is in school "
            "on Mondays and Tuesdays.",
        ),
    ],
}

#: Slide decks, as :func:`benchmarks.mixed_corpus.write_pptx`.
PPTX: dict[str, list[dict[str, Any]]] = {
    "reception_welcome_evening.pptx": [
        {
            "title": "Welcome to Wren Class!",
            "body": [
                "St Aldhelm's C of E Primary School",
                "Welcome evening for new Reception families",
                "Thursday 18 June 2026, 6pm, in the school hall",
            ],
            "notes": "Harriet to welcome everyone, point out the loos and the tea urn, and say "
            "that children starting in September are very welcome at the teddy bears' picnic on "
            "the field on Friday 10 July at 2pm, with a grown-up.",
        },
        {
            "title": "Meet the Wren Class team",
            "body": [
                "Mrs Lucy Bramble, class teacher",
                "Mrs Sandra Oke, teaching assistant (all day)",
                "Miss Hollie Vance, apprentice teaching assistant (Tuesday to Thursday)",
                "Mrs Gwen Tarrant, Forest School leader",
            ],
            "notes": "Lucy: say you've taught Reception here for eleven years and that your own "
            "two went through Wren Class, so you have been on both sides of the classroom door.",
        },
        {
            "title": "Starting in September",
            "table": [
                ["When", "Dates", "What happens"],
                [
                    "Home visits",
                    "Thu 3 and Fri 4 September 2026",
                    "A 20-minute visit at home from Mrs Bramble and Mrs Oke",
                ],
                ["Week 1", "Mon 7 to Fri 11 September", "Mornings only, 8.45am to 11.45am"],
                ["Week 2", "Mon 14 to Fri 18 September", "Mornings and lunch, collect at 1pm"],
                ["Week 3 onwards", "From Mon 21 September", "Full days, collect at 3.15pm"],
            ],
            "notes": "Reassure everyone that if a child is really struggling we can stretch out "
            "the part-time weeks, but most children are more than ready by week three and a few "
            "are quite cross about going home early.",
        },
        {
            "title": "Learning through play",
            "body": [
                "Daily phonics with our Sounds Together scheme, starting in week 2",
                "Plenty of time to choose, build, paint, dig and explore, inside and out",
                "Each child's learning is shared with you through our online learning journal, "
                "Footprints",
                "You'll get your Footprints log-in at the home visit",
            ],
        },
        {
            "title": "Things that really help",
            "body": [
                "Practise putting on a coat and doing up shoes (Velcro is your friend)",
                "A bag of spare pants, socks and leggings on their peg, just in case",
                "Wellies that can live at school for Forest School on Wednesday afternoons",
                "Name everything, even the wellies",
            ],
            "notes": "Gwen: Forest School is in the copse behind the top field. The only time we "
            "stay in is when the Met Office has put out a wind warning; otherwise we go out in the "
            "rain, so a pair of waterproof trousers is the best present you could buy.",
        },
        {
            "title": "Any questions?",
            "body": [
                "Grab Mrs Bramble or Mrs Penrose over a cup of tea",
                "Or ring Mrs Fairweather in the office on 01308 488210",
                "We can't wait to meet your children!",
            ],
        },
    ],
}

#: Workbooks, as :func:`benchmarks.mixed_corpus.write_xlsx`.
XLSX: dict[str, dict[str, list[list[Any]]]] = {
    "term_dates_and_clubs.xlsx": {
        "Term dates 2026-27": [
            ["Term", "What", "Date(s)", "Notes"],
            [
                "Autumn",
                "INSET days (school closed to children)",
                "Tue 1 and Wed 2 September 2026",
                "",
            ],
            [
                "Autumn",
                "First day for pupils",
                "Thu 3 September 2026",
                "Wren Class begin with home visits",
            ],
            ["Autumn", "Harvest festival", "Fri 2 October 2026", "9.15am in church, all welcome"],
            ["Autumn", "Half term", "Mon 26 - Fri 30 October 2026", ""],
            [
                "Autumn",
                "Nativity (Wren and Robin Classes)",
                "Wed 16 December 2026",
                "2pm in church",
            ],
            ["Autumn", "Last day of term", "Fri 18 December 2026", "School finishes at 1.30pm"],
            ["Spring", "INSET day", "Mon 4 January 2027", ""],
            ["Spring", "First day for pupils", "Tue 5 January 2027", ""],
            ["Spring", "Half term", "Mon 15 - Fri 19 February 2027", ""],
            ["Spring", "World Book Day", "Thu 4 March 2027", "Come dressed as a book character"],
            ["Spring", "Last day of term", "Fri 26 March 2027", "Easter bonnet parade at 2.30pm"],
            ["Summer", "First day for pupils", "Mon 12 April 2027", ""],
            ["Summer", "May Day bank holiday", "Mon 3 May 2027", "School closed"],
            ["Summer", "INSET day", "Fri 28 May 2027", ""],
            ["Summer", "Half term", "Mon 31 May - Fri 4 June 2027", ""],
            ["Summer", "Sports day", "Wed 30 June 2027", "Reserve day if wet: Fri 2 July 2027"],
            ["Summer", "Last day of term", "Wed 21 July 2027", "Owl Class leavers' service, 2pm"],
            ["Summer", "INSET day", "Thu 22 July 2027", ""],
        ],
        "After-school clubs": [
            ["Club", "Day", "Time", "Year groups", "Cost per term", "Run by", "Notes"],
            [
                "Multi-sports",
                "Monday",
                "3.15pm - 4.15pm",
                "Years 1 to 6",
                "£30",
                "Dan Merriman (Sportwise Dorset)",
                "Outdoors unless it is pouring",
            ],
            [
                "Choir",
                "Tuesday",
                "3.15pm - 4pm",
                "Years 2 to 6",
                "Free",
                "Mrs Penrose",
                "Sings at the Christmas fair",
            ],
            [
                "Lego and coding",
                "Wednesday",
                "3.15pm - 4.15pm",
                "Years 3 to 6",
                "£24",
                "Mr Akinola",
                "12 places only",
            ],
            [
                "Gardening",
                "Thursday",
                "3.15pm - 4.15pm",
                "Years 1 to 4",
                "£12",
                "Mrs Tarrant",
                "Wellies needed; cost covers seeds and compost",
            ],
            [
                "Tag rugby",
                "Thursday",
                "3.15pm - 4.30pm",
                "Years 4 to 6",
                "Free",
                "Jonah Wills (Bridport RFC)",
                "",
            ],
            [
                "Drama",
                "Friday",
                "3.15pm - 4.45pm",
                "Years 3 to 6",
                "£36",
                "Ffion Rees (Curtain Up Theatre School)",
                "Summer show in July",
            ],
        ],
    },
}

#: CSV exports, as :func:`benchmarks.mixed_corpus.write_csv`.
CSV: dict[str, list[list[str]]] = {
    "lunch_menu.csv": [
        ["Week", "Day", "Main", "Vegetarian option", "Pudding"],
        [
            "Week 1",
            "Monday",
            "Beef lasagne with garlic bread",
            "Lentil and spinach lasagne",
            "Apple crumble with custard",
        ],
        [
            "Week 1",
            "Tuesday",
            "Chicken tikka masala with rice",
            "Chickpea and sweet potato curry",
            "Mandarin jelly",
        ],
        [
            "Week 1",
            "Wednesday",
            "Roast pork with roast potatoes and gravy",
            "Quorn fillet with roast potatoes",
            "Chocolate sponge with chocolate sauce",
        ],
        [
            "Week 1",
            "Thursday",
            "Sausage and mash with onion gravy",
            "Veggie sausage and mash",
            "Fruit yoghurt",
        ],
        [
            "Week 1",
            "Friday",
            "Fish fingers, chips and peas",
            "Cheese and onion pasty, chips and peas",
            "Iced shortbread",
        ],
        [
            "Week 2",
            "Monday",
            "Macaroni cheese with broccoli",
            "Macaroni cheese with broccoli",
            "Carrot cake",
        ],
        [
            "Week 2",
            "Tuesday",
            "Chilli con carne with rice",
            "Three-bean chilli with rice",
            "Rice pudding with jam",
        ],
        [
            "Week 2",
            "Wednesday",
            "Roast chicken with stuffing and roast potatoes",
            "Vegetable wellington",
            "Jam roly-poly with custard",
        ],
        [
            "Week 2",
            "Thursday",
            "Cottage pie with carrots",
            "Vegetable and lentil cottage pie",
            "Peach slices and ice cream",
        ],
        [
            "Week 2",
            "Friday",
            "Battered pollock, chips and beans",
            "Veggie burger in a bun",
            "Chocolate crispy cake",
        ],
        [
            "Every day",
            "",
            "Jacket potato with cheese or beans, salad bar and fresh fruit",
            "",
            "",
        ],
    ],
}

#: E-mails, as :func:`benchmarks.mixed_corpus.write_eml`.
EML: dict[str, dict[str, Any]] = {
    "snow_closure.eml": {
        "subject": "School closed today (Tuesday 1 December) and the Owl Class museum trip",
        "from": "St Aldhelm's School Office <office@st-aldhelms.dorset.sch.uk>",
        "to": "Parents and carers <parents@st-aldhelms.dorset.sch.uk>",
        "date": "Tue, 01 Dec 2026 06:52:00 +0000",
        "text": """Dear parents and carers,

I'm very sorry to be writing so early, but after walking down Chalcombe Lane with Mr
Hollis at six o'clock this morning I have decided that the school will be closed today,
Tuesday 1 December. The lane is sheet ice under the snow, the gritter hasn't been out
beyond the A35, and seven of our staff live on the far side of Eggardon Hill, so we simply
wouldn't have enough grown-ups to keep everyone safe.

Teachers will put a few short activities on each class page of the website by 10am, but
please don't feel you have to do them all - building a snowman and writing three sentences
about it counts as English in my book.

We will decide about tomorrow by 7am and will let you know by text message and on the
Dorset Council school closures page, so there is no need to ring the office, which won't
be staffed today anyway.

Owl Class parents: the trip to the Dorset Museum in Dorchester, which should have been
today, has been moved to Wednesday 9 December. The coach will leave from the church gate
at 8.50am sharp and we expect to be back by 3.30pm, a quarter of an hour after the usual
home time, so please collect from the church gate rather than the playground that day.
Your child will need a packed lunch in a bag that can be thrown away; if you'd like school
to provide one, just tick the box on the new reply slip. The voluntary contribution of £14
that most of you have already paid will carry over, and as always nobody will be left
behind because a contribution hasn't been made.

Stay warm, and enjoy the snow!

Harriet Penrose
Head Teacher
""",
    },
    "head_lice_reminder.eml": {
        "subject": "A gentle reminder about head lice (and tummy bugs)",
        "from": "Janet Fairweather <office@st-aldhelms.dorset.sch.uk>",
        "to": "Parents and carers <parents@st-aldhelms.dorset.sch.uk>",
        "date": "Mon, 16 Nov 2026 15:40:00 +0000",
        "html": """<html><body>
<p>Dear all,</p>
<p>I'm afraid the little visitors are back: we've had reports of head lice in both Robin and
Kestrel Classes this week, so this is my termly plea for everyone to check the whole family's
hair. The easiest way is wet combing - wash the hair, slather on plenty of conditioner and go
through it section by section with a proper detection comb (the office has a few to give away,
just ask) - and doing it every Sunday evening for a fortnight usually catches them before they
spread. Children with head lice do not need to stay off school, but please do treat them the
same day and let the class teacher know, so that we can send a discreet note round the rest of
the class.</p>
<p>While I'm at it, a few reminders about keeping poorly children at home, from the NHS guidance
we follow:</p>
<ul>
<li>Sickness or diarrhoea: please keep your child at home until 48 hours after the last bout,
even if they seem right as rain the next morning.</li>
<li>A high temperature: stay at home until the temperature has gone, without Calpol or
ibuprofen hiding it.</li>
<li>Chickenpox: back to school once all the spots have crusted over, which is usually about
five days after they first appear.</li>
<li>Scarlet fever: children can come back 24 hours after starting their antibiotics.</li>
<li>Conjunctivitis, and hand, foot and mouth: no need to stay off, as long as they feel well
enough.</li>
</ul>
<p>And please remember to ring the absence line on every day your child is off, not just the
first one - though if you already know they'll be off for three days, one call saying so is
fine.</p>
<p>Many thanks,<br>Janet Fairweather<br>Office Manager</p>
</body></html>
""",
    },
}

#: Text files written as they are (Markdown and HTML).
TEXT: dict[str, str] = {
    "uniform_and_pe_kit.md": """# Uniform and PE kit

Our uniform is simple and, we hope, not too expensive: the only things that must carry the
school badge are the sweatshirt or cardigan and the PE T-shirt, and everything else can come
from the supermarket, a bag of hand-me-downs or wherever you like.

## Everyday uniform

- Bottle-green sweatshirt or cardigan with the St Aldhelm's badge
- White or pale-blue polo shirt
- Grey trousers, shorts, skirt or pinafore
- A green-and-white gingham dress in the summer term, if you like (it is optional)
- Black school shoes - no trainers, and no boots unless there is snow on the ground
- Long hair tied back with a plain bobble, and no nail varnish, please, however beautiful

## PE kit

PE kit comes to school in a named drawstring bag on PE days and goes home on Fridays to be
washed. It is a T-shirt in your child's house colour (red for Pilsdon, blue for Lewesdon,
yellow for Eggardon), plain black shorts, and trainers for outdoors; indoor PE and dance are
done barefoot. From October half term until Easter, children may wear plain dark tracksuit
bottoms and a jumper for outdoor PE.

Earrings must be taken out for PE. Staff are not allowed to remove them or to tape them over,
so if your child is thinking about having their ears pierced, the start of the summer holidays
is the best time, as new studs need to stay in for six weeks.

## Prices

Badged items are sold by Bramley & Daughters in South Street, Bridport, or on their website,
and they keep our sizes in stock all year round.

| Item | Sizes | Price |
|---|---|---|
| Sweatshirt | age 3-4 to age 9-10 | £13.50 |
| Sweatshirt | age 11-12 and adult small | £15.50 |
| Cardigan | all sizes | £16.00 |
| House T-shirt | all sizes | £6.75 |
| Book bag | one size | £7.50 |
| Drawstring PE bag | one size | £5.25 |
| Fleece | all sizes | £19.00 |

## Second-hand uniform

The Friends of St Aldhelm's run a second-hand uniform rail in the school porch after school
on the first Friday of every month; everything is washed and sorted, and you pay what you can
into the tin. Lost property that hasn't been claimed by the end of each half term goes onto
the rail, so please, please put names in everything - a laundry marker on the label is fine.
""",
    "faq.html": """<html><head>
<title>Frequently asked questions - St Aldhelm's C of E Primary School</title>
</head><body>
<h1>Frequently asked questions</h1>
<p>These are the questions that land in the office inbox most often. If yours isn't here, just
pop in and ask!</p>
<h3>Can my child walk home on their own?</h3>
<p>Children in Years 5 and 6 can walk home on their own once we have a signed permission slip
from you, which the office will happily give you. We're afraid we don't let younger children
leave alone, even if they live right next to the church, and a younger brother or sister can
only go home with an older one who is in Year 6 and only if you've said so on the slip.</p>
<h3>What happens if I'm running late at pick-up?</h3>
<p>It happens to all of us! Please ring the office as soon as you know, and your child will wait
with a member of staff in the library, with a book and quite often a biscuit. If we haven't
heard from anyone by 3.40pm, we'll start ringing the other contacts on your child's form.</p>
<h3>Can I bring the dog into the playground?</h3>
<p>Sadly not. Dogs have to stay outside the gate, even little ones carried in arms, because we
have children who are frightened of them and one or two with allergies; assistance dogs are,
of course, welcome.</p>
<h3>Where can I park?</h3>
<p>Chalcombe Lane is very narrow, so please don't park on it at all at drop-off or pick-up. The
village hall car park is about four minutes' walk away and the parish council has kindly said
parents may use it for free. The church car park is fine too, except on Wednesdays, when it is
needed for the over-sixties' lunch club, and whenever there is a funeral.</p>
<h3>How do I apply for a Reception place?</h3>
<p>We are a voluntary controlled church school, so all Reception applications go through Dorset
Council's admissions team rather than through us. For children starting school in September
2027, apply online by 15 January 2027. We take up to 15 children a year, and we are always
delighted to show prospective families around - just ring Mrs Fairweather to book a visit.</p>
<h3>Who are the Friends of St Aldhelm's?</h3>
<p>They're our PTA, and every parent and carer is automatically a member. They meet on the first
Monday of each month at 7.30pm in the back room of The Plough, and their big events are the
Christmas fair and the summer duck race on the river Wen, which raised £2,140 last year towards
the new reading shed.</p>
<h3>Does the school put sun cream on my child?</h3>
<p>Please put long-lasting sun cream on before school on sunny days. Children can bring a named
bottle of their own to put on again at lunchtime, but staff aren't able to apply it for them,
so it's worth practising at home; a named sun hat is a must from May onwards.</p>
<h3>Can I volunteer to help in school?</h3>
<p>Yes please - we love having volunteers, especially to hear children read on Tuesday and
Thursday mornings. Every regular volunteer needs an enhanced DBS check, which the office
arranges for free, and a short safeguarding chat with Mrs Penrose before they start.</p>
</body></html>
""",
}

#: Born-digital PDFs: pages of lines, as :func:`benchmarks.mixed_corpus.write_text_pdf`.
PDF: dict[str, list[list[str]]] = {
    "attendance_policy.pdf": [
        [
            "St Aldhelm's C of E Primary School - Attendance Policy (summary for parents)",
            "Approved by the governing board in October 2026. Next review: September 2027.",
            "",
            "Why it matters",
            "We expect every child to be in school at least 96% of the time. Over a school year,",
            "96% still means almost eight days off, so we keep a close eye on attendance and will",
            "always talk to you first if we are worried.",
            "",
            "Reporting an absence",
            "Ring the absence line (01308 488210, option 1) before 9.15am on each day of absence.",
            "If we have not heard from you by 9.30am, we will start calling your emergency",
            "contacts, and if we cannot reach anyone by 11am we may make a home visit to check",
            "that all is well.",
            "",
            "Arriving late",
            "The gates close at 8.50am. A child arriving between 8.50am and 9.15am is marked late",
            "(code L). Registers close at 9.15am, and arriving after that counts as an",
            "unauthorised absence for the morning (code U) unless there is a good reason,",
            "such as a hospital appointment.",
            "",
            "Appointments",
            "Please make medical and dental appointments after school or in the holidays where you",
            "can. When that is not possible, show the appointment card or letter at the office and",
            "we will record the absence as authorised.",
            "",
            "Holidays in term time",
            "The head teacher can only authorise leave in term time in exceptional circumstances,",
            "and family holidays are not exceptional circumstances. Requests must be made on the",
            "leave form at least four weeks in advance; a parent's work rota is taken into account",
            "but will not on its own be enough.",
            "",
            "Penalty notices",
            "Dorset Council may issue a penalty notice when a child misses 10 or more sessions",
            "(5 school days) through unauthorised absence within 10 school weeks.",
            "The penalty is GBP 80 per parent, per child, if paid within 21 days,",
            "rising to GBP 160 if paid within 28 days.",
            "",
            "Religious observance",
            "We authorise one day of absence for each day set apart for religious observance",
            "by your family's faith; please let us know in writing before the day.",
            "",
            "Attendance lead: Mr Tom Akinola, Deputy Head Teacher.",
            "Questions: office@st-aldhelms.dorset.sch.uk",
        ],
    ],
}
