"""The services one application instance uses, built once by ``app.create_app``."""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.services.auth import AuthService
from pressroom.services.language import LanguageService
from pressroom.services.permissions import Permissions
from pressroom.services.section import SectionService


@dataclass(frozen=True, slots=True)
class Services:
    permissions: Permissions
    auth: AuthService
    sections: SectionService
    languages: LanguageService
