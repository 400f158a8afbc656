"""The hidden units' activation, where the paste sets one that has no zero side for a unit to die on.

A ReLU unit dies when its pre-activation is below zero for every input: it outputs 0 and its gradient is exactly 0, so
its own training cannot bring it back (WR-140). A logistic, tanh or identity unit has no such side: its slope is
never exactly 0, so a network whose hidden units are all of those has no dead ReLUs, whatever its loss does (a
saturated sigmoid's slope is tiny, not 0: the failures of that face are others'). Read where the setting is exact:
scikit-learn's MLPClassifier and MLPRegressor take one `activation` for every hidden layer, 'identity', 'logistic',
'tanh' or 'relu', and 'relu' when it is not given
(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/_multilayer_perceptron.py).
"""
from __future__ import annotations

from . import lazy_regex

# (the estimator's call, its arguments over lines, one level of brackets inside: `hidden_layer_sizes=(50,)`)
SKLEARN_ACTIVATION = lazy_regex.compile(r"\bMLP(?:Classifier|Regressor)\((?:[^()]|\([^()]{0,80}\)){0,600}?"
                                        r"\bactivation\s*=\s*['\"](?P<act>identity|logistic|tanh)['\"]")


def no_zero_side(prose: str) -> str:
    """The setting, quoted, that makes the pasted network's hidden units ones a unit cannot die on; or ""."""
    found = SKLEARN_ACTIVATION.search(prose)
    return f"activation=\"{found.group('act')}\"" if found else ""
