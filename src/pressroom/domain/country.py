"""Countries as ISO 3166 lists them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Country:
    name: str
    alpha2: str
    alpha3: str
    numeric: str
    dialing_code: str  # international dialing code without "+", "" when none is assigned
