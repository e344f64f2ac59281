"""The country list, from the maintained ISO 3166 data of pycountry and dialing codes of phonenumbers."""

from __future__ import annotations

import unicodedata
from functools import cache

import phonenumbers
import pycountry

from pressroom.domain.country import Country


def _sort_key(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@cache
def countries() -> tuple[Country, ...]:
    """Every ISO 3166-1 country, ordered by English name (accents folded, so Åland follows Afghanistan)."""
    result = []
    for record in pycountry.countries:
        code = phonenumbers.country_code_for_region(record.alpha_2)
        result.append(
            Country(
                name=getattr(record, "common_name", None) or record.name,
                alpha2=record.alpha_2,
                alpha3=record.alpha_3,
                numeric=record.numeric,
                dialing_code=str(code) if code else "",
            )
        )
    return tuple(sorted(result, key=lambda c: _sort_key(c.name)))
