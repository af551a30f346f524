"""Synthetic SEC filing text for the document-metadata tests."""

from __future__ import annotations


def cover_page(company: str, year: int) -> list[str]:
    """The lines of a minimal 10-K cover page for ``<company> Corporation``.

    Args:
        company: The registrant's name without "Corporation".
        year: The calendar year its fiscal year ends on December 31 of.

    Returns:
        Lines from "UNITED STATES" to the "(Exact name of registrant ...)" caption.
    """
    return [
        "UNITED STATES",
        "SECURITIES AND EXCHANGE COMMISSION",
        "Washington, D.C. 20549",
        "FORM 10-K",
        "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
        f"For the fiscal year ended December 31, {year}",
        "Commission File Number 001-38112",
        f"{company} Corporation",
        "(Exact name of registrant as specified in its charter)",
    ]


def results_page(company: str, year: int, revenue: int) -> list[str]:
    """The lines of a short results page that states ``company``'s revenue for ``year``."""
    return [
        "Item 7. Management's Discussion and Analysis of Financial Condition",
        f"Total revenue for fiscal year {year} was ${revenue} million.",
        f"{company} sold its products through retail partners and its own stores.",
        "Operating expenses grew because the company hired more engineers.",
    ]
