"""Time to make the first ``medium`` variation of a 4000x3000 JPEG (issue 11's closing figure).

Two images, made with Pillow: noise (the worst case for a JPEG decoder: ~8 MB at quality 75, under the
image type's 10 MB limit) and a smooth
gradient (a small file, as photos of skies are). For each, ``--runs`` fresh uploads (each a new file, so
no rendition is cached); each measured two ways:

- ``render``: the Pillow work alone (:func:`pressroom.domain.image_variation.render`);
- ``http``: the first ``GET .../variations/medium`` through the REST app in process, which also reads
  the original from the file store, stores the rendition and records it in the database (SQLite).

p50, min and max in milliseconds. Wall time on a shared machine: read the figures as an order of
magnitude, compare runs of the same day.

    .venv/bin/python -m benchmarks.image_variation [--runs 5]
"""

from __future__ import annotations

import argparse
import base64
import io
import random
import statistics
import tempfile
import time
from pathlib import Path

from PIL import Image
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings
from pressroom.domain.image_variation import DEFAULT_VARIATIONS, render
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import initialise

PREFIX = "/api/ibexa/v2"
ADMIN = "Basic " + base64.b64encode(b"admin:publish").decode()
IMAGE_TYPE = 5  # the clean install's "image" type
WIDTH, HEIGHT = 4000, 3000
MEDIUM = next(variation for variation in DEFAULT_VARIATIONS if variation.name == "medium")


def noise_jpeg(seed: int) -> bytes:
    pixels = random.Random(seed).randbytes(WIDTH * HEIGHT * 3)
    return _jpeg(Image.frombytes("RGB", (WIDTH, HEIGHT), pixels), quality=75)  # under the type's 10 MB


def gradient_jpeg(seed: int) -> bytes:
    """Red across, green down, blue by seed (so each run uploads other bytes)."""
    across = Image.linear_gradient("L").rotate(90).resize((WIDTH, HEIGHT))
    down = Image.linear_gradient("L").resize((WIDTH, HEIGHT))
    return _jpeg(Image.merge("RGB", (across, down, Image.new("L", (WIDTH, HEIGHT), seed * 37 % 256))))


def _jpeg(image: Image.Image, quality: int = 90) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


def first_medium_over_http(client: TestClient, data: bytes) -> float:
    """Upload ``data`` as a new image item, then time the first GET of its ``medium`` variation."""
    value = {"fileName": "big.jpg", "data": base64.b64encode(data).decode(), "alternativeText": "x"}
    body = {
        "ContentCreate": {
            "ContentType": {"_href": f"{PREFIX}/content/types/{IMAGE_TYPE}"},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": f"{PREFIX}/content/locations/1/2"}},
            "fields": {
                "field": [
                    {"fieldDefinitionIdentifier": "name", "fieldValue": "Big"},
                    {"fieldDefinitionIdentifier": "image", "fieldValue": value},
                ]
            },
        }
    }
    headers = {"Authorization": ADMIN, "Accept": "application/vnd.ibexa.api.Content+json"}
    created = client.post(
        f"{PREFIX}/content/objects",
        json=body,
        headers={**headers, "Content-Type": "application/vnd.ibexa.api.ContentCreate+json"},
    )
    assert created.status_code == 201, created.text[:500]
    content = created.json()["Content"]
    fields = content["CurrentVersion"]["Version"]["Fields"]["field"]
    image = next(f["fieldValue"] for f in fields if f["fieldDefinitionIdentifier"] == "image")
    href = image["variations"]["medium"]["href"]
    started = time.perf_counter()
    response = client.get(
        href,
        headers={"Authorization": ADMIN, "Accept": "application/vnd.ibexa.api.ContentImageVariation+json"},
    )
    elapsed = time.perf_counter() - started
    response.raise_for_status()
    made = response.json()["ContentImageVariation"]
    assert (made["width"], made["height"]) == (200, 150), made
    return elapsed


def _summary(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p50 = statistics.median(ms)
    return f"{label:<24} p50 {p50:7.1f} ms  min {ms[0]:7.1f}  max {ms[-1]:7.1f}  (n={len(ms)})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        url = f"sqlite:///{root / 'bench.db'}"
        engine = make_engine(url)
        initialise(engine, "publish")
        engine.dispose()
        settings = Settings(database_url=url, file_root=root / "files")
        with TestClient(create_app(settings)) as client:
            for kind, make in (("noise", noise_jpeg), ("gradient", gradient_jpeg)):
                images = [make(seed) for seed in range(args.runs)]
                print(
                    f"{kind}: {WIDTH}x{HEIGHT} JPEG, {statistics.mean(len(i) for i in images) / 1e6:.1f} MB"
                )
                rendered = []
                for data in images:
                    started = time.perf_counter()
                    render(data, MEDIUM)
                    rendered.append(time.perf_counter() - started)
                print(_summary(f"  render ({kind})", rendered))
                served = [first_medium_over_http(client, data) for data in images]
                print(_summary(f"  http first ({kind})", served))


if __name__ == "__main__":
    main()
