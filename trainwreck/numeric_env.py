"""The environment every number the project shows is computed in: one thread, and on x86-64 one
instruction set.

A snippet's trajectory depends on the last bit of its floating-point results, and a diverging run
magnifies that bit into a different epoch, a different count of dead units. Those bits depend on
the machine: OpenBLAS picks its matrix kernels by CPU (its Haswell kernels on an AVX2 machine,
its SkylakeX ones where there is AVX-512), and NumPy picks its loops for exp, log, tanh and the
reductions the same way (its X86_V3 build on AVX2, X86_V4 where AVX-512 is). The same snippet
printed "loss 3.738" at step 50 on one 2-core cloud machine and "loss 4.478" on another. So every
process that runs a snippet, a benchmark or a test gets one BLAS thread and, on an x86-64 machine
with AVX2 and FMA (every x86-64 server of the last ten years), the AVX2 code paths of both
libraries: the same kernels on every such machine, so the same bits. Elsewhere (an ARM laptop) the
numbers may differ in their last digits, and the pages still show the reference ones.

Set before NumPy is first imported: both libraries read these variables once, when they load.
"""
from __future__ import annotations

import platform
from pathlib import Path

ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# NumPy 2.x's names for its dispatch targets above AVX2; a name the machine lacks is ignored
AVX2_ONLY = {"OPENBLAS_CORETYPE": "Haswell", "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"}


def _has_avx2(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Does this x86-64 machine run AVX2 and FMA (forcing Haswell kernels elsewhere would crash)?"""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        flags = next((line for line in cpuinfo.read_text().splitlines() if line.startswith("flags")), "")
    except OSError:
        return False
    return {"avx2", "fma"} <= set(flags.split())


NUMERIC_ENV = {**ONE_THREAD, **(AVX2_ONLY if _has_avx2() else {})}


def apply(env=None) -> None:
    """Put the reference environment into this process's environment, where not already set: before
    NumPy is imported, it holds for this process and every child it starts."""
    import os

    target = os.environ if env is None else env
    for name, value in NUMERIC_ENV.items():
        target.setdefault(name, value)
