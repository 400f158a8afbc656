"""WR-220's network and hand-written loss as a JAX program, the step three opt-in framework checks
start from. Imported in the JAX interpreter, with snippets/ on its path; never by pytest itself."""
import jax
import jax.numpy as jnp

import wr220_lr_explosion as w220


def hand_written_step(rate: float = 10.0):
    """The hand-written loss, its jitted value-and-gradient step, the loss at the initial weights and
    the weights one step at `rate` later. Taking that step compiles the jitted step on finite weights."""
    X, y = (jnp.asarray(a, jnp.float32) for a in w220.make_data())
    p0 = {k: jnp.asarray(v, jnp.float32) for k, v in w220.init_params().items()}

    def hand(p):
        q = jax.nn.sigmoid(jax.nn.relu(X @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
        return -jnp.mean(y * jnp.log(q) + (1 - y) * jnp.log(1 - q))

    step = jax.jit(jax.value_and_grad(hand))
    loss0, g = step(p0)
    p1 = jax.tree_util.tree_map(lambda a, d: a - rate * d, p0, g)
    return hand, step, loss0, p1
