"""Permission checks, the single place services ask "may this user do that?".

Until roles and policies are stored (the permission issue), the policy is the clean install's in its
simplest form: the anonymous user may read content of the Standard section (1), embed content, and log
in; every authenticated user is an administrator (the only account that can log in today is the seeded
``admin``).
"""

from __future__ import annotations

from pressroom.domain.errors import Unauthorized
from pressroom.domain.query import Criterion, MatchAll, SectionId
from pressroom.domain.user import User

ANONYMOUS_FUNCTIONS = frozenset({("content", "read"), ("content", "view_embed"), ("user", "login")})
# The Section limitation of the clean install's Anonymous role on content/read (policy 328).
ANONYMOUS_READABLE_SECTIONS = frozenset({1})


class Permissions:
    def can(self, user: User, module: str, function: str, *, section_id: int | None = None) -> bool:
        """``section_id`` names the section of the content the check is about, when there is one."""
        if user.is_anonymous:
            if (module, function) not in ANONYMOUS_FUNCTIONS:
                return False
            if (module, function) == ("content", "read") and section_id is not None:
                return section_id in ANONYMOUS_READABLE_SECTIONS
            return True
        return True

    def read_criterion(self, user: User) -> Criterion:
        """What ``user`` may read, as a criterion that lists and searches compile into their SQL."""
        if user.is_anonymous:
            return SectionId(tuple(sorted(ANONYMOUS_READABLE_SECTIONS)))
        return MatchAll()

    def require(self, user: User, module: str, function: str, *, section_id: int | None = None) -> None:
        """Raise Unauthorized (401 on the wire) when the user lacks ``module/function``."""
        if not self.can(user, module, function, section_id=section_id):
            detail = f" with: sectionId '{section_id}'" if section_id is not None else ""
            raise Unauthorized(f"The User does not have the '{function}' '{module}' permission{detail}")
