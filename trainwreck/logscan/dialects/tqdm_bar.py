"""A training loop wrapped in tqdm, with the loss in the bar's postfix:
`Epoch 3:  50%|█████     | 50/100 [00:01<00:01, 40.00it/s, loss=4.21]`.

tqdm rewrites the line after a carriage return; the last update of each line is kept.
"""
import re

from . import Dialect

# (a rate is tried where its number starts: from every digit of a long run of digits it would read the run again)
DIALECT = Dialect("tqdm progress bar", re.compile(rb"(?<![\d.])\d+(?:\.\d+)?(?:it/s|s/it)[,\]]"))
