"""A clip inside a LightningModule's training_step (s268/05): under automatic optimization Lightning calls backward()
only after training_step returns the loss, then the optimizer's step, so the clip never meets this step's gradients --
WR-240's face. Lightning clips through the Trainer's gradient_clip_val (norm by default) or
configure_gradient_clipping; under manual optimization the clip can sit between manual_backward() and step()."""
from conftest import diagnosis
from trainwreck.clip_unused import training_step_clip

MODULE = """    class Tacotron2Module(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = self.model.parse_batch(batch)
            loss = self.criterion(self.model(x), y)
            grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.log("train_loss", loss, prog_bar=True)
            return loss

        def configure_optimizers(self):
            return torch.optim.Adam(self.model.parameters(), lr=1e-3)
"""
BARS = "".join(f"Epoch 37:  {60 + k}%|██████    | {240 + 3 * k}/391 [02:50<01:47,  1.41it/s, v_num=7, train_loss={v}]\n"
               for k, v in enumerate(["0.452", "2.31", "41.7", "nan"]))


def test_a_clip_in_training_step_never_clips_an_update():
    said, fix = training_step_clip(MODULE)
    assert "clips in training_step (`clip_grad_norm_...`)" in said and "Trainer(gradient_clip_val=1.0)" in fix
    d = diagnosis("Tacotron2 ported to Lightning explodes to nan even with grad clipping\n" + MODULE + BARS)
    assert d.matches[0].entry.id == "WR-240"
    assert any("clips in training_step" in e for e in d.matches[0].evidence)


def test_a_clip_under_manual_optimization_or_outside_training_step_is_not_read():
    manual = MODULE.replace("class Tacotron2Module(pl.LightningModule):",
                            "class Tacotron2Module(pl.LightningModule):\n        automatic_optimization = False")
    assert training_step_clip(manual) is None
    hooked = MODULE.replace("            grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)\n", "") \
        + ("        def on_before_optimizer_step(self, optimizer):\n"
           "            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)\n")
    assert training_step_clip(hooked) is None
    # (a plain loop's training_step of no Lightning module is not Lightning's)
    assert training_step_clip(MODULE.replace("pl.LightningModule", "object")) is None


def test_a_hugging_face_trainers_training_step_is_not_lightnings():
    """code_review_s72 4: a Trainer subclass's training_step calls backward itself and may clip after it; a report that
    mentions Lightning does not make it a LightningModule. A clip after backward() in the block is no early clip."""
    hf = ("I ported this from PyTorch Lightning to the HF Trainer.\n"
          "class MyTrainer(Trainer):\n    def training_step(self, model, inputs, num_items_in_batch=None):\n"
          "        loss = self.compute_loss(model, inputs)\n        self.accelerator.backward(loss)\n"
          "        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n        return loss.detach()\n")
    assert training_step_clip(hf) is None
    after = MODULE.replace("            grad_norm = torch.nn.utils.clip_grad_norm_",
                           "            loss.backward()\n            grad_norm = torch.nn.utils.clip_grad_norm_")
    assert training_step_clip(after) is None
