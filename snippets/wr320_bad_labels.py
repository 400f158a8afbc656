"""WR-320: labels the loss cannot take -- an index past the last class, a 0/255 mask, a -1 nobody declared.

The textbook NumPy cross-entropy picks each row's log-probability at its label's
column, `log_softmax(z)[np.arange(n), y]`. Labels that are not class indices
0..C-1 break it in three ways. One-based labels (1..10 for ten classes) and a
mask stored as 0/255 for a two-class head raise an IndexError at the first
batch. A -1 meant as "no label" raises nothing: NumPy counts negative indices
from the end, so -1 is the last class and the model learns to predict it. And a
0/255 mask given to a binary cross-entropy raises nothing either: the loss has
no minimum any more and goes below zero, further every epoch. And a mask
already stored as 0/1 but scaled like the images (divided by 255) loses its
foreground: the loss falls lower than the right model's while no pixel is ever
called foreground, and the mean IoU over the two classes sits at 0.5. The fix:
check the labels' range and each class's count as the loss receives them, and
map raw values to class indices explicitly.

Run it: python snippets/wr320_bad_labels.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 320
CLASSES = 10
UNLABELLED = 0.3          # share of rows a labeller skipped


def make_data(seed=SEED, n=600, features=6):
    """Points around ten centres; y is each point's class, 0..9."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0.0, 2.0, (CLASSES, features))
    y = rng.integers(0, CLASSES, n)
    return centres[y] + rng.normal(0.0, 1.0, (n, features)), y


def make_pixels(seed=SEED + 1, n=400):
    """Pixels of an image to segment: a brightness and a constant feature; the mask is saved as 0/255."""
    rng = np.random.default_rng(seed)
    foreground = rng.random(n) < 0.4
    X = np.stack([rng.normal(np.where(foreground, 1.0, -1.0), 1.0), np.ones(n)], axis=1)
    return X, np.where(foreground, 255, 0).astype(np.uint8)


def labels_as_read(y, seed=SEED + 2):
    """The same classes as three files hold them: counted from 1, and with skipped rows marked -1."""
    skipped = np.random.default_rng(seed).random(len(y)) < UNLABELLED
    return {"one_based": y + 1, "with_minus_one": np.where(skipped, -1, y)}


def log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def cross_entropy(z, y):
    """Per-row loss: minus the log-probability at each row's label (the line a bad label breaks)."""
    return -log_softmax(z)[np.arange(len(y)), y]


def train_softmax(X, y, scored=None, lr=0.5, epochs=30, log_every=0):
    """Softmax regression by gradient descent on the rows in `scored` (all rows by default).
    Returns the loss before each update and the share of rows predicted as the last class;
    prints the loss every `log_every` epochs (and at the last) when log_every > 0."""
    n = len(y)
    scored = np.ones(n, bool) if scored is None else scored
    W, b = np.zeros((X.shape[1], CLASSES)), np.zeros(CLASSES)
    losses, last_share = [], []
    for epoch in range(epochs):
        z = X @ W + b
        losses.append(float(cross_entropy(z[scored], y[scored]).mean()))
        last_share.append(float(np.mean(z.argmax(axis=1) == CLASSES - 1)))
        if log_every and (epoch % log_every == 0 or epoch == epochs - 1):
            print(f"epoch {epoch:2d}  loss {losses[-1]:.4f}")
        g = np.exp(log_softmax(z))
        g[np.arange(n), y] -= 1.0                  # p - onehot(y), written with the same indexing
        g[~scored] = 0.0
        g /= scored.sum()
        W -= lr * X.T @ g
        b -= lr * g.sum(axis=0)
    return {"loss": losses, "last_share": last_share, "W": W, "b": b}


def softplus(z):
    return np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))


def train_mask(X, t, lr=0.5, epochs=10, log_every=0):
    """Logistic regression per pixel with the binary cross-entropy written from the logits,
    softplus(z) - t*z, the form BCEWithLogitsLoss computes. Returns the loss before each update and the
    weights at the end; prints the loss every `log_every` epochs when log_every > 0."""
    w = np.zeros(X.shape[1])
    losses = []
    for epoch in range(epochs):
        z = X @ w
        losses.append(float(np.mean(softplus(z) - t * z)))
        if log_every and epoch % log_every == 0:
            print(f"epoch {epoch:2d}  loss {losses[-1]:.4f}")
        p = 0.5 * (1.0 + np.tanh(z / 2.0))           # sigmoid, without overflow
        w -= lr * X.T @ (p - t) / len(t)
    return {"loss": losses, "w": w}


def mean_iou(predicted, truth, classes=2):
    """The mean over the classes of intersection over union, a class in neither mask scoring 0 -- what
    the common intersection / (union + eps) gives it."""
    scores = []
    for c in range(classes):
        union = np.sum((predicted == c) | (truth == c))
        scores.append(np.sum((predicted == c) & (truth == c)) / union if union else 0.0)
    return float(np.mean(scores))


def scaled_like_images(mask01):
    """A 0/1 mask put through the images' own scaling, x / 255: what torchvision's ToTensor does to an
    8-bit mask, or a Keras generator built with rescale=1/255 for the masks too."""
    return mask01 / 255.0
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def last_line(error):
    """The last line of the traceback the error would print."""
    return f"{type(error).__name__}: {error}"


if __name__ == "__main__":
    X, y = make_data()
    read = labels_as_read(y)
    untrained = np.zeros((len(y), CLASSES))           # the logits of a model that knows nothing yet
    print(f"A {CLASSES}-class model, labels as the files hold them:")
    try:
        cross_entropy(untrained, read["one_based"])
    except IndexError as error:
        print(f"  labels 1..{CLASSES}, loss of the first batch:\n    {last_line(error)}")
    try:
        np.eye(CLASSES)[read["one_based"]]
    except IndexError as error:
        print(f"  the same labels one-hot encoded with np.eye({CLASSES})[y]:\n    {last_line(error)}")
    pixels, mask = make_pixels()
    try:
        cross_entropy(np.zeros((len(mask), 2)), mask)
    except IndexError as error:
        print(f"  a 0/255 mask for a 2-class head:\n    {last_line(error)}")

    print("\nThe 0/255 mask as the target of a binary cross-entropy:\nno error, and the loss goes negative.")
    train_mask(pixels, mask.astype(float), log_every=1)

    print(f"\nSkipped rows marked -1 ({np.mean(read['with_minus_one'] == -1):.0%} of them), never declared "
          "as ignored:\nno error either.")
    run = train_softmax(X, read["with_minus_one"])
    labelled = read["with_minus_one"] != -1
    z = X @ run["W"] + run["b"]
    print(f"  the loss the loop reports falls from {run['loss'][0]:.4f} to {run['loss'][-1]:.4f} "
          f"in {len(run['loss'])} epochs:\n  finite, and it looks like training")
    print(f"  each -1 row is scored at column {np.arange(CLASSES)[-1]}, the last class; scored on the\n"
          f"  labelled rows alone, the same model's loss is {cross_entropy(z[labelled], y[labelled]).mean():.4f}")
    print(f"  class {CLASSES - 1} is now predicted for {run['last_share'][-1]:.0%} of the rows;\n"
          f"  it is the class of {np.mean(y == CLASSES - 1):.0%} of them")

    mask01 = mask // 255                              # the same mask, saved as 0/1
    scaled = scaled_like_images(mask01)
    loaded = (scaled > 0.5).astype(int)               # the labels the loader gives, as class indices
    run = train_mask(pixels, scaled)
    called = (pixels @ run["w"] > 0).astype(int)
    print(f"\nThe mask saved as 0/1, then divided by 255 like the images: targets "
          f"{', '.join(f'{v:.4f}' for v in np.unique(scaled))};\nno error, and the loss falls as if it learned.")
    print(f"  the loss falls from {run['loss'][0]:.4f} to {run['loss'][-1]:.4f} in {len(run['loss'])} epochs")
    print(f"  pixels called foreground: {called.mean():.0%}; the mask's true share: {mask01.mean():.0%}")
    print(f"  mean IoU against the labels as loaded: {mean_iou(called, loaded):.4f}; "
          f"against the true mask: {mean_iou(called, mask01):.4f}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def class_counts(y, num_classes):
    """How many labels of each class 0..num_classes-1 there are: a class with none was lost on the way."""
    return np.bincount(np.asarray(y)[(y >= 0) & (y < num_classes)].astype(int), minlength=num_classes)


def check_labels(y, num_classes, ignore=None):
    """What is wrong with a label array for a loss over num_classes classes, in words (empty: nothing).
    Every label must be a class index 0..num_classes-1, or the ignore label declared to the loss."""
    values = np.unique(y)
    bad = values[((values < 0) | (values >= num_classes)) & (values != ignore)]
    if len(bad) == 0:
        return []
    return [f"{np.isin(y, bad).sum()} label(s) outside 0..{num_classes - 1}: "
            f"{', '.join(str(v) for v in bad[:5])} (values present: {values.min()}..{values.max()})"]


def to_class_index(raw, classes):
    """Map a file's label values to 0..len(classes)-1 by an explicit table: classes[i] becomes i, in the
    table's own order (it need not be sorted); a value not in the table is refused."""
    classes = np.asarray(classes)
    order = np.argsort(classes, kind="stable")
    index = order[np.clip(np.searchsorted(classes, raw, sorter=order), 0, len(classes) - 1)]
    unknown = classes[index] != raw
    if unknown.any():
        raise ValueError(f"label values not in {classes.tolist()}: {np.unique(raw[unknown]).tolist()}")
    return index


if __name__ == "__main__":
    X, y = make_data()
    read = labels_as_read(y)
    pixels, mask = make_pixels()
    print("Checked before training:")
    for name, labels, classes, ignore in (("labels as read (1..10)", read["one_based"], CLASSES, None),
                                          ("mask as read (0/255)", mask, 2, None),
                                          ("labels with -1, none declared", read["with_minus_one"], CLASSES, None),
                                          ("labels with -1 declared as ignored", read["with_minus_one"], CLASSES, -1)):
        print(f"  {name}: {'; '.join(check_labels(labels, classes, ignore)) or 'all labels are class indices'}")

    digits = to_class_index(read["one_based"], np.arange(1, CLASSES + 1))
    binary = to_class_index(mask, [0, 255])
    print(f"\nMapped by table: 1..{CLASSES} -> {digits.min()}..{digits.max()}, "
          f"mask {{0, 255}} -> {{{binary.min()}, {binary.max()}}}\nchecks: "
          f"{check_labels(digits, CLASSES) or 'pass'}, {check_labels(binary, 2) or 'pass'}")

    mask_run = train_mask(pixels, binary.astype(float))["loss"]
    print(f"The mask model's cross-entropy: {mask_run[0]:.4f} at epoch 0, {mask_run[-1]:.4f} at epoch "
          f"{len(mask_run) - 1},\nnever below 0.")

    labelled = read["with_minus_one"] != -1
    print(f"\nTraining on the {labelled.sum()} labelled rows, the -1 rows left out of the loss:")
    run = train_softmax(X, read["with_minus_one"], scored=labelled, log_every=3)
    print(f"class {CLASSES - 1} predicted for {run['last_share'][-1]:.0%} of the rows; "
          f"it is the class of {np.mean(y == CLASSES - 1):.0%} of them")

    scaled = scaled_like_images(binary)
    print(f"\nThe 0/1 mask scaled like the images, counted per class as the loss receives it: "
          f"{class_counts((scaled > 0.5).astype(int), 2).tolist()}\n(the range check passes: "
          f"{check_labels((scaled > 0.5).astype(int), 2) or 'all labels are class indices'}); "
          f"unscaled: {class_counts(binary, 2).tolist()}")
    run = train_mask(pixels, binary.astype(float))
    called = (pixels @ run["w"] > 0).astype(int)
    print(f"Trained on the unscaled mask: {called.mean():.0%} of the pixels called foreground, "
          f"mean IoU {mean_iou(called, binary):.4f}")
# --8<-- [end:fix]


def foreground_share(X, w):
    """The share of pixels a mask model with weights w calls foreground (logit above 0)."""
    return float(np.mean(X @ w > 0))


def dice(predicted, truth):
    """The Dice score of two boolean masks: twice their overlap over the sum of their sizes."""
    return float(2 * np.sum(predicted & truth) / (predicted.sum() + truth.sum()))


def run_minus_one_wrapped():
    X, y = make_data()
    return train_softmax(X, labels_as_read(y)["with_minus_one"])


def run_minus_one_ignored():
    X, y = make_data()
    labels = labels_as_read(y)["with_minus_one"]
    return train_softmax(X, labels, scored=labels != -1)


def figure_data():
    """Plain numbers for the page's picture: the mask's binary cross-entropy per epoch with 0/255 and
    with 0/1 targets, and the share of rows predicted as the last class with -1 wrapped and ignored."""
    pixels, mask = make_pixels()
    raw = train_mask(pixels, mask.astype(float))["loss"]
    mapped = train_mask(pixels, mask / 255.0)["loss"]
    wrapped, ignored = run_minus_one_wrapped(), run_minus_one_ignored()
    _, y = make_data()
    truth = float(np.mean(y == CLASSES - 1))
    epochs = list(range(len(raw)))
    return {
        "alt": (f"Left: binary cross-entropy per epoch, symmetric log scale. With the mask's 0/255 values as "
                f"targets it starts at {raw[0]:.4f} and falls below zero at once, to {raw[-1]:.0f} at epoch "
                f"{epochs[-1]}; with the mask mapped to 0/1 it falls from {mapped[0]:.4f} to {mapped[-1]:.4f}. "
                f"Right: share of rows the {CLASSES}-class model predicts as class {CLASSES - 1}. With -1 read "
                f"as a class it climbs to {wrapped['last_share'][-1]:.0%}; with -1 left out of the loss it ends at "
                f"{ignored['last_share'][-1]:.0%}, against a true share of {truth:.0%}."),
        "caption": "No error, wrong answers: a 0/255 mask drives the loss below zero, and -1 becomes the last class.",
        "panels": [
            {"title": "Mask loss per epoch", "xlabel": "epoch", "ylabel": "binary cross-entropy (symlog)",
             "yscale": "symlog",
             "series": [{"label": "targets 0/255", "x": epochs, "y": raw, "width": 3.0},
                        {"label": "targets mapped to 0/1", "x": epochs, "y": mapped}]},
            {"title": f"Rows predicted as class {CLASSES - 1}", "xlabel": "epoch", "ylabel": "share of rows",
             "series": [{"label": "-1 read as a class", "x": list(range(len(wrapped["last_share"]))),
                         "y": wrapped["last_share"], "width": 3.0},
                        {"label": "-1 left out of the loss", "x": list(range(len(ignored["last_share"]))),
                         "y": ignored["last_share"]},
                        {"label": "true share", "x": [0, len(wrapped["last_share"]) - 1], "y": [truth, truth],
                         "style": "dashed"}]},
        ],
        "sparkline": {"label": "mask loss per epoch, 0/255 targets", "values": raw},
    }
