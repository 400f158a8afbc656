"""Apex's amp raises ZeroDivisionError when its loss scale has been halved to 0.0
(trainwreck/logscan/scale_zero.py): read as a non-finite value, only in a report that shows Apex."""
import math

import pytest

from conftest import assert_entry_says, real_catalog
from trainwreck.diagnose import diagnose, message_finder, report
from trainwreck.logscan import scan_text
import numpy as np

from trainwreck.logscan.scale_zero import HALVINGS, INIT_SCALE, MESSAGE, SOURCE, ZEROED, with_scale_zero

CATALOG = real_catalog()
APEX_CODE = ("model, optimizer = amp.initialize(model, optimizer, opt_level='O1')\n"
             "with amp.scale_loss(loss, optimizer) as scaled_loss:\n    scaled_loss.backward()\n")
TRACEBACK = ('  File "/venv/lib/python3.8/site-packages/apex/amp/scaler.py", line 176, in unscale_with_stashed\n'
             "    out_scale/grads_have_scale,   # 1./scale,\n"
             "ZeroDivisionError: float division by zero\n")


def read(text: str):
    return scan_text(text, "log", finder=message_finder(CATALOG))


def test_the_scale_reaches_zero_after_the_halvings_the_module_states_and_the_division_then_raises():
    """The mechanism: a Python float halved from 65536 is 2**-1074 after 1,090 halvings and 0.0 after
    1,091; dividing by it raises ZeroDivisionError with the message the module reads."""
    scale, halvings, before = INIT_SCALE, 0, None
    while scale:
        before = scale
        scale /= 2.0
        halvings += 1
    assert halvings == HALVINGS
    assert before == math.ulp(0.0) == 2.0 ** -1074                   # the smallest float, one halving before zero
    with pytest.raises(ZeroDivisionError) as raised:
        1.0 / scale
    assert MESSAGE.fullmatch(str(raised.value))
    assert MESSAGE.fullmatch("division by zero")                     # Python 3.14's wording


def test_after_the_zeroed_halvings_every_finite_float32_loss_scales_to_zero():
    """Apex scales loss.float() by the scale: from the ZEROED-th halving on, the largest finite float32 loss
    times the scale is 0 in float32, whether the scale is rounded to float32 first or the product is;
    one halving before, it is not. So only a loss that is not finite can still overflow then."""
    largest = np.finfo(np.float32).max

    def scaled(halvings):
        scale = INIT_SCALE / 2.0 ** halvings
        return {float(np.float32(float(largest) * scale)), float(largest * np.float32(scale)), float(largest * scale)}

    assert scaled(ZEROED) == {0.0} and scaled(ZEROED - 1) != {0.0}
    assert np.isnan(np.float32(np.nan) * np.float32(INIT_SCALE / 2.0 ** ZEROED))
    with np.errstate(invalid="ignore"):
        assert np.isnan(np.float32(np.inf) * np.float32(0.0))       # an inf the forward pass held, times 0


@pytest.mark.parametrize("context", [APEX_CODE, "from apex import amp\n", TRACEBACK.split("\n")[0] + "\n"])
def test_with_apex_the_error_is_a_non_finite_value_at_its_line(context):
    ev = with_scale_zero(read("my training crashed after some iterations\n" + context + TRACEBACK))
    assert ev.count == 1 and math.isnan(ev.first_nonfinite_value) and ev.hidden_kind == "inf or nan"
    assert ev.first_nonfinite_at.line == len(("x\n" + context + TRACEBACK).splitlines())
    assert "1,091 skipped steps, each with an inf or nan gradient" in ev.hidden_note and "apex/blob/25.05/apex/amp/scaler.py" in ev.hidden_note


@pytest.mark.parametrize("log", [
    "avg = total / count\nZeroDivisionError: float division by zero\n",              # the reporter's own division
    "import torch\nscaler = torch.cuda.amp.GradScaler()\nZeroDivisionError: division by zero\n",   # not Apex's amp
])
def test_any_other_division_by_zero_is_left_alone(log):
    ev = read(log)
    assert with_scale_zero(ev) is ev
    assert "is not declared by any entry" in report(diagnose(ev, CATALOG))


def test_values_that_already_show_the_nan_are_left_as_they_are():
    ev = read("step 1 loss: 0.9\nstep 2 loss: nan\n" + APEX_CODE + TRACEBACK)
    assert with_scale_zero(ev) is ev


def test_the_report_says_how_the_error_was_read_and_drops_its_words():
    d = diagnose(read("Training GPT2, after some iterations I get this error\n" + APEX_CODE + TRACEBACK), CATALOG)
    text = report(d)
    assert d.evidence.first_nonfinite is not None
    assert "Read: `ZeroDivisionError: float division by zero` (line 7) with Apex's amp" in text
    assert "not declared" not in text
    # Python's words, and Apex's call amp.initialize, are not the reporter's: no division-by-zero
    # entry (WR-060) is matched on "division", no initialisation entry on "initialize"
    assert "division" not in d.evidence.prose
    assert not any(m.entry.id in ("WR-060", "WR-110", "WR-120") for m in d.matches)


def test_the_half_precision_entry_tells_the_reader_the_same_numbers():
    assert_entry_says("WR-040", [f"{HALVINGS:,} skipped steps from {INIT_SCALE:g}", f"From the {ZEROED}th halving on",
                                 "`ZeroDivisionError: float division by zero`", SOURCE])
