"""Labels as a paste prints them -- a pandas `value_counts()`, NumPy's or PyTorch's `unique`, a `Counter` or a `set`
of them -- beside the number of outputs the model has: a label at that number or above is past the last logit (labels
that run 1..C for C outputs, the commonest way to get there). WR-320's face, read from the paste's own numbers.
"""
from __future__ import annotations

import itertools
import re

from .class_count import CLASS_COUNT, classes_named
from .data_values import CLASSES_SET, LABELS_REMAPPED
from .loss_inputs import DENSE
from . import lazy_regex

# A name that holds labels: `label`, `labels`, `y`, `y_train`, `target`, `df['class']`, `train_df.category` -- not a
# count or a size of them (`num_labels`, `target_lengths`, `label_counts`), nor a coordinate (`y_center`)
# (each part bounded, from a word's start: unbounded `\w*label\w*` backtracks quadratically along one long word)
_Y_SUFFIX = r"(?:_(?!(?:center|centre|min|max|pos|coord|offset|pred|hat|score|prob|logit|len|size)\w{0,20}\b)\w{1,20})?"
_LABEL_NAME = (r"(?<!\w)(?:\w{1,40}(?:\.|\[['\"]))?(?!(?:num|n|max|min)_)(?:[yY]" + _Y_SUFFIX + r"|(?:\w{0,30}_)?(?:labels?|targets?)"
               r"(?:_(?!len|count|size|num|shape|dim|freq)[a-z]{1,12})?|class(?:es)?|category|categories)(?:['\"]\])?(?!\w)")
# pandas' value_counts() as printed: a row per label, `<label>   <count>`, closed by `Name: <name>, dtype: int64`.
# pandas 2 names the counts `count` and puts the column's name on a line of its own above the rows; pandas 1 names the
# counts after the column (whatsnew v2.0.0, "value_counts sets the resulting name to count"). Found by its closing line
# and read upwards from it: a pattern that starts at the rows would try every line of a table of number pairs.
COUNTS_CLOSED = lazy_regex.compile(r"(?m)^Name: (\w{1,40}), dtype: int\d+")
VALUE_COUNT_ROWS = 64
_ROW = lazy_regex.compile(r"[ \t]*(-?\d{1,4})[ \t]+\d{1,9}[ \t]*")
# ... or a call that lists the distinct labels, and what it printed on its own line below (within two lines):
# `np.unique(y_train)` -> `array([1, 2, 3, 4, 5, 6])` or `[1 2 3 4 5 6]`, `torch.unique(labels)` -> `tensor([0, 1, 2])`,
# `set(labels)` -> `{1, 2, 3}`, `Counter(labels)` -> `Counter({1: 403, 2: 501})`
UNIQUE_CALL = lazy_regex.compile(r"(?:np|numpy|torch|tf|jnp)\.unique\(\s*" + _LABEL_NAME + r"\s*[,)]|"
                                 r"\b(?:sorted\(\s*)?set\(\s*" + _LABEL_NAME + r"\s*\)|\bCounter\(\s*" + _LABEL_NAME + r"\s*\)|"
                                 r"\b" + _LABEL_NAME + r"\.unique\(\)")
LABELS_SLICED = lazy_regex.compile(r"(?:\bprint\(\s*|^>>>[ \t]*)(?P<name>" + _LABEL_NAME + r")\[\s*:\s*(?P<n>\d{1,3})\s*\]"
                                   r"(?:\s*\)|[ \t]*$)", re.M)
SLICE_OUTPUT_LINES = 40
PRINTED_SET = lazy_regex.compile(r"^[ \t]*(?:>>>[ \t]*)?(?:array\(|tensor\(|Counter\()?[\[{](?P<items>[-\d:, \t]{1,400})[\]}]\)?",
                                 re.M)
# A label shifted onto 0..C-1 somewhere in the paste (`y - 1`, `labels -= 1`, `self.labels[i] - 1`, `int(row['label'])
# - 1`, `.sub(1)`), mapped onto it by a dict (`df['label'].map({1: 0, 2: 1})`) or a lookup table (`class_to_idx`,
# `label2id`); or by LABELS_REMAPPED's calls
# (a binary minus, after an operand -- a name, a bracket, a call's close -- not a negative index or a shape's -1:
# `labels.view(-1)`, `data[:, -1]`)
SHIFTED = lazy_regex.compile(r"(?m)" + _LABEL_NAME + r"(?:[^\n]{0,40}?[\w)\]])?[ \t]*(?:-=[ \t]*1\b|-[ \t]*1\b(?!\.\d))|"
                             r"\.sub_?\(\s*1\s*\)|"
                             + _LABEL_NAME + r"[^\n]{0,40}?\.(?:map|replace)\(\s*\{|"
                             r"\b(?:class_to_idx|class2idx|label2id|label_to_id|cat2label|label_map|labelmap)\b")
# A label value the loss is told to skip (`ignore_index=255`, mmseg's `ignore_index`, `ignore_label`, Keras's
# `ignore_class`): PyTorch passes over it before its bounds check (aten/src/ATen/native/LossNLL.cpp)
IGNORED = lazy_regex.compile(r"\b(?:ignore_index|ignore_label|ignore_class|ignore_value)\s*[:=]\s*(-?\d{1,6})\b")
# A head the code builds, whatever the count it is said to take: `nn.Linear(512, 5)`, `Dense(5`
HEAD_BUILT = lazy_regex.compile(r"\bLinear\([^()\n]{0,60},\s*(?:out_features\s*=\s*)?(\w{1,30})\s*\)|\bDense\(\s*(\w{1,30})\b")
# The number of outputs the code builds: `num_classes = 6` (CLASSES_SET), `num_outputs = 6`, `Dense(6,
# activation='softmax')`; or the last linear layer's, HEAD_BUILT
OUTPUTS_SET = lazy_regex.compile(CLASSES_SET.pattern + r"|(?i:\b(?:num_outputs|n_outputs)\s*[:=]\s*(\d{1,4})\b)|"
                                 r"\bDense\(\s*(\d{1,4})\s*,\s*activation\s*=\s*['\"]softmax['\"]\s*\)?")
# (as PyTorch and TensorFlow treat a label past the last logit; {n}, the label)
PAST_LAST_LOGIT = ("PyTorch's cross-entropy raises `Target {n} is out of bounds.` on a CPU (a device-side assertion on a "
                   "GPU), and TensorFlow's sparse cross-entropy returns nan for that row on a GPU (it raises only on a "
                   "CPU: https://github.com/tensorflow/tensorflow/blob/r2.2/tensorflow/python/ops/nn_ops.py#L3542-L3591)")


def _printed_labels(prose: str) -> tuple[list[int], str] | None:
    """The distinct labels the paste prints, and how it prints them; or None."""
    for m in itertools.islice(COUNTS_CLOSED.finditer(prose), 5):
        # (the rows are short: a window of them above the closing line, not the whole text before it)
        lines = prose[max(0, m.start() - 80 * VALUE_COUNT_ROWS):m.start()].split("\n")[-VALUE_COUNT_ROWS - 2:-1]
        labels = []
        while lines and (row := _ROW.fullmatch(lines[-1])):
            labels.append(int(row.group(1)))
            lines.pop()
        name = m.group(1)
        # (pandas 2's counts name their column on the line above the rows; pandas 1's are named after it; proportions,
        # `normalize=True`, print floats under `dtype: float64`, not read)
        column = lines[-1].strip() if lines and name == "count" else name
        if len(labels) >= 2 and re.fullmatch(_LABEL_NAME, column):
            return sorted(set(labels)), f"`value_counts()` of `{column}`"
    # (or a slice of them printed, `print(y[:10])` -> `[5 4 5 1 3 5 4 2 5 5]`: a sample, whose largest is a label too --
    # the line of as many numbers as the slice takes, below it or in the output pasted after the code)
    # (the first line of numbers after it, no other; not a name the paste makes from predictions, `y =
    # model.predict(X).argmax(-1) + 1`, nor one it compares or maps before training, `(y >= 4)` -- code_review_s68b H6)
    for m in itertools.islice(LABELS_SLICED.finditer(prose), 5):
        name = re.escape(m.group("name"))
        if re.search(rf"(?m)^[ \t]*{name}[ \t]*=[^\n]*(?:predict|argmax)", prose) \
                or re.search(rf"\(\s*{name}\s*(?:[<>]=?|==|!=)|\bwhere\(\s*{name}\b|\b{name}\.(?:map|apply|replace)\(", prose):
            continue
        first = next((p for line in prose[m.end():].split("\n", SLICE_OUTPUT_LINES + 1)[1:SLICE_OUTPUT_LINES + 1]
                      if (p := PRINTED_SET.match(line)) and ":" not in p.group("items")), None)
        if first and len(keys := re.findall(r"-?\d+", first.group("items"))) == int(m.group("n")):
            return sorted({int(k) for k in keys}), f"`{' '.join(m.group(0).split())}`, a sample of them"
    for m in itertools.islice(UNIQUE_CALL.finditer(prose), 5):
        below = prose[m.end():].split("\n", 3)[1:3]
        for line in below:
            if (printed := PRINTED_SET.match(line)) is None:
                continue
            items = printed.group("items")
            # (a Counter's or a dict's keys, before each colon; else the items themselves, by commas or spaces)
            keys = re.findall(r"(-?\d+)\s*:", items) if ":" in items else re.findall(r"-?\d+", items)
            if len(keys) >= 2:
                return sorted({int(k) for k in keys}), f"`{' '.join(m.group(0).split())}`"
    return None


def _last_head(prose: str) -> re.Match | None:
    """The last linear layer the code builds (HEAD_BUILT): the head, where the paste builds one."""
    heads = list(itertools.islice(HEAD_BUILT.finditer(prose), 20))
    return heads[-1] if heads else None


def _head_size(head: re.Match | None) -> str:
    return next((g for g in head.groups() if g), "") if head else ""


def _outputs(prose: str, head: re.Match | None) -> tuple[int, str, bool] | None:
    """The model's number of outputs as the code sets it (and True), or the class count the words give (and False); or
    None where the code sets two different ones. (A count under two is no head's: timm's `num_classes=0` takes it off.)"""
    set_ = {n: m.group(0) for m in itertools.islice(OUTPUTS_SET.finditer(prose), 10)
            if (n := int(next(g for g in m.groups() if g))) >= 2}
    # (or the last linear layer the code builds, the head, where it gives its size as a number: not a hidden one)
    size = _head_size(head)
    # (or a Keras classifier's last Dense, a softmax in its call: `Dense(5, activation='softmax')`)
    dense = DENSE.match(prose, head.start()) if head and head.group(0).startswith("Dense") else None
    if not set_ and head and (head.group(0).startswith("Linear") or (dense and "softmax" in dense.group(0))) \
            and size.isdigit() and int(size) >= 2:
        set_ = {int(size): dense.group(0) if dense else head.group(0)}
    if len(set_) == 1:
        n, shown = next(iter(set_.items()))
        return n, f"`{' '.join(shown.split())}`", True
    if not set_ and (named := classes_named(prose)) and CLASS_COUNT.search(prose):
        return named[0], named[1].removeprefix("the paste says "), False
    return None


def labels_past_outputs(prose: str) -> tuple[str, bool]:
    """A sentence where the labels the paste prints reach the number of outputs the model has or more, with no shift
    onto 0..C-1 in the paste and none of them a label the loss is told to ignore, and whether the code set that number
    (True) or the words gave it as a count of classes (False); else ("", False)."""
    printed = _printed_labels(prose)
    if printed is None or SHIFTED.search(prose) or LABELS_REMAPPED.search(prose):
        return "", False
    ignored = {int(m.group(1)) for m in itertools.islice(IGNORED.finditer(prose), 5)}
    labels = [v for v in printed[0] if v not in ignored]
    head = _last_head(prose)
    outputs = _outputs(prose, head)
    if outputs is None or len(labels) < 2 or labels[-1] < outputs[0] or labels[0] < 0:
        return "", False
    n, shown, in_code = outputs
    # (the words' count is no head's: the last layer the code builds, where it takes every printed label, is the model's
    # -- not a hidden layer before it, `fc1 = nn.Linear(784, 128)`)
    size = _head_size(head)
    if not in_code and size.isdigit() and int(size) > labels[-1]:
        return "", False
    run = (f"run from {labels[0]} to {labels[-1]}" if labels == list(range(labels[0], labels[-1] + 1)) else
           f"are {', '.join(map(str, labels))}")
    start = ": they start at 1, where the loss counts from 0" if labels[0] == 1 and labels[-1] == n else ""
    model = f"the model has {n} outputs ({shown})" if in_code else f"the paste gives {n} classes ({shown})"
    return (f"the labels the paste prints ({printed[1]}) {run}, and {model}{start} -- the loss takes a label as the "
            f"index of its logit, 0 to {n - 1}, so a label of {n} or more is past the last one: "
            + PAST_LAST_LOGIT.format(n=labels[-1])), in_code
