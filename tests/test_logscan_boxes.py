"""A loss printed in the box its framework's repr puts a scalar in (numbers.BOX): NumPy 2's `np.float64(0.69)`,
JAX's `Array(0.69, dtype=float32)`, TensorFlow's `tf.Tensor(0.69, shape=(), dtype=float32)` and
`<tf.Tensor: shape=(), dtype=float32, numpy=0.69>`, besides PyTorch's `tensor(...)`: read as the number it holds,
in every layout a loop prints it in; and the box shows the framework that printed it."""
import io

import pytest

from conftest import real_catalog
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan, scan_text

CATALOG = real_catalog()
CLIMB = ["2.3026", "2.9112", "7.4521", "41.203", "nan"]
BOXES = {
    "numpy 2": "np.float64({})",
    "numpy 2, float32": "np.float32({})",
    "jax": "Array({}, dtype=float32)",
    "jax, weak type": "Array({}, dtype=float32, weak_type=True)",
    "jax before 0.4.1": "DeviceArray({}, dtype=float32)",
    "tensorflow str": "tf.Tensor({}, shape=(), dtype=float32)",
    "tensorflow repr": "<tf.Tensor: shape=(), dtype=float32, numpy={}>",
}
LAYOUTS = {
    "a dict per epoch": "{{'epoch': {k}, 'loss': {box}, 'acc': 0.1}}\n",
    "a keyed line": "epoch {k} loss {box}\n",
    "one per line": "{box}\n",
}


def values(text: str) -> list[float]:
    ev = scan_text(text)
    return [*ev.head, *ev.tail][:ev.count] if ev.count <= len(ev.head) else ev.head


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("box", BOXES)
def test_a_boxed_loss_is_read_as_the_number_in_its_box(box, layout):
    text = "".join(LAYOUTS[layout].format(k=k, box=BOXES[box].format(v)) for k, v in enumerate(CLIMB, start=1))
    ev = scan_text(text)
    assert ev.count == 5 and ev.first_nonfinite == 4
    assert [round(v, 4) for v in ev.head[:4]] == [2.3026, 2.9112, 7.4521, 41.203]


@pytest.mark.parametrize("box", BOXES)
def test_a_list_of_boxed_losses_gives_each_item(box):
    text = "losses = [" + ", ".join(BOXES[box].format(v) for v in CLIMB) + "]\n"
    ev = scan_text(text)
    assert ev.count == 5 and ev.first_nonfinite == 4 and round(ev.head[3], 3) == 41.203
    assert str(ev.head_at[2]) == "value 3 of 'losses'"


def test_the_box_of_a_framework_shows_the_framework_and_numpys_shows_none():
    """NumPy's np.float64 holds any framework's numbers (`np.mean` of PyTorch's floats is one): it shows no
    framework. JAX's, TensorFlow's and PyTorch's boxes show theirs, with a number in them (not the word in a
    sentence)."""
    from trainwreck.logscan.numbers import box_frameworks

    assert box_frameworks(b"{'loss': Array(2.3, dtype=float32)}") == ["jax"]
    assert box_frameworks(b"loss: tf.Tensor(2.3, shape=(), dtype=float32)") == ["tensorflow"]
    assert box_frameworks(b"<tf.Tensor: shape=(), dtype=float32, numpy=2.3>") == ["tensorflow"]
    assert box_frameworks(b"loss tensor(2.3, grad_fn=<NllLossBackward0>)") == ["pytorch"]
    assert box_frameworks(b"{'loss': np.float64(2.3)} [array(0.5)]") == []
    assert box_frameworks(b"I built a tensor(s) of the Array(s) by hand") == []


def test_a_jax_log_is_not_held_to_numpys_warnings():
    """A JAX run prints no NumPy RuntimeWarning: that none is in its log says nothing against WR-220, whose
    declared messages are NumPy's (_missing_messages)."""
    text = "".join(f"{{'step': {k * 10}, 'loss': Array({v}, dtype=float32)}}\n" for k, v in enumerate(CLIMB))
    ev = scan(io.BytesIO(text.encode()), "jax.log", message_finder(CATALOG))
    assert ev.frameworks == ["jax"]
    d = diagnose(ev, CATALOG)
    assert d.matches[0].entry.id == "WR-220"
    assert not any("none of the messages" in a for a in d.matches[0].against)


def test_a_list_alone_on_the_line_a_colon_introduces_gives_the_sentences_values():
    """"These are the losses of the first epochs:" above a list and nothing else: the list's items, located as its
    items. A list with words in it, or one with more on its line, gives none."""
    numbers = "[" + ", ".join(f"np.float64({v})" for v in CLIMB) + "]"
    ev = scan_text(f"My regression gets worse every epoch.\nThese are the losses of the first epochs:\n{numbers}\n")
    assert ev.count == 5 and ev.first_nonfinite == 4
    assert str(ev.head_at[3]) == "value 4 of the list"
    assert scan_text("The loss weights are:\n['ce', 'dice', 'focal']\n").count == 0
    assert scan_text("The losses:\n[0.9, 0.5, 0.4] and then it crashed\n").count == 0
