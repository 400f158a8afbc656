"""Gradients cleared per optimizer: a loop that steps two optimizers and clears one of them on every batch, the other
only once before the loop (a GAN's generator cleared once per epoch, s263/12), carries the second's gradients from
every step of the epoch into each of its steps -- WR-260's face, as a loop that clears nothing inside does."""
from conftest import diagnosis
from trainwreck.gradient_clearing import cleared_each_step, cleared_outside

LOG = "".join(f"[Epoch 0/200] [Batch {b}/938] [D loss: {d:f}] [G loss: {g:f}]\n" for b, d, g in [
    (0, 0.694, 0.702), (50, 0.318, 1.209), (100, 0.241, 1.894), (150, 0.388, 2.732), (200, 0.521, 6.486),
    (250, 0.0047, 11.93), (400, 0.00009, 17.26), (700, 0.000002, 24.12), (937, 0.000001, 27.40)])


def loop(inside_g: str = "", outside: str = "    optimizer_G.zero_grad()\n", inside_d: str = "optimizer_D") -> str:
    return ("the generator collapses after a few hundred batches, every sample the same blob\n```python\n"
            "for epoch in range(opt.n_epochs):\n" + outside +
            "    for i, (imgs, _) in enumerate(dataloader):\n"
            "        gen_imgs = generator(z)\n"
            f"        {inside_d}.zero_grad()\n"
            "        d_loss = (real_loss + fake_loss) / 2\n"
            "        d_loss.backward()\n"
            "        optimizer_D.step()\n" + inside_g +
            "        g_loss = adversarial_loss(discriminator(gen_imgs), valid)\n"
            "        g_loss.backward()\n"
            "        optimizer_G.step()\n```\n" + LOG)


def test_the_generator_cleared_once_per_epoch_is_read_though_the_discriminator_is_cleared_each_batch():
    text = loop()
    assert cleared_outside(text) == "for i, (imgs, _) in enumerate(dataloader):"
    assert not cleared_each_step(text)            # (the clearing beside backward() is the other optimizer's)
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-260" and d.matches[0].parts["cleared-outside"] > 0
    assert "cleared" not in d.matches[0].parts


def test_each_optimizer_cleared_in_the_loop_or_a_module_cleared_there_is_not_read():
    # (the generator's optimizer cleared on every batch as well)
    assert not cleared_outside(loop(inside_g="        optimizer_G.zero_grad()\n"))
    # (a module's zero_grad in the body may be the one that clears the generator's parameters: the DCGAN tutorial's
    # netG.zero_grad())
    assert not cleared_outside(loop(inside_g="        generator.zero_grad()\n"))
    # (one optimizer only, cleared inside: no clearing outside to speak of)
    assert not cleared_outside(loop(outside=""))
    assert cleared_each_step(loop(inside_g="        optimizer_G.zero_grad()\n"))


def test_an_optimizer_stepped_and_never_cleared_beside_one_cleared_makes_the_climb_its_face():
    """(s274/07) The policy's optimizer cleared each step, the encoder's stepped and never cleared: the clearing shown
    is the other's, so the loop does not clear each step, and the climb that follows is WR-260's face (the paste shows
    the clearing it has; the one it lacks is no line left out)."""
    code = ("```python\nenc_opt = torch.optim.Adam(encoder.parameters(), lr=1e-4)\n"
            "pol_opt = torch.optim.Adam(policy.parameters(), lr=1e-3)\n\nfor step in range(total_steps):\n"
            "    pol_opt.zero_grad(set_to_none=True)\n    loss = F.mse_loss(policy(encoder(obs)), act)\n"
            "    loss.backward()\n    pol_opt.step()\n    if step >= 2000:\n        enc_opt.step()\n```\n")
    climb = "".join(f"step {2000 + 100 * k} loss {v}\n" for k, v in
                    enumerate([0.012, 0.011, 0.015, 0.031, 0.072, 0.18, 0.41, 0.95, 2.1, 4.4]))
    assert not cleared_each_step(code)
    d = diagnosis("The BC policy's loss climbs once the encoder is unfrozen.\n" + code + climb)
    assert d.matches[0].entry.id == "WR-260" and d.matches[0].parts["never-cleared"] > 0
    # (both cleared: no such face)
    both = code.replace("    pol_opt.zero_grad(set_to_none=True)\n",
                        "    pol_opt.zero_grad(set_to_none=True)\n    enc_opt.zero_grad(set_to_none=True)\n")
    assert cleared_each_step(both) and "never-cleared" not in diagnosis("x\n" + both + climb).matches[0].parts


def test_a_numpy_buffer_added_into_with_add_at_and_never_reset_is_never_cleared():
    """(s277/07) Matrix factorisation in NumPy: `gradP = np.zeros_like(P)` once, `np.add.at(gradP, u, ...)` in the batch
    loop, `P -= lr * gradP / len(batch)`: every step applies the sum of every gradient so far. A lower rate that only
    put the blow-up off (epoch 9 instead of 3) is this entry's tell, though another version ran fine at a higher rate."""
    from trainwreck.gradient_clearing import numpy_buffer_never_reset
    from trainwreck.rate_tried import lr_tried
    code = ("gradP = np.zeros_like(P)\nfor epoch in range(20):\n    for start in range(0, len(train), 256):\n"
            "        err = r - np.sum(P[u] * Q[i], axis=1)\n        np.add.at(gradP, u, -err[:, None] * Q[i])\n"
            "        P -= lr * gradP / len(batch)\n")
    assert numpy_buffer_never_reset(code) == "np.add.at(gradP, u, -err[:, None] * Q[i])"
    reset = code.replace("        err =", "        gradP[:] = 0\n        err =")
    assert numpy_buffer_never_reset(reset) == ""
    words = ("My per-sample SGD version works fine with lr=0.01. The mini-batch one first improves and then explodes. "
             "I tried lr=0.001 and then it just explodes later (epoch 9 instead of 3).\n")
    assert lr_tried(words) == "delayed"
    log = "".join(f"epoch {k}: train rmse {v}\n" for k, v in enumerate(["2.9114", "1.3402", "6.8157", "312.0467", "nan"], 1))
    assert diagnosis(words + "```python\n" + code + "```\n" + log).matches[0].entry.id == "WR-260"


def test_a_buffer_added_into_at_rows_is_stepped_and_reset_at_rows_too():
    """code_review_s72b 4: `gradP[u] = 0` resets the rows np.add.at added into; `P[u] -= lr * gradP[u]` steps with them."""
    from trainwreck.gradient_clearing import numpy_buffer_never_reset
    head = "gradP = np.zeros_like(P)\nfor epoch in range(20):\n    for s in range(0, n, 256):\n        np.add.at(gradP, u, g)\n"
    assert numpy_buffer_never_reset(head + "        P -= lr * gradP / len(u)\n        gradP[u] = 0\n") == ""
    assert numpy_buffer_never_reset(head + "        P[u] -= lr * gradP[u]\n") == "np.add.at(gradP, u, g)"


def test_a_higher_rate_that_broke_later_is_no_lower_rate_putting_it_off():
    """code_review_s72b 2: 0.01 broke at epoch 3 and 0.03 only later -- the lower rate did not help."""
    from trainwreck.rate_tried import lr_tried
    assert lr_tried("With lr=0.1 it trains fine. With lr=0.01 it explodes at epoch 3. "
                    "With lr=0.03 it explodes too, just later.") == "failed"


PIX2PIX = ("pix2pix from scratch: the discriminator ends up calling every fake real, D fake loss keeps climbing\n"
           "```python\nfor epoch in range(n_epochs):\n    for i, (real_A, real_B) in enumerate(loader):\n"
           "        optimizer_G.zero_grad()\n        optimizer_D.zero_grad()\n"
           "        fake_B = G(real_A)\n        pred_fake = D(torch.cat([real_A, fake_B], 1))\n"
           "        loss_G = criterion_GAN(pred_fake, torch.ones_like(pred_fake)) + 100 * criterion_L1(fake_B, real_B)\n"
           "        loss_G.backward()\n        optimizer_G.step()\n"
           "        pred_fake = D(torch.cat([real_A, fake_B.detach()], 1))\n"
           "        loss_D = 0.5 * (real_loss + criterion_GAN(pred_fake, torch.zeros_like(pred_fake)))\n"
           "        loss_D.backward()\n        optimizer_D.step()\n```\n" + LOG)


def test_a_gan_loop_that_clears_the_discriminator_only_before_the_generator_s_backward_carries_it_into_d_s_step():
    """Both optimizers cleared at the top, the generator's loss (computed through D) backward, G's step, then D's own
    backward and step: D's step applies loss_G's gradient too (WR-260's page). Not where D is cleared again before its
    own backward, nor where the paste freezes D for G's step, nor where D goes first (its step precedes G's backward)."""
    from trainwreck.gradient_clearing import carried_into_the_discriminator

    assert carried_into_the_discriminator(PIX2PIX) == ("optimizer_D", "loss_G", "optimizer_G")
    d = diagnosis(PIX2PIX)
    assert d.matches[0].entry.id == "WR-260" and d.matches[0].parts["cleared-outside"] > 0
    assert "`optimizer_D`'s step follows the sum, and `loss_G`'s part pulls it toward calling the fakes real" \
        in " ".join(d.matches[0].evidence)
    assert "cleared" not in d.matches[0].parts          # (no "clears beside backward()" against it: code_review_s76 4)
    cleared_again = PIX2PIX.replace("        loss_D.backward()", "        optimizer_D.zero_grad()\n        loss_D.backward()")
    assert carried_into_the_discriminator(cleared_again) is None
    assert carried_into_the_discriminator(PIX2PIX.replace("        fake_B = G(real_A)",
                                                          "        set_requires_grad(D, False)\n        fake_B = G(real_A)")) is None
    module_cleared = PIX2PIX.replace("        loss_D.backward()", "        D.zero_grad()\n        loss_D.backward()")
    assert carried_into_the_discriminator(module_cleared) is None
    d_first = ("```python\nfor real, z in loader:\n    opt_d.zero_grad()\n    opt_g.zero_grad()\n"
               "    d_loss = bce(D(real), ones) + bce(D(G(z).detach()), zeros)\n    d_loss.backward()\n    opt_d.step()\n"
               "    g_loss = bce(D(G(z)), ones)\n    g_loss.backward()\n    opt_g.step()\n```\n")
    assert carried_into_the_discriminator(d_first) is None
    # (code_review_s76 4: the generator's backward told which leaves to fill, BigGAN's toggle_grad or a helper that
    # freezes D, and a paste that names no GAN -- an autoencoder's encoder and decoder optimizers)
    for other in (PIX2PIX.replace("loss_G.backward()", "loss_G.backward(inputs=list(G.parameters()))"),
                  PIX2PIX.replace("        fake_B = G(real_A)", "        toggle_grad(D, False)\n        fake_B = G(real_A)"),
                  PIX2PIX.replace("        fake_B = G(real_A)", "        requires_grad(D, False)\n        fake_B = G(real_A)")):
        assert carried_into_the_discriminator(other) is None, other
    autoencoder = ("```python\nfor x in loader:\n    opt_e.zero_grad()\n    opt_d.zero_grad()\n    z = enc(x)\n"
                   "    kl.backward(retain_graph=True)\n    opt_e.step()\n    rec = mse(dec(z), x)\n    rec.backward()\n"
                   "    opt_d.step()\n```\n")
    assert carried_into_the_discriminator(autoencoder) is None
    # (final_review_s76 3: the gate is the discriminator called before the first backward, not words -- an autoencoder
    # said to be a GAN's stays out, an actor-critic loop whose actor's loss runs through the critic comes in; a freeze
    # counts only of the discriminator itself, not of a perceptual loss's VGG)
    assert carried_into_the_discriminator(autoencoder.replace("```python", "my GAN's discriminator\n```python")) is None
    ddpg = ("```python\nfor s, a, r, s2 in replay:\n    actor_opt.zero_grad()\n    critic_opt.zero_grad()\n"
            "    actor_loss = -critic(s, actor(s)).mean()\n    actor_loss.backward()\n    actor_opt.step()\n"
            "    critic_loss = F.mse_loss(critic(s, a), target)\n    critic_loss.backward()\n    critic_opt.step()\n```\n")
    assert carried_into_the_discriminator(ddpg) == ("critic_opt", "actor_loss", "actor_opt")
    vgg = PIX2PIX.replace("```python\n", "```python\nvgg.requires_grad_(False)\n", 1)
    assert carried_into_the_discriminator(vgg) == ("optimizer_D", "loss_G", "optimizer_G")
    looped_off = PIX2PIX.replace("        fake_B = G(real_A)",
                                 "        for p in D.parameters(): p.requires_grad = False\n        fake_B = G(real_A)")
    assert carried_into_the_discriminator(looped_off) is None
    # (mends_review_s76 6: a loop that freezes D by its iterable's method; a freeze that switches D on, or one outside
    # the span from D's clearing to the first backward, is none; D by a longer name, or handed to a helper)
    looped_method = PIX2PIX.replace("        fake_B = G(real_A)", "        for p in D.parameters():\n"
                                    "            p.requires_grad_(False)\n        fake_B = G(real_A)")
    assert carried_into_the_discriminator(looped_method) is None
    for kept in (PIX2PIX.replace("        fake_B = G(real_A)", "        set_requires_grad(D, True)\n        fake_B = G(real_A)"),
                 PIX2PIX + "def evaluate():\n    D.requires_grad_(False)\n",
                 PIX2PIX.replace("D(torch.cat", "netD_A(torch.cat"),
                 PIX2PIX.replace("pred_fake = D(torch.cat([real_A, fake_B], 1))\n",
                                 "pred_fake = judge(D, torch.cat([real_A, fake_B], 1))\n", 1)):
        assert carried_into_the_discriminator(kept) == ("optimizer_D", "loss_G", "optimizer_G"), kept
    # (a long run of word characters costs no more than its length: the freeze's names are bounded)
    import time
    start = time.perf_counter()
    carried_into_the_discriminator(PIX2PIX + "token = '" + "a" * 20000 + "'\nvgg.requires_grad_(False)\n")
    assert time.perf_counter() - start < 0.5
    kept = PIX2PIX.replace("optimizer_D", "self.d_optim").replace("optimizer_G", "self.g_optim")
    assert carried_into_the_discriminator(kept) == ("self.d_optim", "loss_G", "self.g_optim")
