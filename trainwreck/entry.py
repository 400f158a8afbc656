"""What an entry is: its fields, its fixed sections, and the words they may use."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ID_PATTERN = re.compile(r"^WR-\d{3}$")

STATUSES = ("draft", "stable", "retired")

# Each nature names how the declaring entry relates to the target; the inverse
# is what the target's page shows, so a link is declared once.
NATURES = {
    "cousin": "cousin",
    "leads-to": "follows-from",
    "follows-from": "leads-to",
    "see-also": "see-also",
}

# Loss-curve signatures the diagnose engine can recognise.
TRACES = {
    "climb-then-nonfinite": "starts healthy, climbs for several epochs, then turns inf / nan",
    "nonfinite-from-start": "non-finite or enormous from the very first value",
    "descent-then-nonfinite": "falls normally, then jumps to non-finite without a climb",
    "spike-then-recover": "jumps far above its start in the first steps, then recovers and trains",
    "climb-despite-clipping": "climbs then turns non-finite although gradient clipping was on, and it never engaged",
    "none": "no loss-curve signature of its own (messages only)",
}

SECTIONS = (
    "Symptom",
    "Where it shows up",
    "Why it happens",
    "Confirm it",
    "Fix",
    "Prevent it",
    "Interview question",
)
ANSWER_HEADINGS = ("Strong answer", "Bonus point")

REQUIRED_FIELDS = ("id", "title", "summary", "status", "modules", "related", "symptoms", "snippet")


@dataclass(frozen=True)
class Related:
    id: str
    nature: str


@dataclass
class Entry:
    path: Path
    id: str
    title: str
    summary: str
    status: str
    modules: list[str]
    related: list[Related]
    messages: list[str]
    trace: str
    snippet: str
    body: str
    sections: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"{self.id}/"
