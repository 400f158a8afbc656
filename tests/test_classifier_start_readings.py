"""A classifier head drawn at nn.init.normal_'s default std of 1 (s276/12): Hugging Face names the class count
`num_labels`, a report says its start as "loss starts at ~17", and an init method the module calls on itself
(`self.init_weights()`) is used -- each read, the head's weights at std 1 name WR-120 beside a start 11 times ln 5."""
from conftest import diagnosis
from trainwreck.class_count import classes_named
from trainwreck.start_loss import start_far_above_uniform
from trainwreck.weight_init import LARGE_INIT, weights_set_by

MODEL = """```python
class BioNER(nn.Module):
    def __init__(self, num_labels=5):
        super().__init__()
        self.bert = AutoModel.from_pretrained("dmis-lab/biobert-base-cased-v1.1")
        self.classifier = nn.Linear(768, num_labels)
        self.init_weights()

    def init_weights(self):
        nn.init.normal_(self.classifier.weight)
        nn.init.zeros_(self.classifier.bias)

    def forward(self, input_ids, attention_mask, labels=None):
        logits = self.classifier(self.bert(input_ids, attention_mask=attention_mask).last_hidden_state)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100), logits
```
"""
LOG = "".join(f"epoch 1 | step {s:4d} | loss {v}\n" for s, v in [(0, 16.8312), (100, 9.2047), (200, 4.8819), (300, 2.6531)])


def test_a_head_at_std_one_beside_a_start_far_above_ln_c_names_the_initialisation():
    text = "my NER model is worse than the baseline, loss starts at ~17\n" + MODEL + LOG
    assert classes_named(text) == (5, "the paste says `num_labels=5`")
    assert "(\"loss starts at ~17\"), 11 times ln 5" in start_far_above_uniform(text)
    assert weights_set_by(LARGE_INIT, text).group(0) == "init.normal_(self.classifier.weight)"
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-120" and d.matches[0].parts["large-init"] > 0


def test_an_init_function_never_called_beside_the_constructor_and_another_is_still_unused():
    """The rule the reading keeps: of two init functions, one the paste never calls is no init that ran."""
    two = MODEL.replace("        self.init_weights()\n", "        self.init_other()\n") + (
        "    def init_other(self):\n        nn.init.xavier_uniform_(self.classifier.weight)\n")
    assert weights_set_by(LARGE_INIT, two) is None


def test_a_loss_pinned_at_ln_c_is_a_model_that_learned_nothing_of_its_input():
    """(s279/01) The tutorial's `[1,  2000] loss: 6.214`, then 2.306, 2.305 ... 2.303 for CIFAR-10: a loss that sits at
    ln 10 and never went below it is a uniform guess, however high its first window was -- a run gone wrong, so the
    paste's raw pixels (PIL images made float with no division by 255) are read."""
    from trainwreck.curve_shape import pinned_at_uniform
    from trainwreck.logscan import scan_text
    values = [6.214, 2.306, 2.305, 2.304, 2.304, 2.305, 2.304, 2.303, 2.304, 2.304, 2.303, 2.304]
    log = "".join(f"[{1 + k // 6}, {2000 * (k % 6 + 1):5d}] loss: {v:.3f}\n" for k, v in enumerate(values))
    words = "Own CIFAR-10 Dataset class, stuck at 10% accuracy, with nn.CrossEntropyLoss:\n"
    assert "sits at ln 10 = 2.303" in pinned_at_uniform(scan_text(words + log))
    code = ("    def __getitem__(self, idx):\n        img = np.array(Image.open(path).convert('RGB'))\n"
            "        img = torch.tensor(img, dtype=torch.float32).permute(2, 0, 1)\n        return img, self.labels[idx]\n")
    d = diagnosis(words + code + log)
    assert d.matches and d.matches[0].entry.id == "WR-330"
    # (a loss that went below ln C has learned: not pinned, whatever it ends at)
    learned = values[:3] + [1.9, 1.7, 2.30, 2.303, 2.304, 2.303, 2.304, 2.303, 2.304]
    log2 = "".join(f"[{1 + k // 6}, {2000 * (k % 6 + 1):5d}] loss: {v:.3f}\n" for k, v in enumerate(learned))
    assert pinned_at_uniform(scan_text(words + log2)) == ""
    # (a language model's loss pinned at ln V for the vocabulary the paste names is the same guess, over its tokens: the
    # two readings of the uniform guess share one helper, _uniform_guess)
    lm = "".join(f"step {100 * k} | loss {v:.4f}\n" for k, v in enumerate([9.41] + [8.987, 8.986, 8.988] * 4))
    said = pinned_at_uniform(scan_text("My GPT-style model, vocab_size=8000, does not learn:\n" + lm))
    assert "sits at ln 8000 = 8.987, the loss of a uniform guess over the vocabulary's 8000 tokens" in said


def test_which_init_functions_ran():
    """code_review_s72b 5 and 12: of two init methods the one called on the module ran (`self.init_weights()` or
    `model.init_weights()`) and the other did not; a weight set in the constructor is set, however many helpers."""
    two = MODEL.replace("    def init_weights(self):",
                        "    def init_other(self):\n        nn.init.xavier_uniform_(self.classifier.weight)\n\n"
                        "    def init_weights(self):")
    assert weights_set_by(LARGE_INIT, two).group(0) == "init.normal_(self.classifier.weight)"
    outside = two.replace("        self.init_weights()\n", "") + "model = BioNER()\nmodel.init_weights()\n"
    assert weights_set_by(LARGE_INIT, outside) is not None
    in_ctor = ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.fc = nn.Linear(512, 10)\n        nn.init.normal_(self.fc.weight)\n\n"
               "    def init_conv(self, m):\n        pass\n\n    def init_bn(self, m):\n        pass\n")
    assert weights_set_by(LARGE_INIT, in_ctor) is not None


def test_a_healthy_runs_first_prints_at_ln_c_are_not_pinned_and_a_step_count_is_no_start():
    """code_review_s72b 6 and 3."""
    from trainwreck.curve_shape import pinned_at_uniform
    from trainwreck.logscan import scan_text
    start = "".join(f"[1, {10 * k}] loss: {2.3031 - 0.001 * k:.4f}\n" for k in range(7))
    assert pinned_at_uniform(scan_text("CIFAR-10 with nn.CrossEntropyLoss, first iterations:\n" + start)) == ""
    assert start_far_above_uniform("Fine-tuning BERT for 5-class sentiment (num_labels=5) with cross entropy. "
                                   "The loss starts around 300 steps to go up.") == ""
