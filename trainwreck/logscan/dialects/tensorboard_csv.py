"""TensorBoard's scalar export: the "Download CSV" link under a chart (and `tensorboard dev`'s export)
writes one scalar tag as `Wall time,Step,Value`, one row per logged step.

The file does not name the tag it holds; pasted into a question about a loss, it is the loss. The
`Value` column is read, numbered by `Step`; the report says which column it read. Where the line that introduces
it names another tag (an accuracy, a learning rate) and no loss, it is not read as one.
"""
import re

from . import Dialect
from .count_value import LOSS_WORDS

HEADER = re.compile(rb"(?im)^[ \t]*\"?wall time\"?,\"?step\"?,\"?value\"?[ \t]*\r?$")
# The line that introduces the export, when it names another tag ("Validation accuracy, exported from TensorBoard
# (val/acc):", "the lr curve:"): those values are not a loss
# (a tag by its name, not a setting of the run: "the lr=3e-3 run" exports its loss; nor "map" of a street-map dataset)
OTHER_TAG = re.compile(rb"(?i)(?:\b|_|/)(?:acc(?:uracy)?|f1|auc|bleu|rouge\w*|psnr|ssim|iou|dice|reward|return|"
                       rb"(?<![\w-])m?ap(?:@|\b)|lr|learning[ _]rate|grad(?:ient)?[ _]?norm|perplexity|ppl)(?:\b|_|@)"
                       rb"(?![ \t]*=[ \t]*[\d.e-]+[ \t]+run\b)")


def _other_tag(first: bytes) -> bool:
    header = HEADER.search(first)
    if header is None:
        return False
    lines = [x for x in first[:header.start()].split(b"\n") if x.strip() and not x.strip().startswith(b"```")]
    said = re.split(rb"[.!?](?:\s|$)", lines[-1].rstrip())[-1] if lines else b""     # (its last sentence)
    return bool(OTHER_TAG.search(said)) and not LOSS_WORDS.search(said)


DIALECT = Dialect("TensorBoard's scalar CSV export (its Value column)", HEADER, keys=(b"value",), mode="csv",
                  refused_by=_other_tag)
