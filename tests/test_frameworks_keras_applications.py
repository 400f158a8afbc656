"""Opt-in: which keras.applications models scale their own input, as trainwreck/data_values.py's SCALES_ITSELF and
APPLICATION_NAMED say, checked on the installed Keras (3.15.1 in the scratch interpreter): the layers each model builds,
and the mode its preprocess_input takes.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in /work/scratch/tf/bin/python (or TRAINWRECK_TF_PYTHON)."""
import re

from framework_runner import OPT_IN, keras
from trainwreck.data_values import APPLICATION_NAMED, CAFFE_MODE, SCALES_ITSELF

pytestmark = OPT_IN

MODELS = ["MobileNet", "MobileNetV2", "MobileNetV3Small", "ResNet50", "ResNet50V2", "VGG16", "Xception", "InceptionV3",
          "DenseNet121", "NASNetMobile", "EfficientNetB0", "EfficientNetV2B0", "ConvNeXtTiny"]


def test_which_applications_scale_their_own_input_and_what_the_others_take():
    out = keras("tensorflow", f"""
        import inspect, json, re, keras
        from keras import applications as A
        found = {{}}
        for name in {MODELS!r}:
            size = 224 if name.startswith("NASNet") else 96
            model = getattr(A, name)(weights=None, include_top=False, input_shape=(size, size, 3))
            layers = sorted({{type(l).__name__ for l in model.layers}} & {{"Rescaling", "Normalization"}})
            module = inspect.getmodule(getattr(A, name))
            mode = re.search(r'mode="(\\w+)"', inspect.getsource(module.preprocess_input))
            found[name] = {{"layers": layers, "mode": mode.group(1) if mode else None}}
        print(json.dumps({{"version": keras.__version__, "found": found}}))
    """)
    scale_themselves = {n for n, f in out["found"].items() if f["layers"]}
    assert scale_themselves == {"MobileNetV3Small", "EfficientNetB0", "EfficientNetV2B0", "ConvNeXtTiny"}
    for name, f in out["found"].items():
        named = bool(APPLICATION_NAMED.fullmatch(name))
        # the reading's three sets agree with the installed Keras: built-in scaling; [-1, 1] or torch mode; caffe mode
        if name in scale_themselves:
            assert SCALES_ITSELF.fullmatch(name), name
        elif f["mode"] == "caffe":
            assert CAFFE_MODE.fullmatch(name) and not named, name
        else:
            assert f["mode"] in ("tf", "torch") and named and not CAFFE_MODE.fullmatch(name), (name, f)
