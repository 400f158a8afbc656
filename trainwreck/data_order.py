"""The order the data reaches the model in, and whether each row keeps its label: inputs and labels shuffled by
separate calls or by separate loaders, files listed in a shuffled order and zipped with labels made in another, a
horizontal flip that turns a picture of one class into one of another, and a training loader that never shuffles.

No entry covers these bugs of the data's wiring: diagnose.py says what it saw in place of an entry.
"""
from __future__ import annotations

import itertools
import re

from .breaking_constructs import code_of, line_from

# The inputs and the labels shuffled by two separate calls (`np.random.shuffle(X)` then `np.random.shuffle(y)`, or
# `random.shuffle`): each call draws its own permutation, so the rows and their labels no longer match -- every label
# is another row's, and the model can learn no better than the class frequencies. No entry covers it: a bug of the
# data's wiring. (Not one permutation applied to both, `idx = np.random.permutation(n)`, nor sklearn's `shuffle(X, y)`,
# which shuffles them together.)
SHUFFLED_APART = re.compile(r"(?m)^[ \t]*(?:np\.random|numpy\.random|random|rng)\.shuffle\([ \t]*(?P<a>[A-Za-z_][\w.\[\]]{0,40})"
                            r"[ \t]*\)[ \t]*(?:#[^\n]*)?\n(?:[^\n]*\n){0,3}?[ \t]*(?:np\.random|numpy\.random|random|rng)"
                            r"\.shuffle\([ \t]*(?P<b>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


# ... or by scikit-learn's `shuffle` given one array a call (`x, y = shuffle(imgs), shuffle(labels)`, or a line each):
# with no random_state each call draws its own permutation (`shuffle(X, y)` keeps them together)
PAIR_INPUT = re.compile(r"(?:x|inputs?|features?|images?|imgs?|data|samples?|sequences?|texts?)(?:_\w{1,10})?")
PAIR_LABEL = re.compile(r"(?:y|labels?|lbls?|targets?|classes|gt)(?:_\w{1,10})?")
ONE_ARRAY_SHUFFLE = re.compile(r"(?<![\w.])(?:sklearn\.utils\.)?shuffle\([ \t]*(?P<a>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


def shuffled_apart(prose: str) -> str:
    """The two calls, quoted, where the paste shuffles two arrays (its inputs and its labels) by separate calls; ''."""
    code = code_of(prose)
    m = SHUFFLED_APART.search(code)
    if m and m.group("a") != m.group("b"):
        return " ... ".join(" ".join(line.split()) for line in (m.group(0).split("\n")[0], m.group(0).split("\n")[-1]))
    calls = list(itertools.islice(ONE_ARRAY_SHUFFLE.finditer(code), 20))
    for a, b in zip(calls, calls[1:]):
        # (an input's name and a label's: two lists of files shuffled each on its own are no pair broken)
        names = {a.group("a").lower(), b.group("a").lower()}
        if a.group("a") != b.group("a") and code.count("\n", a.end(), b.start()) <= 3 \
                and any(PAIR_INPUT.fullmatch(n) for n in names) and any(PAIR_LABEL.fullmatch(n) for n in names):
            return f"{a.group(0)} ... {b.group(0)}"
    return ""


# A training DataLoader built without shuffle=True: PyTorch's DataLoader keeps the dataset's order unless told to
# shuffle (its `shuffle` argument defaults to False), so a dataset listed class by class gives batches of one class in
# turn. Not a loader given a sampler (which sets the order itself), nor one named for validation or testing.
LOADER_CALL = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:torch\.utils\.data\.)?DataLoader\("
                         r"(?P<args>[^()]{0,400}(?:\([^()]{0,80}\)[^()]{0,400}){0,4})\)")
SHUFFLED_ARG = re.compile(r"\bshuffle[ \t]*=[ \t]*(?!False\b)\w|\b(?:batch_)?sampler[ \t]*=")
NOT_TRAINING_LOADER = re.compile(r"(?i)val|valid|test|eval|dev")


def unshuffled_loader(prose: str) -> str:
    """The call, shortened, where the paste builds its training DataLoader without shuffling it; ''."""
    for m in LOADER_CALL.finditer(code_of(prose)):
        if not NOT_TRAINING_LOADER.search(m.group("name")) and not SHUFFLED_ARG.search(m.group("args")):
            call = " ".join(m.group(0).split())
            return call if len(call) <= 120 else call[:117] + "..."
    return ""


# ... or by two shuffled DataLoaders, one of the inputs and one of the labels, iterated together (`zip(img_loader,
# lbl_loader)`): each loader's sampler draws its own permutation every epoch. By the loaders' names, or the one array each
# one's dataset wraps (`TensorDataset(X)`, `TensorDataset(y)`): not two loaders of whole examples (a labelled and an
# unlabelled one, a source and a target domain), which are zipped on purpose.
LOADER_STEM = re.compile(r"(?i)_?(?:data_?)?(?:loader|dl|iter)$")
ONE_ARRAY_DATASET = re.compile(r"^\s*(?:torch\.utils\.data\.)?TensorDataset\(\s*(?P<a>[A-Za-z_]\w{0,40})\s*\)")
ZIPPED = re.compile(r"\bzip\(\s*(?P<a>[A-Za-z_]\w{0,40})\s*,\s*(?P<b>[A-Za-z_]\w{0,40})\s*\)")


def loaders_shuffled_apart(prose: str) -> str:
    """The zip, quoted, where the paste iterates two shuffled DataLoaders together, one of its inputs and one of its
    labels; ''."""
    if "zip(" not in prose:
        return ""
    code = code_of(prose)
    roles = {}
    for m in itertools.islice(LOADER_CALL.finditer(code), 20):
        # (nor loaders given one seeded generator each, which draw the same order: `generator=g`)
        if not SHUFFLED_ARG.search(m.group("args")) or "sampler" in m.group("args") or "generator" in m.group("args"):
            continue
        one = ONE_ARRAY_DATASET.match(m.group("args"))
        names = [LOADER_STEM.sub("", m.group("name"))] + ([one.group("a")] if one else [])
        role = {"input" for n in names if PAIR_INPUT.fullmatch(n.lower())} | \
               {"label" for n in names if PAIR_LABEL.fullmatch(n.lower())}
        if len(role) == 1:
            roles[m.group("name")] = role.pop()
    for z in itertools.islice(ZIPPED.finditer(code), 20):
        if {roles.get(z.group("a")), roles.get(z.group("b"))} == {"input", "label"}:
            return z.group(0)
    return ""


# ... or tf.data's list of files, which shuffles the names by default ("the default behavior of this method is to
# return filenames in a non-deterministic random shuffled order", tf.data.Dataset.list_files; a seed only makes that
# order repeatable), zipped with a dataset of labels made in another order (`Dataset.zip((files.map(load), labels))`):
# each image is paired with another file's label. Not with shuffle=False.
LIST_FILES = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:tf\.data\.)?Dataset\.list_files\("
                        r"(?P<args>[^()\n]{0,200}(?:\([^()\n]{0,80}\)[^()\n]{0,200}){0,3})\)")
DATASET_ZIP = re.compile(r"\bDataset\.zip\(\s*\(?(?P<args>[^\n]{0,200})")


def listed_files_zipped_apart(prose: str) -> str:
    """The zip, quoted, where the paste zips a `Dataset.list_files` left to shuffle with another dataset; ''."""
    if "list_files(" not in prose:
        return ""
    code = code_of(prose)
    names = [m.group("name") for m in itertools.islice(LIST_FILES.finditer(code), 10)
             if not re.search(r"\bshuffle\s*=\s*False\b|^[^,]*,\s*False\b", m.group("args"))]
    for z in itertools.islice(DATASET_ZIP.finditer(code), 10):
        used = set(re.findall(r"[A-Za-z_]\w*", z.group("args")))
        if any(n in used for n in names):
            return " ".join(z.group(0).split())[:120]
    return ""


# A horizontal flip among the training augmentations (torchvision's RandomHorizontalFlip, Albumentations' HorizontalFlip,
# Keras's RandomFlip("horizontal") and ImageDataGenerator(horizontal_flip=True), tf.image's random_flip_left_right)
# beside classes that tell left from right (`point_left` and `point_right`, "left/right"): a flipped picture of one is
# a picture of the other under the first one's label, so half the flips teach the wrong class -- not covered.
HORIZONTAL_FLIP = re.compile(r"\bRandomHorizontalFlip\(|\bHorizontalFlip\(|\bRandomFlip\(\s*(?:mode\s*=\s*)?['\"]horizontal"
                             r"|\bhorizontal_flip\s*=\s*True\b|\brandom_flip_left_right\(")
LEFT_RIGHT = re.compile(r"(?i)(?<![\w-])(?P<a>(?:\w{1,20}[_-])?left(?:[_-]\w{1,20})?)\s*(?:/|,|\band\b|\bvs\.?|\bor\b)\s*"
                        r"(?P<b>(?:\w{1,20}[_-])?right(?:[_-]\w{1,20})?)(?![\w-])")
CLASSES_LINE = re.compile(r"(?i)class|label|categor|confus")
LEFT_RIGHT_NAMED = re.compile(r"(?i)(?<![\w-])(?P<a>\w{1,20}[_-]left|left[_-]\w{1,20})(?![\w-])[^\n]{0,200}?"
                              r"(?<![\w-])(?P<b>\w{1,20}[_-]right|right[_-]\w{1,20})(?![\w-])")


def flip_swaps_classes(prose: str) -> tuple[str, str] | None:
    """(the flip, quoted, and the two classes) where the paste flips its training images horizontally and names classes
    that tell left from right; or None."""
    code = code_of(prose)
    flip = HORIZONTAL_FLIP.search(code)
    # (named as classes, on a line that says so: not a box's `x_left` and `x_right`, which a detector's flip moves too)
    pair = next((m for pattern in (LEFT_RIGHT_NAMED, LEFT_RIGHT) for m in itertools.islice(pattern.finditer(prose), 10)
                 if CLASSES_LINE.search(line_from(prose, prose.rfind("\n", 0, m.start()) + 1))), None) if flip else None
    if not pair:
        return None
    return line_from(code, code.rfind("\n", 0, flip.start()) + 1).rstrip(",")[:100], \
        f"{pair.group('a')} and {pair.group('b')}"
