"""How far does a judge agree with people? The offline judge measured against the hand-labelled set beside this
file: 60 claims in English and Chinese, plus two samples scored as a whole.

Run: python examples/calibration/calibrate_offline.py   (needs the calibrate extra: pip install 'ragrecall[calibrate]')
Same as: ragrecall calibrate examples/calibration/labels.jsonl --llm offline
"""

from __future__ import annotations

from pathlib import Path

from ragrecall import ContextRecall, OfflineJudge, calibrate
from ragrecall.calibration import calibration_table

LABELS = Path(__file__).with_name("labels.jsonl")


def main() -> None:
    # OfflineJudge matches words; it does not understand them. Its figures here are what a lexical judge
    # earns; a model judge is measured the same way with ragrecall.llm_factory("your-model").
    result = calibrate(ContextRecall(OfflineJudge()), LABELS)
    print(calibration_table(result, show=3))
    english = [d for d in result.claim_disagreements if str(d.sample_id).startswith("en-")]
    print(
        f"\ndisagreements by language: {len(english)} English, {len(result.claim_disagreements) - len(english)} Chinese"
    )


if __name__ == "__main__":
    main()
