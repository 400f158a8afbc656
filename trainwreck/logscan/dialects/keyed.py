"""Any log that prints its loss after a key: `loss: 0.70`, `loss=0.70`, `'loss': 0.7`, `"loss": 0.7`,
`Loss 0.7`, `cost 0.7`, a loss in parts' `total 4.38`, `loss=tensor(0.69, grad_fn=<NllLossBackward0>)`, with the epoch or step numbers the
loop printed beside it (`Epoch [9/10], Step [100/600], Loss: nan`, `step 1100 loss inf`).
"""
from . import Dialect, loss_table

# With no loss key, the cost: what courses and hand-written loops call the quantity gradient descent lowers; or
# the negative log-likelihood, `nll` or in bits per dimension `bpd`, as density models print it; or `J = 0.5`, the cost as courses write it; or a
# regression's `mse`, or its `l1` (image restoration's usual loss), after a total of parts or an autoencoder's `recon`;
# or a classifier's `ce` (`train_ce 4.1103`).
# Each is a word of its own, or the training one (`train_mse`): not the end of `val_cost`,
# `test_nll`, `rmse` (the validation words and the masks are written for `loss`); not a whole number followed by
# words, as prose has it ("cost 40 GPU hours"); and `J` only as `J = 0.5`, with spaces (`Namespace(J=2, ...)` is an
# argument).
_OWN = rb"(?<![\w.])(?:[Tt]rain(?:ing)?_)?"
_NOT_PROSE = rb"(?![ \t]*(?:[:=][ \t]*)?\d+[ \t]+[A-Za-z]+[ \t]+[A-Za-z])"
# ... or, last, the total of a loss printed in parts (`total 4.38 | mel 1.03 | dur 1.48`), with a value that has decimals
# or is not finite: `total = 0` in a pasted loop, or a count, is no loss.
_DECIMAL = rb"(?=[ \t]{0,8}[:=]?[ \t]{0,8}[-+]?(?:\d+\.\d|\d+(?:\.\d*)?[eE][-+]?\d|nan|inf))"
def nll_key(per_step: bool = False) -> bytes:
    """The key of a density model's NLL (with `per_step`, Lightning's `_step` name of it too: `train_nll_step`)."""
    return _OWN + rb"(?:nll|NLL)" + (rb"(?:_step)?" if per_step else b"") + _NOT_PROSE


def bpd_key(per_step: bool = False) -> bytes:
    """... and of its NLL in bits per dimension, a flow's or an image model's, not the validation's (`val bpd`)."""
    return (_OWN + rb"(?<![Vv]al[ _])(?<![Tt]est[ _])(?:bpd|BPD|bits/dim|bits_per_dim)" + (rb"(?:_step)?" if per_step
                                                                                          else b"") + _NOT_PROSE)


NLL_KEY, BPD_KEY = nll_key(), bpd_key()
DIALECT = Dialect("lines with a loss key", None, refused_by=loss_table.pasted,
                  keys=(b"loss", b"Loss", b"LOSS", _OWN + rb"(?:[Cc]ost|COST)" + _NOT_PROSE, NLL_KEY, BPD_KEY,
                        rb"(?:^|(?<=[ \t|]))J(?=[ \t]+=[ \t]+)",
                        # (the total of parts before a part's name: `total 0.41 | l1 0.09 | percep 0.32`)
                        _OWN + rb"(?:[Tt]otal|TOTAL)" + _DECIMAL,
                        # (an autoencoder's reconstruction before an l1 beside it, which is its sparsity penalty:
                        # `recon 0.21 | l1 412.7`)
                        _OWN + rb"(?:recon|RECON)(?:struction)?(?:_loss)?" + _DECIMAL,
                        _OWN + rb"(?:mse|MSE)" + _NOT_PROSE, _OWN + rb"(?:l1|L1)" + _NOT_PROSE,
                        # (and, last, a classifier's cross-entropy by its short name, `train_ce 4.1103`, with decimals)
                        _OWN + rb"(?:ce|CE|xent)" + _DECIMAL))
