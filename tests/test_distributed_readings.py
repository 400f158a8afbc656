"""What a distributed loop's paste shows: gradient accumulation under a flag set from the step's count, as a DDP loop
writes it to skip the all-reduce on the other micro-batches."""
from conftest import diagnosis
from trainwreck.gradient_clearing import accumulated_undivided

LOOP = ("optimizer = torch.optim.SGD(model.parameters(), lr=2.4, momentum=0.9)\n"
        "for i, (x, y) in enumerate(loader):\n"
        "    sync = (i + 1) % args.accum_steps == 0\n"
        "    ctx = nullcontext() if sync else model.no_sync()\n"
        "    with ctx:\n"
        "        loss = criterion(model(x), y)\n"
        "        loss.backward()\n"
        "    if sync:\n"
        "        optimizer.step()\n"
        "        optimizer.zero_grad(set_to_none=True)\n")
CURVE = "".join(f"step {200 * k} loss {v}\n" for k, v in enumerate(
    ("6.9371", "6.8120", "6.7744", "6.9918", "7.4410", "8.6203", "11.093", "nan")))


def test_accumulation_under_a_flag_set_from_the_count_is_read_and_divided_losses_are_not():
    """`sync = (i + 1) % accum == 0`, backward() on every micro-batch, `if sync: optimizer.step()`: SGD steps with
    the sum of accum_steps gradients, accum_steps times the rate -- the accumulating entry among the candidates of the
    climb, with its own fix. Divided by the count, or backward() only inside the flag's block, it is not."""
    assert accumulated_undivided(LOOP) == "args.accum_steps"
    d = diagnosis(LOOP + CURVE)
    ids = [m.entry.id for m in d.matches]
    assert "WR-260" in ids[:2] and "WR-220" in ids[:2]
    top = next(m for m in d.matches if m.entry.id == "WR-260")
    assert top.parts["accumulated-undivided"] == 1.0
    assert top.fix.startswith("Divide each micro-batch's loss by `args.accum_steps` before backward()")
    assert accumulated_undivided(LOOP.replace("loss.backward()", "(loss / args.accum_steps).backward()")) == ""
    inside = LOOP.replace("        loss.backward()\n", "").replace("    if sync:\n", "    if sync:\n        loss.backward()\n")
    assert accumulated_undivided(inside) == ""
    # (a flag that only prints is no accumulation)
    assert accumulated_undivided(LOOP.replace("        optimizer.step()\n", "        print(loss.item())\n")) == ""
