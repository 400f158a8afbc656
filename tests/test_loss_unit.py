"""The unit a log prints its loss in: nats, unless the tool prints bits (fairseq). A uniform guess over V classes is ln V
nats, log2 V bits -- the start the no-warmup spike and the fine-tuned model's start are measured from."""
import io
import math
import re
from pathlib import Path

from conftest import real_catalog
from trainwreck.class_count import vocabulary_named
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan
from trainwreck.logscan.dialects import loss_unit

CATALOG = real_catalog()
BITS_LOG = Path(__file__).parent / "logs" / "fairseq" / "no_warmup_spike_in_bits.log"


def test_fairseq_counts_bits_and_everything_else_nats():
    assert loss_unit("fairseq") == (math.log(2), "bits", "log2")
    assert loss_unit("Keras") == (1.0, "nats", "ln") and loss_unit("") == (1.0, "nats", "ln")


def test_fairseqs_printed_perplexity_is_two_to_its_loss():
    """Why its unit is bits: the ppl fairseq prints beside the loss is 2**loss (to its rounding of the loss to 3
    decimals), where e**loss would be 16 times larger at a loss of 13."""
    pairs = [(float(m.group(1)), float(m.group(2)))
             for m in re.finditer(r"loss=([\d.]+), ppl=([\d.]+)", BITS_LOG.read_text())]
    assert len(pairs) == 6
    for loss, ppl in pairs:
        assert abs(math.log2(ppl) - loss) < 0.001
        assert math.exp(loss) > 10 * ppl


def test_the_dictionary_fairseq_prints_is_the_vocabulary_the_target_last():
    text = "| [de] dictionary: 8848 types\n| [en] dictionary: 6632 types\n"
    assert vocabulary_named(text) == (6632, "`dictionary: 6632 types`")


def test_the_same_numbers_read_as_nats_are_no_uniform_start():
    """12.963 is log2 7992 but 1.44 times ln 7992: printed by a tool that counts nats, the start is no uniform guess
    and a rise of 19% is no warmup spike."""
    nats = "\n".join(f"step {25 * (i + 1)}: loss={m.group(1)} lr=0.0005"
                     for i, m in enumerate(re.finditer(r"loss=([\d.]+)", BITS_LOG.read_text())))
    text = "Adam, constant lr, vocab of 7992 tokens\n" + nats
    d = diagnose(scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG)), CATALOG)
    assert d.evidence.dialect != "fairseq"
    assert not d.matches or d.matches[0].entry.id != "WR-250"
    bits = diagnose(scan(io.BytesIO(BITS_LOG.read_bytes()), "report", message_finder(CATALOG)), CATALOG)
    assert bits.matches[0].entry.id == "WR-250"


def test_a_fine_tuned_model_at_a_uniform_guess_in_bits_is_read():
    """Fine-tuning that starts at log2 V bits starts at a uniform guess: in nats that start (12.96) would be 2.5
    above ln 7992 = 8.99, far past where the reading stops."""
    from trainwreck.start_loss import pretrained_at_uniform

    text = ("Fine-tuning a pretrained model on my si-en data\n"
            + BITS_LOG.read_text().replace("--lr-scheduler fixed", "--lr-scheduler inverse_sqrt --warmup-updates 4000"))
    ev = scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG))
    shown, why = pretrained_at_uniform(ev)
    assert shown.lower() == "fine-tuning" and "is log2 7992 = 12.96 or more" in why
