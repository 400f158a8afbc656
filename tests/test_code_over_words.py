"""The paste's own code over words about another model (s272/08): a PyTorch head that ends in nn.Softmax, handed to
nn.CrossEntropyLoss, is WR-130's pairing though the report says the Keras notebook it ports has "the same
Dense(104, activation='softmax') head and sparse_categorical_crossentropy" -- the pairing Keras expects, of that other
model, not this one. And a regression said to give "basically one number for every image" gives one output (s272/01)."""
from conftest import diagnosis
from trainwreck.frozen_said import one_output_said

HEAD = """```python
class FlowerNet(nn.Module):
    def __init__(self, n_classes=104):
        super().__init__()
        self.backbone = timm.create_model("efficientnet_b0", pretrained=True, num_classes=0)
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(self.backbone.num_features, n_classes),
            nn.Softmax(dim=1),
        )

    def forward(self, x):
        return self.head(self.backbone(x))

criterion = nn.CrossEntropyLoss()
```
"""
LOG = "".join(f"Epoch {k}/20 - loss: {4.62 - 0.075 * k:.4f} - val_acc: 0.{11 + 5 * k}\n" for k in range(1, 9))
KERAS_WORDS = ("The Keras notebook has the same Dense(104, activation='softmax') head and "
               "sparse_categorical_crossentropy, so I don't get why PyTorch is this much slower. The loss barely moves.\n")


def test_a_torch_pairing_in_the_code_is_read_beside_words_of_a_keras_models_pairing():
    d = diagnosis(KERAS_WORDS + HEAD + LOG)
    assert d.matches and d.matches[0].entry.id == "WR-130" and d.matches[0].parts["pairing"] > 0
    assert not any("the pairing Keras expects" in a for m in d.matches for a in m.against)
    # (the Keras model's own pairing, with no PyTorch code of the paste's: still the pairing Keras expects)
    keras_only = diagnosis(KERAS_WORDS + LOG)
    assert all(m.parts.get("pairing", 0) <= 0 for m in keras_only.matches)


def test_one_number_for_every_image_is_one_output():
    assert one_output_said("the OOF predictions are all between 36 and 40, basically one number for every image") \
        == "basically one number for every image"
    assert one_output_said("essentially a single value for all samples") == "essentially a single value for all samples"
    # (an output's shape, not its sameness)
    assert one_output_said("the model returns one value for each sample") == ""


def test_one_value_for_each_input_is_a_shape_even_with_an_adverb():
    """code_review_s72 10."""
    assert one_output_said("Its head is basically one value for each image, the predicted age") == ""
