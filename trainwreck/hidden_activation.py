"""The hidden units' activation, where the paste sets one that has no zero side for a unit to die on.

A ReLU unit dies when its pre-activation is below zero for every input: on that side its output and its slope are 0
by definition, so its own training cannot bring it back (WR-140, whose mechanism is the ReLU's). A logistic, tanh or
identity unit has no such side. It can saturate instead: far out on its ends its output rounds to its limit and its
slope to 0 (in float64 np.tanh(19.1) is 1.0, and scikit-learn's tanh derivative, 1 - Z**2, is then exactly 0), which
is the face of inputs left unscaled or weights drawn too large, not of dead ReLUs. Read where the setting is exact:
scikit-learn's MLPClassifier and MLPRegressor take one `activation` for every hidden layer, 'identity', 'logistic',
'tanh' or 'relu', and 'relu' when it is not given
(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/_multilayer_perceptron.py).
"""
from __future__ import annotations

import itertools

from .breaking_constructs import code_of
from . import lazy_regex

# (the estimator's call, its arguments over lines, one level of brackets inside: `hidden_layer_sizes=(50,)`)
MLP_CALL = lazy_regex.compile(r"\bMLP(?:Classifier|Regressor)\((?P<args>(?:[^()]|\([^()]{0,80}\)){0,600}?)\)")
ACTIVATION = lazy_regex.compile(r"\bactivation\s*=\s*['\"](?P<act>identity|logistic|tanh|relu)['\"]")


def no_zero_side(prose: str) -> str:
    """The setting, quoted, that makes the pasted network's hidden units ones a unit cannot die on: every MLP call of
    the paste's code (comments left out) sets a logistic, tanh or identity activation -- not where one takes ReLU,
    named or by default; or ""."""
    settings = [ACTIVATION.search(m.group("args")) for m in itertools.islice(MLP_CALL.finditer(code_of(prose)), 10)]
    if not settings or any(s is None or s.group("act") == "relu" for s in settings):
        return ""
    return f"activation=\"{settings[0].group('act')}\""
