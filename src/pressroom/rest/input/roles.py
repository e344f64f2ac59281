"""RoleInput, PolicyCreate, PolicyUpdate and RoleAssignInput (spec/shapes-users.md §9)."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest
from pressroom.domain.role import Limitation, PolicyCreate
from pressroom.rest.input.node import Node, as_list
from pressroom.rest.input.registry import Refs, parses


def _values(node: Node) -> tuple[str, ...]:
    """``values.ref[]._href`` as given."""
    refs = node.items("values", "ref")
    if not refs:
        raise BadRequest(f"Missing 'values' of limitation in {node.where}.")
    hrefs = []
    for ref in refs:
        href = ref.data.get("_href")
        if isinstance(href, bool) or not isinstance(href, str | int):
            raise BadRequest(f"Missing '_href' of a value in {ref.where}.")
        hrefs.append(str(href).strip())
    return tuple(hrefs)


def _identifier(node: Node) -> str:
    identifier = node.data.get("_identifier")
    if not isinstance(identifier, str) or not identifier:
        raise BadRequest(f"Missing '_identifier' attribute for {node.where}.")
    return identifier


def parse_limitations(node: Node) -> tuple[Limitation, ...]:
    """``limitations.limitation[]``; an absent list is no limitation."""
    return tuple(
        Limitation(_identifier(item), _values(item)) for item in node.items("limitations", "limitation")
    )


@parses("PolicyCreate")
def parse_policy_create(node: Node, _refs: Refs) -> PolicyCreate:
    return PolicyCreate(node.string("module"), node.string("function"), parse_limitations(node))


@parses("PolicyUpdate")
def parse_policy_update(node: Node, _refs: Refs) -> tuple[Limitation, ...]:
    return parse_limitations(node)


@parses("RoleAssignInput")
def parse_role_assign(node: Node, refs: Refs) -> tuple[int, Limitation | None]:
    """The role id and the optional Section or Subtree limitation, whose values are hrefs here."""
    role_id: int = refs.parse_href(node.href("Role"), "role.load", what="Role href")["roleId"]
    raw = node.data.get("limitation")
    if raw in (None, ""):
        return role_id, None
    items = as_list(raw)
    if len(items) != 1:
        raise BadRequest("RoleAssignInput takes one limitation")
    limitation = Node(items[0], "RoleAssignInput.limitation")
    identifier = _identifier(limitation)
    values = []
    for href in _values(limitation):
        if identifier == "Section":
            values.append(str(refs.parse_href(href, "section.load", what="Section href")["sectionId"]))
        elif identifier == "Subtree":
            if not href.endswith("/"):
                raise BadRequest(f"A Subtree limitation href must end with '/', got '{href}'")
            path = refs.parse_href(href, "location.load", what="Subtree href")["path"]
            values.append(f"/{path}/")
        else:
            raise BadRequest(f"A role assignment takes a Section or Subtree limitation, not '{identifier}'")
    return role_id, Limitation(identifier, tuple(values))
