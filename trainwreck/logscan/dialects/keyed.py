"""Any log that prints its loss after a key: `loss: 0.70`, `loss=0.70`, `'loss': 0.7`, `"loss": 0.7`,
`Loss 0.7`, `cost 0.7`, `loss=tensor(0.69, grad_fn=<NllLossBackward0>)`, with the epoch or step numbers the
loop printed beside it (`Epoch [9/10], Step [100/600], Loss: nan`, `step 1100 loss inf`).
"""
from . import Dialect

# With no loss key, the cost: what courses and hand-written loops call the quantity gradient descent lowers; or
# the negative log-likelihood, `nll`, as density models print it; or `J = 0.5`, the cost as courses write it (a
# word of its own: not the J that ends a name); or a regression's `mse`.
DIALECT = Dialect("lines with a loss key", None, keys=(b"loss", b"Loss", b"LOSS", b"cost", b"Cost", b"COST", b"nll",
                                                       b"NLL", rb"(?<![\w.])J", b"mse", b"MSE"))
