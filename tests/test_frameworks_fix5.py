"""Opt-in: the framework claims review 5 corrected, checked against the real libraries.

WR-330: Keras converts uint8 pixels to the Input's float32 in the model, before the first Dense layer; a Dense
layer called on uint8 directly leaves the input as it is and its matmul promotes the result to float32.
Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (see framework_runner.py).
"""
import pytest

from framework_runner import OPT_IN, check_cited_line, keras

pytestmark = OPT_IN

DTYPE_SEEN_BY_DENSE = """
    import json, numpy as np, keras
    seen = []
    class Spy(keras.layers.Dense):
        def call(self, inputs):
            seen.append(keras.backend.standardize_dtype(inputs.dtype))
            return super().call(inputs)
    X = np.random.default_rng(0).integers(0, 256, (8, 64)).astype(np.uint8)
    y = np.arange(8) % 4
    out = Spy(16)(X)
    bare = {"in": list(seen), "out": keras.backend.standardize_dtype(out.dtype)}
    model = keras.Sequential([keras.Input((64,)), Spy(16, activation="sigmoid"), keras.layers.Dense(4)])
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    seen.clear()
    model.fit(X, y, epochs=1, verbose=0)
    print(json.dumps({"bare": bare, "fit": sorted(set(seen)), "input": model.inputs[0].dtype}))
"""


@pytest.mark.parametrize("backend", ["jax", "tensorflow"])
def test_keras_converts_uint8_at_the_input_and_a_bare_dense_leaves_it_to_the_matmul(backend):
    out = keras(backend, DTYPE_SEEN_BY_DENSE)
    assert out["bare"] == {"in": ["uint8"], "out": "float32"}      # the layer does not cast; its matmul promotes
    assert out["input"] == "float32" and out["fit"] == ["float32"]  # in a model the Input converts first


CITED = [
    # (interpreter, file in site-packages, line, text the line holds, URL WR-330 cites)
    ("jax", "keras/src/models/functional.py", 291, "ops.convert_to_tensor(",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/models/functional.py#L290-L294"),
    ("jax", "keras/src/models/functional.py", 293, "dtype=input_tensor.dtype,",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/models/functional.py#L290-L294"),
    ("jax", "keras/src/dtype_policies/dtype_policy.py", 154, "method will keep integer inputs untouched and only apply",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/dtype_policies/dtype_policy.py#L150-L156"),
    ("jax", "keras/src/dtype_policies/dtype_policy.py", 150, "def convert_input(self, x, autocast, dtype):",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/dtype_policies/dtype_policy.py#L150-L156"),
]


@pytest.mark.parametrize("name, relative, line, text, url", CITED, ids=[f"{c[1]}:{c[2]}" for c in CITED])
def test_cited_line_of_the_installed_keras(name, relative, line, text, url):
    check_cited_line("WR-330", name, relative, line, text, url)
