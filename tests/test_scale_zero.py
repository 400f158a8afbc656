"""Apex's amp raises ZeroDivisionError when its loss scale has been halved to 0.0
(trainwreck/logscan/scale_zero.py): weighed as the scaler out of range, only where it is Apex's."""
import math

import numpy as np
import pytest

from conftest import assert_entry_says, real_catalog
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.diagnose_report import as_json, report
from trainwreck.logscan import scan_text
from trainwreck.logscan.scale_zero import FITS, HALVINGS, INIT_SCALE, MESSAGE, SAME_AS, SOURCE, UNSCALE_INF, WHY

CATALOG = real_catalog()
APEX_CODE = ("model, optimizer = amp.initialize(model, optimizer, opt_level='O1')\n"
             "with amp.scale_loss(loss, optimizer) as scaled_loss:\n    scaled_loss.backward()\n")
TRACEBACK = ("Traceback (most recent call last):\n"
             '  File "train.py", line 61, in <module>\n    scaled_loss.backward()\n'
             '  File "/venv/lib/python3.8/site-packages/apex/amp/scaler.py", line 176, in unscale_with_stashed\n'
             "    out_scale/grads_have_scale,   # 1./scale,\n"
             "ZeroDivisionError: float division by zero\n")
# what Apex prints at each skip before the scale reaches zero (WR-040 declares it)
SKIPS = "".join(f"Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {2.0 ** -k:g}\n"
                for k in range(1000, 1012))
LOSSES = "".join(f"step {i} loss {2.3 - 0.01 * i:.3f}\n" for i in range(20))


def diagnosed(text: str):
    return diagnose(scan_text(text, "log", finder=message_finder(CATALOG)), CATALOG)


def test_the_scale_reaches_zero_after_the_halvings_the_module_states_and_unscaling_overflows_before():
    """The mechanism: a Python float halved from 65536 is 2**-1074 after 1,090 halvings and 0.0 after
    1,091, and dividing by it raises the message read; 1/scale in float32, the factor Apex unscales by,
    is inf from the 144th halving (2**-128) on and finite one halving before."""
    scale, halvings, before = INIT_SCALE, 0, None
    while scale:
        before = scale
        scale /= 2.0
        halvings += 1
    assert halvings == HALVINGS and before == math.ulp(0.0) == 2.0 ** -1074
    with pytest.raises(ZeroDivisionError) as raised:
        1.0 / scale
    assert str(raised.value) == MESSAGE
    with np.errstate(over="ignore"):
        assert np.isinf(np.float32(1.0 / (INIT_SCALE / 2.0 ** UNSCALE_INF)))
        assert np.isfinite(np.float32(1.0 / (INIT_SCALE / 2.0 ** (UNSCALE_INF - 1))))
    assert INIT_SCALE / 2.0 ** UNSCALE_INF == 2.0 ** -128


def test_after_the_fits_halvings_no_finite_float32_gradient_overflows_float16_once_scaled():
    """So the halvings from FITS on (to UNSCALE_INF) need a value that no scale brings into range."""
    largest = float(np.finfo(np.float32).max)
    with np.errstate(over="ignore"):
        assert np.isfinite(np.float16(largest * INIT_SCALE / 2.0 ** FITS))
        assert np.isinf(np.float16(largest * INIT_SCALE / 2.0 ** (FITS - 1)))
    assert INIT_SCALE / 2.0 ** FITS == 2.0 ** -113 and UNSCALE_INF - FITS == 15


@pytest.mark.parametrize("context", [APEX_CODE, "from apex import amp\n", "from apex import optimizers, amp\n",
                                     "trainer = Trainer(precision=16, amp_backend='apex')\n", ""])
def test_apexs_error_is_weighed_as_the_scaler_out_of_range(context):
    """The entry that declares the floor message gets half a message's weight and the reason, which the
    report gives once, whether or not that entry is among the candidates shown; the error alone names
    nothing with confidence (its inf or nan may as well be a loss that was not finite)."""
    d = diagnosed("my training crashed after some iterations\n" + context + TRACEBACK)
    line = len((context + TRACEBACK).splitlines()) + 1
    assert d.verdict == "uncertain" and not d.unweighed and "division" not in d.evidence.prose
    note = f'message "{MESSAGE}" (line {line}): {WHY}; weighed for WR-040, whose failure that is'
    assert d.read == [(WHY, note)] and as_json(d)["read"] == [note]
    assert report(d).count(WHY) == 1
    for m in (m for m in d.matches if m.entry.id == "WR-040"):      # if it is shown, it carries the reason
        assert m.parts["messages"] == 1.0 and f'message "{MESSAGE}" (line {line}): {WHY}' in m.evidence
    assert any(m.text == SAME_AS for m in CATALOG.entries["WR-040"].messages)


@pytest.mark.parametrize("log", [
    # the reporter's own division, in a script that uses Apex: the traceback ends in the script
    "from apex import amp\nTraceback (most recent call last):\n  File \"train.py\", line 88, in validate\n"
    "    return 100. * correct / total\nZeroDivisionError: float division by zero\n",
    "avg = total / count\nZeroDivisionError: float division by zero\n",                   # no Apex at all
    "import torch\nscaler = torch.cuda.amp.GradScaler()\nZeroDivisionError: float division by zero\n",
    "from mxnet.contrib import amp\nwith amp.scale_loss(loss, trainer) as scaled:\nZeroDivisionError: float division by zero\n",
    # the error quoted in a sentence first, then the traceback that ends in the reporter's own code
    "from apex import amp\nI get ZeroDivisionError: float division by zero at the end of the first epoch:\n"
    "Traceback (most recent call last):\n  File \"train.py\", line 88, in validate\n    return 100. * correct / total\n"
    "ZeroDivisionError: float division by zero\n",
])
def test_any_other_division_by_zero_is_left_alone(log):
    d = diagnosed(log)
    assert not any(MESSAGE in e for m in d.matches for e in m.evidence)
    assert "is not declared by any entry" in report(d)


def test_apexs_error_is_read_whatever_follows_it():
    """A launcher prints its own traceback after the worker's: the reading is decided at the error's line,
    once, before the words are taken out."""
    launcher = ("Traceback (most recent call last):\n"
                '  File "/opt/conda/lib/python3.6/site-packages/torch/distributed/launch.py", line 253, in main\n'
                "subprocess.CalledProcessError: Command 'python' returned non-zero exit status 1.\n")
    d = diagnosed(LOSSES + SKIPS + TRACEBACK + launcher)
    assert [carried for carried, _note in d.read] == [WHY] and not any(MESSAGE in u for u in d.unweighed)


def test_the_usual_apex_report_keeps_the_half_precision_entry_first():
    """Losses, then Apex's skip lines, then the traceback: the error adds to the entry the skip lines
    already point at, and takes nothing from it."""
    d = diagnosed(LOSSES + SKIPS + TRACEBACK)
    assert d.matches[0].entry.id == "WR-040"
    without = diagnosed(LOSSES + SKIPS)
    wr040 = next(m for m in without.matches if m.entry.id == "WR-040")
    assert d.matches[0].score > wr040.score


def test_amp_calls_say_mixed_precision_not_initialisation():
    d = diagnosed("Training GPT2, after some iterations I get this error\n" + APEX_CODE + TRACEBACK)
    assert not any(m.entry.id in ("WR-110", "WR-120") for m in d.matches)


def test_the_half_precision_entry_tells_the_reader_the_same_numbers():
    assert_entry_says("WR-040", [f"{HALVINGS:,} more halvings than doublings from {INIT_SCALE:g}",
                                 f"After the {FITS}th (a scale of 2^-113)", f"the {UNSCALE_INF - FITS} halvings",
                                 f"From the {UNSCALE_INF}th halving on, `1./scale` is inf in float32", "`ZeroDivisionError: float division by zero`",
                                 SOURCE])


def test_apexs_error_beside_skipped_steps_is_no_normal_skipping():
    """A few skips are normal under dynamic loss scaling; a scale that reached zero is not, even when the
    report says nothing else went wrong."""
    d = diagnosed("from apex import amp\n" + SKIPS + TRACEBACK)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-040"
