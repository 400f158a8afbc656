"""The order the data reaches the model in, and whether each row keeps its label: inputs and labels shuffled by
separate calls or by separate loaders, files listed in a shuffled order and zipped with labels made in another, a
horizontal flip that turns a picture of one class into one of another, and a training loader that never shuffles.

No entry covers these bugs of the data's wiring: diagnose.py says what it saw in place of an entry.
"""
from __future__ import annotations

import itertools
import re

from .breaking_constructs import code_of, line_from
from . import lazy_regex

# The inputs and the labels shuffled by two separate calls (`np.random.shuffle(X)` then `np.random.shuffle(y)`, or
# `random.shuffle`): each call draws its own permutation, so the rows and their labels no longer match -- every label
# is another row's, and the model can learn no better than the class frequencies. No entry covers it: a bug of the
# data's wiring. (Not one permutation applied to both, `idx = np.random.permutation(n)`, nor sklearn's `shuffle(X, y)`,
# which shuffles them together.)
SHUFFLED_APART = lazy_regex.compile(r"(?m)^[ \t]*(?:np\.random|numpy\.random|random|rng)\.shuffle\([ \t]*(?P<a>[A-Za-z_][\w.\[\]]{0,40})"
                                    r"[ \t]*\)[ \t]*(?:#[^\n]*)?\n(?:[^\n]*\n){0,3}?[ \t]*(?:np\.random|numpy\.random|random|rng)"
                                    r"\.shuffle\([ \t]*(?P<b>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


# ... or by scikit-learn's `shuffle` given one array a call (`x, y = shuffle(imgs), shuffle(labels)`, or a line each):
# with no random_state each call draws its own permutation (`shuffle(X, y)` keeps them together)
PAIR_INPUT = lazy_regex.compile(r"(?:x|inputs?|features?|images?|imgs?|data|samples?|sequences?|texts?)(?:_\w{1,10})?")
PAIR_LABEL = lazy_regex.compile(r"(?:y|labels?|lbls?|targets?|classes|gt)(?:_\w{1,10})?")
ONE_ARRAY_SHUFFLE = lazy_regex.compile(r"(?<![\w.])(?:sklearn\.utils\.)?shuffle\([ \t]*(?P<a>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


# ... or permuted by two calls that draw their own order: NumPy's `np.random.permutation(X)` and `(y)`, or JAX's
# `jax.random.permutation(kx, X)` and `(ky, y)` with two keys (with one key and arrays of one length, JAX draws the same
# permutation twice: the pairs hold)
PERMUTED = lazy_regex.compile(r"(?<![\w.])(?:(?:np|numpy|jax|jnp)\.)?random\.permutation\([ \t]*(?:(?P<key>[A-Za-z_][\w.\[\]]{0,40})"
                              r"[ \t]*,[ \t]*)?(?P<a>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


def _permuted_apart(code: str) -> str:
    """The two permutation calls, quoted, of an input and a label drawn apart (PERMUTED); ''."""
    calls = list(itertools.islice(PERMUTED.finditer(code), 20))
    for a, b in zip(calls, calls[1:]):
        names = {a.group("a").lower().split(".")[-1], b.group("a").lower().split(".")[-1]}
        if a.group("a") != b.group("a") and code.count("\n", a.end(), b.start()) <= 3 \
                and (a.group("key") is None or a.group("key") != b.group("key")) \
                and any(PAIR_INPUT.fullmatch(n) for n in names) and any(PAIR_LABEL.fullmatch(n) for n in names):
            return f"{a.group(0)} ... {b.group(0)}"
    return ""


def shuffled_apart(prose: str) -> str:
    """The two calls, quoted, where the paste shuffles two arrays (its inputs and its labels) by separate calls; ''."""
    code = code_of(prose)
    if permuted := _permuted_apart(code):
        return permuted
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


# ... or one of two arrays made row by row together, shuffled alone in place: a pair taken from one array's columns
# (`pts, seg = data[:, :3], data[:, -1]`) or by one index (`X, y = X[idx], y[idx]`) keeps each row with its label, until
# `np.random.shuffle(pts)` permutes the rows of one of them. (A per-example label beside a shuffled set of points is
# no such pair: it was not taken row by row with them.)
_SUBSCRIPT = r"(?P<{0}>[A-Za-z_]\w{{0,40}})\[(?P<{1}>[^\]\n]{{1,40}})\](?:\.\w{{1,20}}\([^()\n]{{0,40}}\))*"
ROWS_TOGETHER = lazy_regex.compile(r"(?m)^[ \t]*(?P<a>[A-Za-z_]\w{0,40})[ \t]*,[ \t]*(?P<b>[A-Za-z_]\w{0,40})[ \t]*=[ \t]*"
                                   + _SUBSCRIPT.format("sa", "ia") + r"[ \t]*,[ \t]*" + _SUBSCRIPT.format("sb", "ib")
                                   + r"[ \t]*(?:#[^\n]*)?$")
SHUFFLED_IN_PLACE = r"(?m)^[ \t]*(?:np\.random|numpy\.random|random|rng)\.shuffle\([ \t]*{}[ \t]*\)"


def _rows_together(m: re.Match) -> bool:
    """Are the pair's two subscripts row by row together: columns of one array, or one index array?"""
    ia, ib = m.group("ia").replace(" ", ""), m.group("ib").replace(" ", "")
    columns = m.group("sa") == m.group("sb") and ia.startswith((":,", "...,")) and ib.startswith((":,", "...,"))
    return columns or (ia == ib and re.fullmatch(r"[A-Za-z_]\w{0,40}", ia) is not None)


# (a shuffle of the labels on purpose: a sanity check that the model cannot learn random labels, a permutation test, a
# baseline -- said on the shuffle's line or the one above it)
ON_PURPOSE = lazy_regex.compile(r"(?i)\bsanity\b|\brandom(?:ized|ised)?[ _-]labels?\b|\bpermutation[ _-]test|\bbaseline\b|"
                                r"\bshould\s+(?:give|get|be)\s+(?:at\s+)?chance\b|\bnull\s+(?:model|distribution)\b")


def shuffled_alone(prose: str) -> str:
    """The pair's line and the shuffle, quoted, where the paste shuffles in place one of two arrays it made row by row
    together, and not the other (nor on purpose, ON_PURPOSE); ''."""
    code = code_of(prose)
    for m in itertools.islice(ROWS_TOGETHER.finditer(code), 20):
        if not _rows_together(m):
            continue
        one = [s for n in (m.group("a"), m.group("b"))
               if (s := re.compile(SHUFFLED_IN_PLACE.format(re.escape(n))).search(code, m.end()))]
        if len(one) == 1:
            shuffle = one[0]
            # (the shuffle's line and the one above it, comments kept: code_of keeps each character's place)
            at = shuffle.start()
            line = prose.rfind("\n", 0, at) + 1
            above = prose.rfind("\n", 0, max(0, line - 1)) + 1
            end = prose.find("\n", at)
            if not ON_PURPOSE.search(prose[above:end if end >= 0 else len(prose)]):
                return f"{' '.join(m.group(0).split())} ... {' '.join(shuffle.group(0).split())}"
    return ""


# ... or a pandas frame of the inputs shuffled (`X = X.sample(frac=1)`) after it was taken from a table whose labels
# are taken apart from it (`y = train['target'].values`): the labels keep the table's order, the inputs do not.
# (Not the whole table shuffled before both are taken from it, `df = df.sample(frac=1)`, nor labels taken from the
# shuffled frame itself, `y = X.pop('target')`.)
TAKEN_FROM = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?P<src>[A-Za-z_]\w{0,40})"
                                r"(?:\.(?:drop|pop|filter|copy)\(|\[|\.(?:iloc|loc)\[)")
_SAMPLED = r"(?m)^[ \t]*{0}[ \t]*=[ \t]*{1}\.sample\([ \t]*frac[ \t]*=[ \t]*1(?:\.0*)?\b[^\n]{{0,80}}"
FRAME_SAMPLED = lazy_regex.compile(_SAMPLED.format(r"(?P<name>[A-Za-z_]\w{0,40})", "(?P=name)"))


# (labels brought back into the shuffled frame's order through its index: `df.loc[X.index, 'y']`, `y.reindex(X.index)`,
# `y[X.index]` -- pandas aligns on the index, and that is how the two are kept together)
REALIGNED = r"(?:\.loc\[|\.reindex\(|\[)[ \t]*{0}\.index\b"


def frame_sampled_alone(prose: str) -> str:
    """The two lines, quoted, where the paste shuffles a frame of its inputs taken from a table and takes its labels
    from that table apart from it; ''."""
    code = code_of(prose)
    taken = list(itertools.islice(TAKEN_FROM.finditer(code), 40))
    for shuffled in itertools.islice(FRAME_SAMPLED.finditer(code), 5):
        name = shuffled.group("name")
        source = next((t.group("src") for t in taken if t.group("name") == name and t.start() < shuffled.start()
                       and t.group("src") != name), None)
        if source is None:
            continue
        for label in taken:
            if label.group("src") == source and label.group("name") != name \
                    and PAIR_LABEL.fullmatch(label.group("name").lower()) \
                    and not re.search(_SAMPLED.format(*[re.escape(label.group("name"))] * 2), code) \
                    and not re.search(REALIGNED.format(re.escape(name)), code):
                return f"{' '.join(shuffled.group(0).split())} ... {line_from(code, label.start()).strip()}"
    return ""


# A training DataLoader built without shuffle=True: PyTorch's DataLoader keeps the dataset's order unless told to
# shuffle (its `shuffle` argument defaults to False), so a dataset listed class by class gives batches of one class in
# turn. Not a loader given a sampler (which sets the order itself), nor one named for validation or testing.
LOADER_CALL = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:torch\.utils\.data\.)?DataLoader\("
                                 r"(?P<args>[^()]{0,400}(?:\([^()]{0,80}\)[^()]{0,400}){0,4})\)")
SHUFFLED_ARG = lazy_regex.compile(r"\bshuffle[ \t]*=[ \t]*(?!False\b)\w|\b(?:batch_)?sampler[ \t]*=")
NOT_TRAINING_LOADER = lazy_regex.compile(r"(?i)val|valid|test|eval|dev")


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
LOADER_STEM = lazy_regex.compile(r"(?i)_?(?:data_?)?(?:loader|dl|iter)$")
ONE_ARRAY_DATASET = lazy_regex.compile(r"^\s*(?:torch\.utils\.data\.)?TensorDataset\(\s*(?P<a>[A-Za-z_]\w{0,40})\s*\)")
ZIPPED = lazy_regex.compile(r"\bzip\(\s*(?P<a>[A-Za-z_]\w{0,40})\s*,\s*(?P<b>[A-Za-z_]\w{0,40})\s*\)")


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
LIST_FILES = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:tf\.data\.)?Dataset\.list_files\("
                                r"(?P<args>[^()\n]{0,200}(?:\([^()\n]{0,80}\)[^()\n]{0,200}){0,3})\)")
DATASET_ZIP = lazy_regex.compile(r"\bDataset\.zip\(\s*\(?(?P<args>[^\n]{0,200})")


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
HORIZONTAL_FLIP = lazy_regex.compile(r"\bRandomHorizontalFlip\(|\bHorizontalFlip\(|\bRandomFlip\(\s*(?:mode\s*=\s*)?['\"]horizontal"
                                     r"|\bhorizontal_flip\s*=\s*True\b|\brandom_flip_left_right\(")
LEFT_RIGHT = lazy_regex.compile(r"(?i)(?<![\w-])(?P<a>(?:\w{1,20}[_-])?left(?:[_-]\w{1,20})?)\s*(?:/|,|\band\b|\bvs\.?|\bor\b)\s*"
                                r"(?P<b>(?:\w{1,20}[_-])?right(?:[_-]\w{1,20})?)(?![\w-])")
CLASSES_LINE = lazy_regex.compile(r"(?i)class|label|categor|confus")
LEFT_RIGHT_NAMED = lazy_regex.compile(r"(?i)(?<![\w-])(?P<a>\w{1,20}[_-]left|left[_-]\w{1,20})(?![\w-])[^\n]{0,200}?"
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
