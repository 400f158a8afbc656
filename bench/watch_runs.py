"""The runs behind the loss watch benchmark, and what each rule makes of them.

Two sweeps, each a grid of learning rates x seeds:

- steps: a 2-64-64-5 MLP on five spirals in float32, trained with mini-batch
  SGD or SGD with momentum at three batch sizes, both activations; one loss
  per step, the loss of the batch the step is about to learn from.
- epochs: WR-220's network and training function (full-batch gradient
  descent), one loss per epoch.

For each run this module records what happened (its class, the index of the
first non-finite loss, how long the loss had visibly been up before it) and
the index at which each rule first fired. bench/watch_bench.py keeps the rows,
scores them and writes the page; nothing here prints.
"""
from __future__ import annotations

import functools
import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

# --- the mini-batch sweep -------------------------------------------------
CLASSES, PER_CLASS, HIDDEN, STEPS = 5, 200, 64, 1000
MOMENTA = (0.0, 0.9)
BATCHES = (16, 64, 256)
ACTIVATIONS = ("relu", "tanh")
# Ten step sizes over three decades. With momentum m the rate is (1 - m) times
# the step size, so both optimisers take the same effective steps.
STEP_SIZES = [float(f"{s:.3g}") for s in np.geomspace(0.01, 10, 10)]
SEEDS = range(20)
TUNING_SEEDS = range(0, 10)       # the rules' parameters were chosen on these
SCORING_SEEDS = range(10, 20)     # the page reports these

# What happened to a run, judged on its loss averaged over the last 10 steps:
# the loss is "up" while that average is at least twice its lowest so far, and
# a climb is up for 10 steps or more.
WINDOW, UP, SUSTAINED = 10, 2.0, 10
STUCK = 0.9 * math.log(CLASSES)   # ending at this or above is no better than chance
LEAD = 10                         # a useful warning comes at least this many steps ahead


@dataclass(frozen=True)
class Task:
    activation: str
    momentum: float
    batch: int

    @property
    def optimiser(self) -> str:
        return f"SGD + momentum {self.momentum:g}" if self.momentum else "SGD"


TASKS = [Task(a, m, b) for a in ACTIVATIONS for m in MOMENTA for b in BATCHES]


def rate(task: Task, step_size: float) -> float:
    return float(np.float32(step_size * (1 - task.momentum)))


def spirals(rng):
    """Five interleaved spiral arms in 2-D, PER_CLASS points each, in float32."""
    r = np.tile(np.linspace(0.05, 1.0, PER_CLASS), CLASSES)
    y = np.repeat(np.arange(CLASSES), PER_CLASS)
    turn = y * (2 * np.pi / CLASSES) + 3.0 * r + rng.normal(scale=0.2, size=r.size)
    return np.stack([r * np.sin(turn), r * np.cos(turn)], 1).astype(np.float32), y


def init_mlp(rng, activation):
    """He-scaled hidden layers for ReLU, Glorot for tanh; the output layer Glorot."""
    sizes = [2, HIDDEN, HIDDEN, CLASSES]
    gain = 2.0 if activation == "relu" else 1.0
    params = []
    for i, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        scale = np.sqrt((gain if i < 2 else 1.0) / fan_in)
        params += [(rng.normal(size=(fan_in, fan_out)) * scale).astype(np.float32),
                   np.zeros((1, fan_out), np.float32)]
    return params


def train_runs(task: Task, runs: list[tuple[float, int]], steps: int = STEPS) -> np.ndarray:
    """Per-step losses, float32 (len(runs), steps), of each (rate, seed), trained side by side.

    Each run draws its data, initialisation and batch order from its own
    generator, so a run's losses do not depend on which runs share the call.
    """
    starts = []
    for _, seed in runs:
        rng = np.random.default_rng(seed)
        X, y = spirals(rng)
        starts.append((X, y, init_mlp(rng, task.activation), rng))
    X = np.stack([s[0] for s in starts])
    Y = np.stack([s[1] for s in starts])
    P = [np.stack([s[2][i] for s in starts]) for i in range(6)]
    V = [np.zeros_like(p) for p in P]
    rngs = [s[3] for s in starts]
    lr = np.array([r for r, _ in runs], np.float32)[:, None, None]
    mu = np.float32(task.momentum)
    relu = task.activation == "relu"
    K, n, B = len(runs), X.shape[1], task.batch
    per_epoch, rows = n // B, np.arange(K)[:, None]
    eye = np.eye(CLASSES, dtype=np.float32)
    order = [None] * K
    idx = np.empty((K, B), np.intp)
    losses = np.empty((K, steps), np.float32)
    for t in range(steps):
        at = t % per_epoch
        for k in range(K):
            if at == 0:
                order[k] = rngs[k].permutation(n)
            idx[k] = order[k][at * B:(at + 1) * B]
        xb, onehot = X[rows, idx], eye[Y[rows, idx]]
        a0 = xb @ P[0] + P[1]
        h0 = np.maximum(a0, np.float32(0)) if relu else np.tanh(a0)
        a1 = h0 @ P[2] + P[3]
        h1 = np.maximum(a1, np.float32(0)) if relu else np.tanh(a1)
        e = np.exp(h1 @ P[4] + P[5])
        prob = e / e.sum(-1, keepdims=True)             # the naive softmax: exp overflows to inf, inf/inf is nan
        losses[:, t] = -np.log((prob * onehot).sum(-1)).mean(-1)
        dz = (prob - onehot) / np.float32(B)
        dh1 = dz @ P[4].transpose(0, 2, 1)
        da1 = dh1 * (a1 > 0) if relu else dh1 * (1 - h1 * h1)
        dh0 = da1 @ P[2].transpose(0, 2, 1)
        da0 = dh0 * (a0 > 0) if relu else dh0 * (1 - h0 * h0)
        grads = [xb.transpose(0, 2, 1) @ da0, da0.sum(1, keepdims=True),
                 h0.transpose(0, 2, 1) @ da1, da1.sum(1, keepdims=True),
                 h1.transpose(0, 2, 1) @ dz, dz.sum(1, keepdims=True)]
        for i, g in enumerate(grads):
            V[i] = mu * V[i] + g
            P[i] -= lr * V[i]
    return losses


# --- what happened to a run ---------------------------------------------
def trailing_mean(x: np.ndarray, window: int = WINDOW) -> np.ndarray:
    """Mean of each value and the window - 1 before it (fewer at the start)."""
    total = np.concatenate([[0.0], np.cumsum(x)])
    i = np.arange(len(x))
    lo = np.maximum(0, i - window + 1)
    return (total[i + 1] - total[lo]) / (i + 1 - lo)


def up(x: np.ndarray) -> np.ndarray:
    m = trailing_mean(x)
    return m >= UP * np.minimum.accumulate(m)


def first_nonfinite(losses) -> int | None:
    bad = ~np.isfinite(losses)
    return int(np.argmax(bad)) if bad.any() else None


def outcome(losses: np.ndarray) -> tuple[str, int | None, int, float]:
    """(class, first non-finite index, steps the loss had been up just before it, peak).

    diverged: a non-finite loss. stuck: finite, but the last steps average no
    better than chance. recovered: finite and below chance at the end, after a
    climb (up for SUSTAINED steps or more). healthy: the rest. The peak is the
    highest the loss averaged over WINDOW steps got before any non-finite one,
    as a multiple of the first loss (3 significant digits).
    """
    x = losses.astype(np.float64)
    t = first_nonfinite(x)
    finite = x[:t] if t is not None else x
    peak = float(f"{trailing_mean(finite).max() / finite[0]:.3g}") if len(finite) else 0.0
    if t is not None:
        before = up(finite)
        climb = len(before) - int(np.flatnonzero(~before)[-1]) - 1 if (~before).any() else len(before)
        return "diverged", t, climb, peak
    if trailing_mean(x)[-1] >= STUCK:
        return "stuck", None, 0, peak
    mask = up(x)
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    longest = int((np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)).max()) if mask.any() else 0
    return ("recovered" if longest >= SUSTAINED else "healthy"), None, 0, peak


# --- the rules: each sees one finite loss at a time and says whether it fires
class Above:
    """Fires on a loss at or above a fixed value (AUTOTRAINER's explosion check uses 1e3)."""

    def __init__(self, limit=1e3):
        self.limit = limit

    def fires(self, loss):
        return loss >= self.limit


class Spiky:
    """Megatron-LM's spiky-loss check: the largest of the first `samples` losses
    is the yardstick, and a later loss of `factor` times it or more fires."""

    def __init__(self, factor=10.0, samples=100):
        self.factor, self.samples, self.seen, self.largest = factor, samples, 0, 0.0

    def fires(self, loss):
        value = abs(loss)
        if self.seen < self.samples:
            self.seen += 1
            self.largest = max(self.largest, value)
            return False
        return value >= self.largest * self.factor


class Smoothed:
    """The LR finders' stop rule, as fastai 1.0.63 writes it (Lightning's is the same
    rule): a bias-corrected moving average of the loss (beta 0.98) above `factor`
    times its best value, the best starting from the first."""

    def __init__(self, factor=4.0, beta=0.98):
        self.factor, self.beta, self.avg, self.best, self.n = factor, beta, 0.0, None, 0

    def fires(self, loss):
        self.n += 1
        self.avg = self.beta * self.avg + (1 - self.beta) * loss
        smooth = self.avg / (1 - self.beta ** self.n)
        if self.best is None or smooth < self.best:
            self.best = smooth
        return smooth > self.factor * self.best


class Best:
    """The same stop rule on the raw loss: above `factor` times the lowest so far."""

    def __init__(self, factor=4.0):
        self.factor, self.best = factor, math.inf

    def fires(self, loss):
        fired = loss > self.factor * self.best
        self.best = min(self.best, loss)
        return fired


class Largest:
    """Above `factor` times the largest loss so far."""

    def __init__(self, factor=10.0):
        self.factor, self.largest = factor, None

    def fires(self, loss):
        fired = self.largest is not None and loss > self.factor * self.largest
        self.largest = loss if self.largest is None else max(self.largest, loss)
        return fired


class Relative:
    """The alternative the per-step rule was chosen over: a moving average of the
    log-loss `factor` times above its own lowest value."""

    def __init__(self, factor=3.0, smoothing=0.1):
        self.limit, self.smoothing, self.average, self.low = math.log(factor), smoothing, None, math.inf

    def fires(self, loss):
        if loss <= 0:
            return False
        value = math.log(loss)
        self.average = value if self.average is None else self.average + self.smoothing * (value - self.average)
        self.low = min(self.low, self.average)
        return self.average - self.low >= self.limit


class FromFirst:
    """The per-step rule the watch used before its second average: a moving
    average of the log-loss (weight 0.2) that reaches `factor` times the first loss."""

    def __init__(self, factor=2.0, smoothing=0.2):
        self.limit, self.smoothing, self.first, self.average = math.log(factor), smoothing, None, None

    def fires(self, loss):
        if loss <= 0:
            return False
        value = math.log(loss)
        if self.first is None:
            self.first = self.average = value
        self.average += self.smoothing * (value - self.average)
        return self.average - self.first >= self.limit


class Watching:
    """A watch class from snippets/loss_watch.py, asked as a training loop would."""

    def __init__(self, watch_class):
        self.watch, self.index = watch_class(verbose=False), 0

    def fires(self, loss):
        state = self.watch.check(self.index, loss, params=None)
        self.index += 1
        return state == "warn"


def first_alarm(rule, losses) -> int | None:
    """Index of the first finite loss on which the rule fires; None if none does."""
    for i, loss in enumerate(losses):
        if not math.isfinite(loss):
            return None
        if rule.fires(loss):
            return i
    return None


def load_snippet(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "snippets" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The step watch's parameters until bench/watch_search.py replaced them (an earlier search chose them, with
# scripts that were not kept): the sweep scores them beside their replacement.
EARLIER_STEP = {"smoothing": 0.3, "factor": 2.2, "slow": 0.05, "rise": 3.0, "floor": 0.5, "hold": 80}


def step_rules(watch_module):
    """name -> a function making a fresh rule. The first-non-finite guard needs no rule."""
    return {
        "watch": lambda: Watching(watch_module.StepWatch),
        "epoch_rule": lambda: Watching(watch_module.LossWatch),
        "relative_3x": Relative,
        "previous": FromFirst,
        "above_1e3": Above,
        "spiky": Spiky,
        "smoothed_4x": Smoothed,
        "earlier": lambda: Watching(functools.partial(watch_module.StepWatch, **EARLIER_STEP)),
    }


def step_traces(runs: list[tuple[Task, float, int]] | None = None) -> dict[tuple[Task, float, int], np.ndarray]:
    """The per-step losses of the sweep's runs (task, step size, seed), or of only the runs given."""
    runs = runs if runs is not None else [(task, s, seed) for task in TASKS for s in STEP_SIZES for seed in SEEDS]
    traces = {}
    for task in TASKS:
        mine = [(s, seed) for t, s, seed in runs if t == task]
        if mine:
            with np.errstate(all="ignore"):          # the blow-ups are what is being measured
                losses = train_runs(task, [(rate(task, s), seed) for s, seed in mine])
            traces.update({(task, s, seed): trace for (s, seed), trace in zip(mine, losses)})
    return traces


def step_row(run: tuple[Task, float, int], trace: np.ndarray, rules) -> list:
    task, s, seed = run
    values = [float(v) for v in trace]
    kind, bad, climb, peak = outcome(trace)
    return [task.activation, task.momentum, task.batch, s, seed, kind, bad, climb, peak,
            *(first_alarm(make(), values) for make in rules.values())]


def step_rows(runs: list[tuple[Task, float, int]] | None = None) -> list[list]:
    """One row per run (STEP_COLUMNS): the sweep, or only the runs given."""
    rules = step_rules(load_snippet("loss_watch"))
    return [step_row(run, trace, rules) for run, trace in step_traces(runs).items()]


STEP_COLUMNS = ["activation", "momentum", "batch", "step_size", "seed", "class", "first_nonfinite", "climb",
                "peak", *step_rules(None)]


# --- the per-epoch sweep (WR-220's network, full batch) ------------------
EPOCH_RATES = [round(float(r), 2) for r in np.geomspace(1, 100, 13)]
EPOCH_SEEDS = range(30)
EPOCH_TUNING_SEEDS = range(0, 10)
EPOCH_SCORING_SEEDS = range(10, 30)
EPOCHS = 60


def train_epochs(wr220, lr: float, seed: int, epochs: int = EPOCHS) -> list[float]:
    """WR-220's own training function: full-batch gradient descent, one loss per epoch."""
    with np.errstate(all="ignore"):
        return wr220.train(lr, epochs=epochs, seed=seed)["loss"]


def epoch_rules(watch_module):
    return {
        "watch": lambda: Watching(watch_module.LossWatch),
        "step_rule": lambda: Watching(watch_module.StepWatch),
        "best_4x": Best,
        "largest_10x": Largest,
        "above_1e3": Above,
    }


def epoch_rows(runs: list[tuple[float, int]] | None = None) -> list[list]:
    runs = runs if runs is not None else [(lr, seed) for lr in EPOCH_RATES for seed in EPOCH_SEEDS]
    wr220 = load_snippet("wr220_lr_explosion")
    rules = epoch_rules(load_snippet("loss_watch"))
    rows = []
    for lr, seed in runs:
        losses = train_epochs(wr220, lr, seed)
        rows.append([lr, seed, first_nonfinite(np.array(losses)),
                     *(first_alarm(make(), losses) for make in rules.values())])
    return rows


EPOCH_COLUMNS = ["rate", "seed", "first_nonfinite", *epoch_rules(None)]
