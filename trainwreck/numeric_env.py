"""The environment every number the project shows is computed in: one BLAS thread and, on a Linux x86-64
machine with AVX2 and FMA, one set of kernels.

A snippet's trajectory depends on the last bits of its floating-point results, and a diverging run
magnifies those bits into a different epoch or a different count of dead units. The bits depend on
the machine. OpenBLAS picks its matrix kernels by CPU: its Haswell kernels on Zen 2/3 and on Intel
without AVX-512, its SkylakeX or Cooperlake ones where there is AVX-512. NumPy picks some of its loops
(exp and log in float32, tanh, the float64 exp and log it has only for AVX-512) by CPU as well. The
same snippet printed "0.1887" on one 2-core cloud machine and "0.2083" on another. So every process
that runs a snippet, a benchmark or a test gets one BLAS thread and, on Linux x86-64 with AVX2 and FMA,
the AVX2 paths of both libraries: the same kernels on every such machine.

That pins the kernels, not everything: with the AVX2 paths NumPy's float64 exp, log and power call the
C library's (glibc's) functions, and another NumPy, OpenBLAS or C library may round differently. The
pages' numbers come from NumPy 2.4.6 with the OpenBLAS 0.3.31 of its wheel, on glibc 2.36. Elsewhere
(an ARM laptop, macOS) the numbers may differ in their last digits, and the pages show the reference
ones.

Set before NumPy is first imported: both libraries read these variables once, when they load. They
replace what the environment had: the reference is the point.
"""
from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# NumPy's names for its dispatch targets above AVX2: microarchitecture levels from 2.4 on (its 2.4.0
# release notes), single features before; a name the machine lacks is ignored
ABOVE_AVX2 = {True: "X86_V4 AVX512_ICL AVX512_SPR",
              False: "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"}
# NumPy refuses to start when both lists are set: the reference drops a user's list of features to enable
CONFLICTING = ("NPY_ENABLE_CPU_FEATURES",)


def _has_avx2(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Is this a Linux x86-64 machine with AVX2 and FMA? (OpenBLAS does not check a core it is told to
    use: Haswell kernels on a machine without AVX2 would stop at an illegal instruction.)"""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        flags = next((line for line in cpuinfo.read_text().splitlines() if line.startswith("flags")), "")
    except OSError:
        return False
    return {"avx2", "fma"} <= set(flags.split())


def _numpy_2_4_or_later() -> bool:
    try:
        major, minor = (int(part) for part in metadata.version("numpy").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return True
    return (major, minor) >= (2, 4)


PINNED = _has_avx2()
NUMERIC_ENV = {**ONE_THREAD, **({"OPENBLAS_CORETYPE": "Haswell",
                                 "NPY_DISABLE_CPU_FEATURES": ABOVE_AVX2[_numpy_2_4_or_later()]} if PINNED else {})}
DROPPED = CONFLICTING if PINNED else ()


def apply(env=None) -> None:
    """Put the reference environment into this process's environment: before NumPy is imported, it holds
    for this process and every child it starts."""
    target = os.environ if env is None else env
    for name in DROPPED:
        target.pop(name, None)
    target.update(NUMERIC_ENV)


def environ(base=None) -> dict:
    """A copy of an environment (this process's by default) with the reference put in, for a child process."""
    env = dict(os.environ if base is None else base)
    apply(env)
    return env
