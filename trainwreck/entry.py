"""What an entry is: its fields, its fixed sections, and the words they may use."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from . import lazy_regex

# Use with fullmatch: `$` would let a trailing newline through, and \d any script's digits.
ID_PATTERN = lazy_regex.compile(r"WR-[0-9]{3}")

STATUSES = ("draft", "stable", "retired")

# The stage of training an ID's hundreds digit stands for.
STAGES = {
    "0": "numerics: float limits, overflow, nan",
    "1": "the forward pass and the model: initialisation, activations, layers",
    "2": "the update step and optimisers",
    "3": "the data: labels, scaling, batches, splits",
}


def stage_of(entry_id: str) -> str:
    return STAGES.get(entry_id[3:4], "")

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
    # (from a finite first value, not necessarily a small one: diagnose reads the shape whatever the start)
    "climb-then-nonfinite": "starts finite, climbs for several epochs, then turns inf / nan",
    "nonfinite-from-start": "non-finite or enormous from the very first value",
    "descent-then-nonfinite": "falls normally, then jumps to non-finite without a climb",
    "spike-then-recover": "jumps far above its start in the first steps, then recovers and trains",
    "climb-despite-clipping": "climbs then turns non-finite although gradient clipping was on, and it never engaged",
    "descent-then-climb": "falls normally for a good while, then climbs faster and faster and turns inf / nan",
    "plateau-from-start": "barely moves from its first value and stays high: no nan, no learning",
    "stall-after-drop": "falls at first, then stops well above where a healthy run goes and never moves again",
    "none": "no loss-curve signature of its own (messages only)",
}

# Who prints a message. Each declared message names one of these and cites the
# line of that project's source (or its documentation) where the text is written.
ORIGINS = {
    "numpy": "NumPy",
    "python": "Python",
    "pytorch": "PyTorch",
    "lightning": "PyTorch Lightning",
    "keras": "Keras",
    "tensorflow": "TensorFlow",
    "jax": "JAX",
    "optax": "Optax",
    "cuda": "CUDA",
    "apex": "NVIDIA Apex",
    "deepspeed": "DeepSpeed",
    "fairseq": "fairseq",
    "megatron": "Megatron-LM",
    "transformers": "Hugging Face Transformers",
}
# A citation is pinned when its URL names a release or a commit: a GitHub file at
# a tag or a 40-digit commit, or a documentation page whose path holds a version.
_GITHUB_PINNED = lazy_regex.compile(
    r"https://github\.com/[\w.-]+/[\w.-]+/blob/(?:[\w.+-]*[0-9][\w.+-]*|[0-9a-f]{40})/\S+")
_DOCS_PINNED = lazy_regex.compile(r"https://[\w.-]+/(?:\S*/)?(?:v|r|stable-)?[0-9]+(?:\.[0-9]+)+/\S*")
_UNPINNED_REFS = lazy_regex.compile(r"/blob/(?:main|master|HEAD|develop|trunk)/")
# In a message text, {} stands for what the program fills in (a name, a number).
PLACEHOLDER_MARK = "{}"


def is_pinned(url: str) -> bool:
    """True when the URL names a release or a commit, so the quoted wording can be checked."""
    if _UNPINNED_REFS.search(url):
        return False
    return bool(_GITHUB_PINNED.fullmatch(url) or _DOCS_PINNED.fullmatch(url))


# (every quotation is matched against each declared message: a message's pattern is made once)
@functools.lru_cache(maxsize=1024)
def template_pattern(text: str, capture: bool = False) -> re.Pattern:
    """The message text as a pattern: each {} matches one printed value (no line break), as a group when
    `capture`. A value that ends the message runs on to a space or the line's end: matched as short as
    possible it would be one character, and a log's "reducing loss scale to 32768.0" would be quoted back
    as "to 3"."""
    parts = [re.escape(part) for part in text.split(PLACEHOLDER_MARK)]
    pattern = (r"([^\n]+?)" if capture else r"[^\n]+?").join(parts)
    # (a first value glued to the text after it is one word, "std(): degrees of freedom ...": searched in a line, the
    # general value would run back to the line's start and take the warning's file and category with it)
    if text.startswith(PLACEHOLDER_MARK) and text[len(PLACEHOLDER_MARK):][:1] not in ("", " "):
        pattern = (r"(\S+?)" if capture else r"\S+?") + pattern[len(r"([^\n]+?)" if capture else r"[^\n]+?"):]
    if not text.endswith(PLACEHOLDER_MARK):
        return re.compile(pattern)
    # (a last value's brackets hold their spaces: "got input size torch.Size([1, 256])", not "torch.Size([1,")
    last = r"(?:[^\s(\[]|\([^\n)]{0,200}\)|\[[^\n\]]{0,200}\]|[(\[])+?"
    head = pattern[:len(pattern) - len(r"([^\n]+?)" if capture else r"[^\n]+?")]
    return re.compile(head + (f"({last})" if capture else last) + r"(?=\s|$)")


@dataclass(frozen=True)
class Message:
    text: str            # word for word as the source writes it; {} where a value is filled in
    origin: str          # a key of ORIGINS
    source: str          # pinned URL of the line that writes it
    example: str = ""    # one filled-in instance, as a user sees it (required when text has {})
    opt_in: str = ""     # what it is printed only with (a check switched on, a backend), when not printed unasked
    fix: str = ""        # the label of the Fix section's item for the face this message shows ("Batch normalisation")
    # further instances the entry's page shows, each another operation of the same check (anomaly mode's
    # PowBackward0 beside its SqrtBackward0): the ops a printed instance names that are this entry's own
    also: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        """What a reader sees in a log."""
        return self.example or self.text

    def matches(self, quoted: str) -> bool:
        """Does a quotation (from a page or a log) reproduce this message?"""
        # Quotes reach here with runs of spaces folded (a Markdown code span, a log line read
        # word by word); a message that the source writes with two spaces must still match.
        quoted, text, example = (" ".join(s.split()) for s in (quoted, self.text, self.example))
        if not quoted:             # an exception printed with no message ("ValueError: ") quotes nothing
            return False
        return quoted in (text, example) or bool(template_pattern(text).fullmatch(quoted))


SECTIONS = (
    "Symptom",
    "Where it shows up",
    "Why it happens",
    "Confirm it",
    "Fix",
    "Prevent it",
    "In PyTorch, Keras/TensorFlow and JAX",
    "Interview question",
)
# The framework section: one ### part per framework, in this order, each with
# these three bold labels. Every `code` quoted after "What you see:" is a
# declared message, so the page can cite it and diagnose can find it.
FRAMEWORK_SECTION = "In PyTorch, Keras/TensorFlow and JAX"
FRAMEWORK_PARTS = ("PyTorch", "Keras / TensorFlow", "JAX")
FRAMEWORK_LABELS = ("What you see:", "Confirm it:", "The fix:")
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
    messages: list[Message]
    trace: str
    snippet: str
    body: str
    sections: dict[str, str] = field(default_factory=dict)
    phrases: list[str] = field(default_factory=list)   # how people describe it in their own words
    # a second loss-curve signature the failure shows in another setting, which its page and snippet show too
    # (WR-330: a plateau for a network of sigmoids, a climb to inf under plain gradient descent for a linear model)
    also_trace: str = ""

    @property
    def traces(self) -> tuple[str, ...]:
        return (self.trace, self.also_trace) if self.also_trace else (self.trace,)

    @property
    def url(self) -> str:
        return f"{self.id}/"
