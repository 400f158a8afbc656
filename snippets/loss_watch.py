"""The loss watch: a copy-paste guard for a hand-written training loop.

Two watches, one for each way a loop reports its loss, both called before the
update is applied. Each stops at the first non-finite loss (or gradient norm)
so that update never reaches the weights, warns while the loss is still
finite, and keeps a copy of earlier parameters so the run can go on from
there with a smaller learning rate instead of starting again.

- LossWatch, once per epoch: warns when the loss climbs geometrically --
  rises of 10% or more epoch after epoch that triple it in one epoch, reach
  4x where the climb began, or go on for 4 epochs.
- StepWatch, once per mini-batch step: a single batch's loss jumps around, so
  it averages the log of the loss. It warns once the average over about 6
  steps is 2.2 times the first loss, the loss of the untrained model, or once
  the average over about 66 steps has stayed at 3.5 times its lowest (and at
  least half the first loss) for 10 steps in a row.

Neither uses an absolute loss threshold, so they work for any loss scale.
trainwreck's `diagnose` uses the same rules (trainwreck/watch_rule.py), and
bench/watch_bench.py measures them against the usual divergence guards.

Run it: python snippets/loss_watch.py
"""
# --8<-- [start:watch]
import copy
import math


class LossWatch:
    # A climb is a run of epochs each at least `step` times the one before. It is
    # an alarm once one epoch multiplies the loss by `jump`, the whole run by
    # `steep`, or once it lasts `long` epochs: a blow-up climbs fast, a slow one
    # climbs for long, and a healthy run's bumps do neither.
    def __init__(self, step=1.1, jump=3.0, steep=4.0, long=4, verbose=True):
        self.step, self.jump, self.steep, self.long = step, jump, steep, long
        self.verbose = verbose
        self.previous = None
        self.start = None             # (epoch, loss) where the current climb began
        self.climb_alarmed = False    # has the current climb set off the alarm?
        self.healthy = None           # (epoch, parameters) from before the current climb
        self.warned_at = None         # first epoch the watch warned

    def check(self, epoch, loss, params, grad_norm=None):
        """Return 'ok', 'warn' or 'stop'. On 'stop', do not apply the update."""
        if self.verbose:
            norm = f"  |grad| {grad_norm:.3g}" if grad_norm is not None else ""
            print(f"epoch {epoch:3d}  loss {loss:.6g}{norm}")
        if not math.isfinite(loss) or (grad_norm is not None and not math.isfinite(grad_norm)):
            if self.verbose:
                kept = f"epoch {self.healthy[0]}" if self.healthy else "none yet"
                print(f"STOP: non-finite at epoch {epoch}, update not applied; last healthy parameters: {kept}")
            return "stop"
        rising = self.previous is not None and self.previous > 0 and loss >= self.step * self.previous
        if not rising:
            self.start, self.climb_alarmed = (epoch, loss), False
            self.healthy = (epoch, copy.deepcopy(params))
        elif (loss >= self.jump * self.previous or loss >= self.steep * self.start[1]
              or epoch - self.start[0] >= self.long):
            self.climb_alarmed = True
        self.previous = loss
        if not self.climb_alarmed:
            return "ok"
        if self.warned_at is None:
            self.warned_at = epoch
            if self.verbose:
                first_epoch, first = self.start
                span = epoch - first_epoch
                print(f"WARNING: the loss climbed from {first:.4g} at epoch {first_epoch} to {loss:.4g} "
                      f"(x{loss / first:.3g} in {span} epoch{'' if span == 1 else 's'}) "
                      f"-- the learning rate is probably too high")
        return "warn"

    def restore(self):
        """The epoch and a copy of the parameters from before the climb."""
        epoch, params = self.healthy
        return epoch, copy.deepcopy(params)
# --8<-- [end:watch]



# --8<-- [start:epochs]
import numpy as np

SEED = 34


def make_data(seed=SEED, n=400):
    """WR-220's two overlapping Gaussian blobs, labels 0 and 1."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(scale=0.9, size=(n, 2)) + np.where(y == 1, 0.9, -0.9)
    return X, y


def init_params(seed=SEED + 1, hidden=64):
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(size=(2, hidden)) * 0.5, "b1": np.zeros(hidden),
            "W2": rng.normal(size=(hidden, 1)) * 0.01, "b2": np.zeros(1)}


def loss_and_grads(p, X, y):
    """WR-220's network and loss, written compactly."""
    sign = np.where(y == 1, 1.0, -1.0)
    h_pre = X @ p["W1"] + p["b1"]
    h = np.maximum(h_pre, 0.0)
    z = h @ p["W2"] + p["b2"]
    p_true = 1.0 / (1.0 + np.exp(-sign * z))
    loss = float(-np.mean(np.log(p_true)))
    dz = -(1.0 - p_true) * sign / len(X)
    dh = (dz @ p["W2"].T) * (h_pre > 0)
    grads = {"W1": X.T @ dh, "b1": dh.sum(0), "W2": h.T @ dz, "b2": dz.sum(0)}
    return loss, grads


def guarded_training(lr=10.0, epochs=60, seed=SEED, verbose=True):
    """Train with the watch; on a warning, go back to before the climb and cut the rate 10x."""
    X, y = make_data(seed)
    params = init_params(seed + 1)
    watch = LossWatch(verbose=verbose)
    losses, events = [], []
    for epoch in range(epochs):
        with np.errstate(all="ignore"):          # the watch reports the trouble itself
            loss, grads = loss_and_grads(params, X, y)
        norm = float(np.sqrt(sum(np.sum(g * g) for g in grads.values())))
        losses.append(loss)
        state = watch.check(epoch, loss, params, norm)
        if state in ("warn", "stop"):
            back_to, params = watch.restore()
            lr /= 10
            events.append((epoch, state, back_to, lr))
            if verbose:
                print(f"  -> back to the parameters of epoch {back_to}, learning rate now {lr:g}")
            watch = LossWatch(verbose=verbose)   # a fresh watch for the new rate
            continue                              # this epoch's update is not applied
        params = {k: params[k] - lr * grads[k] for k in params}
    return {"loss": losses, "events": events, "final_lr": lr}


if __name__ == "__main__":
    result = guarded_training()
    print(f"\nfinal loss {result['loss'][-1]:.4f} at learning rate {result['final_lr']:g}; "
          f"every loss finite: {all(math.isfinite(v) for v in result['loss'])}")
# --8<-- [end:epochs]


# --8<-- [start:step_watch]
import copy
import math


class StepWatch:
    # A mini-batch loss jumps from batch to batch, and a run that recovers can
    # climb from its low as far as one that blows up. Two things only a run in
    # trouble does: go back above where it started, or stay up for long. So the
    # watch keeps two moving averages of the log of the loss. The fast one
    # (weight `smoothing` on each new step, about 6 steps) warns once it is
    # `factor` times the first loss, the untrained model's (the first loss
    # above zero). The slow one (weight `slow`, about 66 steps) warns once it
    # has stood at `rise` times its own lowest, and at `floor` times the first
    # loss or more, for `hold` steps in a row: a recovering run's bump falls
    # back sooner, and a run that learnt far below its start is left alone.
    # It keeps a copy of the parameters at its first step, then every
    # `keep_every` steps when the fast average is lower than at that copy.
    def __init__(self, smoothing=0.3, factor=2.2, slow=0.03, rise=3.5, floor=0.5, hold=10,
                 keep_every=50, verbose=True):
        self.smoothing, self.factor, self.keep_every = smoothing, factor, keep_every
        self.slow, self.rise, self.floor, self.hold = slow, rise, floor, hold
        self.verbose = verbose
        self.first = None             # log of the first loss: where training started
        self.fast = self.long = None  # moving averages of log(loss), fast and slow
        self.lowest = math.inf        # the slow average's lowest value
        self.held = 0                 # steps in a row the slow average has been up
        self.kept = None              # (step, fast average, parameters) of the copy it holds
        self.warned_at = None         # first step the watch warned

    def check(self, step, loss, params, grad_norm=None):
        """Return 'ok', 'warn' or 'stop'. On 'stop', do not apply the update."""
        if not math.isfinite(loss) or (grad_norm is not None and not math.isfinite(grad_norm)):
            if self.verbose:
                kept = f"step {self.kept[0]}" if self.kept else "none yet"
                print(f"STOP: non-finite value at step {step}, update not applied; kept parameters: {kept}")
            return "stop"
        if loss > 0:                  # a batch fitted exactly (loss 0) says nothing about a climb
            x = math.log(loss)
            if self.first is None:
                self.first = self.fast = self.long = x
            self.fast += self.smoothing * (x - self.fast)
            self.long += self.slow * (x - self.long)
            self.lowest = min(self.lowest, self.long)
        level = math.inf if self.fast is None else self.fast
        if self.kept is None or (step % self.keep_every == 0 and level < self.kept[1]):
            self.kept = (step, level, copy.deepcopy(params))
        if self.first is None:
            return "ok"
        up = (self.long >= self.lowest + math.log(self.rise)
              and self.long >= self.first + math.log(self.floor))
        self.held = self.held + 1 if up else 0
        above = self.fast >= self.first + math.log(self.factor)
        if not above and self.held < self.hold:
            return "ok"
        if self.warned_at is None:
            self.warned_at = step
            if self.verbose:
                if above:
                    why = (f"the loss averages {math.exp(self.fast):.4g}, "
                           f"x{math.exp(self.fast - self.first):.3g} the first loss ({math.exp(self.first):.4g})")
                else:
                    why = (f"the loss has averaged x{self.rise:g} its lowest ({math.exp(self.lowest):.4g}) or more "
                           f"for {self.held} steps, now {math.exp(self.long):.4g}")
                print(f"WARNING: at step {step} {why} -- the learning rate is probably too high")
        return "warn"

    def restore(self):
        """The step and a copy of the parameters of the copy it holds."""
        step, _, params = self.kept
        return step, copy.deepcopy(params)
# --8<-- [end:step_watch]


# --8<-- [start:steps]
import numpy as np

CLASSES, PER_CLASS, HIDDEN = 5, 200, 64


def spirals(rng):
    """Five interleaved spiral arms in 2-D, PER_CLASS points each, in float32."""
    r = np.tile(np.linspace(0.05, 1.0, PER_CLASS), CLASSES)
    y = np.repeat(np.arange(CLASSES), PER_CLASS)
    turn = y * (2 * np.pi / CLASSES) + 3.0 * r + rng.normal(scale=0.2, size=r.size)
    return np.stack([r * np.sin(turn), r * np.cos(turn)], 1).astype(np.float32), y


def init_mlp(rng):
    """A 2-64-64-5 tanh network, Glorot-scaled, in float32."""
    sizes = [2, HIDDEN, HIDDEN, CLASSES]
    params = {}
    for i, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        params[f"W{i}"] = (rng.normal(size=(fan_in, fan_out)) * np.sqrt(1.0 / fan_in)).astype(np.float32)
        params[f"b{i}"] = np.zeros((1, fan_out), np.float32)
    return params


def batch_loss_and_grads(p, X, y):
    """Mean cross-entropy of a softmax written the naive way: exp, divide, log."""
    a0 = X @ p["W0"] + p["b0"]
    h0 = np.tanh(a0)
    a1 = h0 @ p["W1"] + p["b1"]
    h1 = np.tanh(a1)
    e = np.exp(h1 @ p["W2"] + p["b2"])
    prob = e / e.sum(-1, keepdims=True)
    onehot = np.eye(CLASSES, dtype=np.float32)[y]
    loss = -np.log((prob * onehot).sum(-1)).mean(-1)
    dz = (prob - onehot) / np.float32(len(y))
    dh1 = dz @ p["W2"].T
    da1 = dh1 * (1 - h1 * h1)
    dh0 = da1 @ p["W1"].T
    da0 = dh0 * (1 - h0 * h0)
    grads = {"W0": X.T @ da0, "b0": da0.sum(0, keepdims=True), "W1": h0.T @ da1,
             "b1": da1.sum(0, keepdims=True), "W2": h1.T @ dz, "b2": dz.sum(0, keepdims=True)}
    return float(loss), grads


def train(lr, steps=600, seed=3, batch=16, momentum=0.9, watched=True, print_every=50):
    """SGD with momentum on mini-batches; with the watch, a warning rolls back and cuts the rate 10x."""
    rng = np.random.default_rng(seed)
    X, y = spirals(rng)
    params = init_mlp(rng)
    velocity = {k: np.zeros_like(v) for k, v in params.items()}
    watch = StepWatch(verbose=print_every is not None) if watched else None
    losses, events = [], []
    per_epoch = len(X) // batch
    for step in range(steps):
        if step % per_epoch == 0:
            order = rng.permutation(len(X))
        rows = order[step % per_epoch * batch:(step % per_epoch + 1) * batch]
        with np.errstate(all="ignore"):          # the watch reports the trouble itself
            loss, grads = batch_loss_and_grads(params, X[rows], y[rows])
        losses.append(loss)
        if print_every and (step % print_every == 0 or not np.isfinite(loss)):
            print(f"step {step:4d}  loss {loss:.4g}")
        if watch is None:
            if not np.isfinite(loss):
                break
        elif watch.check(step, loss, params) != "ok":
            back_to, params = watch.restore()
            lr /= 10
            velocity = {k: np.zeros_like(v) for k, v in params.items()}
            events.append((step, back_to, lr))
            if print_every:
                print(f"  -> back to the parameters kept at step {back_to}, learning rate now {lr:g}")
            watch = StepWatch(verbose=True)        # a fresh watch for the new rate
            continue                                # this step's update is not applied
        with np.errstate(all="ignore"):
            for k in params:
                velocity[k] = np.float32(momentum) * velocity[k] + grads[k]
                params[k] -= np.float32(lr) * velocity[k]
    return {"loss": losses, "events": events, "final_lr": lr}


if __name__ == "__main__":
    print("SGD with momentum 0.9 on batches of 16 at learning rate 0.464, no watch:")
    plain = train(0.464, watched=False, print_every=25)
    print(f"first non-finite loss at step {len(plain['loss']) - 1}\n")
    print("The same run with the watch:")
    guarded = train(0.464)
    print(f"{len(guarded['loss'])} steps, every loss finite: {bool(np.all(np.isfinite(guarded['loss'])))}; "
          f"mean loss over the last 50 steps {np.mean(guarded['loss'][-50:]):.3f} "
          f"at learning rate {guarded['final_lr']:g}")
# --8<-- [end:steps]
