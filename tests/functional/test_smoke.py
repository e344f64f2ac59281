from tests.helpers import Api, media


def test_root_lists_sections_in_json(api: Api) -> None:
    response = api.get("/", accept=media("Root"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Root")
    assert response.json()["Root"]["sections"]["_href"] == "/api/ibexa/v2/content/sections"
