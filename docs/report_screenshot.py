"""Make ``docs/report.png``, the report screenshot in the README: the top of a comparison report (failures,
comparison) above one sample's inputs and verdicts, from the demo data, in headless Chromium.

    python docs/report_screenshot.py [--out docs/report.png]

Needs Chromium (``chromium`` on the PATH) and Pillow (in the dev extra).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image

from ragrecall.demo import demo_dataset, demo_metrics
from ragrecall.evaluation import evaluate
from ragrecall.report import write_report
from ragrecall.schema import Sample

WIDTH = 1100
MARK = (254, 240, 199)


def first_passage_only(sample: Sample) -> Sample:
    """The sample as a retriever that found only its first passage would have it."""
    fields = ("retrieved_contexts", "retrieved_context_ids")
    return sample.model_copy(update={name: (getattr(sample, name) or [])[:1] for name in fields})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).with_name("report.png")))
    args = parser.parse_args()
    browser = shutil.which("chromium") or shutil.which("google-chrome")
    if browser is None:
        raise SystemExit("needs chromium on the PATH")
    demo = list(demo_dataset())[:5]
    samples = [*demo[:4], demo[4].model_copy(update={"id": "no-reference", "reference": None})]
    weaker = [first_passage_only(s) for s in samples]
    new = evaluate(samples, demo_metrics(), show_progress=False)
    base = evaluate(weaker, demo_metrics(), show_progress=False)
    with tempfile.TemporaryDirectory() as tmp:
        page, shot = Path(tmp) / "report.html", Path(tmp) / "shot.png"
        write_report(new, page, title="Retriever v2 against v1", base=base, names=("v1.jsonl", "v2.jsonl"))
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"]
        subprocess.run(
            [browser, *flags, f"--user-data-dir={tmp}/profile", f"--window-size={WIDTH},9000", f"--screenshot={shot}",
             page.as_uri()],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        image = Image.open(shot).convert("RGB")
    # The top (header, failures, comparison table), then the first highlighted quote with its sample around it.
    top = image.crop((0, 0, WIDTH, 815))
    mark_y = next(
        y for y in range(900, image.height) if any(image.getpixel((x, y)) == MARK for x in range(0, WIDTH, 2))
    )
    sample = image.crop((0, mark_y - 300, WIDTH, mark_y + 330))
    out = Image.new("RGB", (WIDTH, top.height + 12 + sample.height), (208, 213, 221))
    out.paste(top, (0, 0))
    out.paste(sample, (0, top.height + 12))
    out.quantize(colors=64).save(args.out, optimize=True)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
