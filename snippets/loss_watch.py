"""The loss watch: a copy-paste guard for a hand-written training loop.

Call it once per epoch, before the update, with the loss (and the gradient
norm if you have it). It prints the loss, warns when the loss climbs
geometrically -- rises of 10% or more epoch after epoch that triple it in one
epoch, reach 4x where the climb began, or go on for 4 epochs -- stops at the
first non-finite value before that update is applied, and keeps a copy of the
last healthy parameters so the run can resume from before the climb with a
smaller learning rate.

It uses no absolute loss threshold: only the loss's own shape, so it works
for any loss scale. trainwreck's `diagnose` uses the same rule.

Run it: python snippets/loss_watch.py
"""
# --8<-- [start:watch]
import copy
import math

import numpy as np


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
                print(f"WARNING: the loss climbed from {first:.4g} at epoch {first_epoch} to {loss:.4g} "
                      f"(x{loss / first:.3g} in {epoch - first_epoch} epoch(s)) "
                      f"-- the learning rate is probably too high")
        return "warn"

    def restore(self):
        """The epoch and a copy of the parameters from before the climb."""
        epoch, params = self.healthy
        return epoch, copy.deepcopy(params)
# --8<-- [end:watch]


SEED = 34


def make_data(seed=SEED, n=400):
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


# --8<-- [start:use]
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
# --8<-- [end:use]


def main():
    result = guarded_training()
    print(f"\nfinal loss {result['loss'][-1]:.4f} at learning rate {result['final_lr']:g}; "
          f"every loss finite: {all(math.isfinite(v) for v in result['loss'])}")


if __name__ == "__main__":
    main()
