"""The reference numeric environment (trainwreck/numeric_env.py): one BLAS thread and, on Linux x86-64 with
AVX2 and FMA, the AVX2 kernels of OpenBLAS and NumPy, whatever the machine would pick."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck import numeric_env


def test_avx2_and_fma_are_both_needed_to_pin(tmp_path, monkeypatch):
    monkeypatch.setattr(numeric_env.platform, "machine", lambda: "x86_64")
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma bmi2\n")
    assert numeric_env._has_avx2(info)
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx fma\n")      # a machine Haswell kernels would crash on
    assert not numeric_env._has_avx2(info)
    assert not numeric_env._has_avx2(tmp_path / "missing")                # not Linux
    monkeypatch.setattr(numeric_env.platform, "machine", lambda: "aarch64")
    info.write_text("flags\t\t: avx2 fma\n")
    assert not numeric_env._has_avx2(info)


@pytest.mark.skipif(not numeric_env.PINNED, reason="the kernels are pinned only on Linux x86-64 with AVX2 and FMA")
def test_a_child_gets_the_avx2_paths_and_a_users_conflicting_list_is_dropped():
    # the dispatch targets this NumPy would run above AVX2: a disabled target reads False in
    # __cpu_features__, while the single AVX-512 features inside it stay True (the CPU still has them)
    probe = ("import numpy as np; from numpy._core import _multiarray_umath as m; "
             "print(sorted(t for t in m.__cpu_dispatch__ if m.__cpu_features__.get(t) "
             "and t.startswith(('X86_V4', 'AVX512'))))")
    base = {**os.environ, "NPY_ENABLE_CPU_FEATURES": "X86_V3", "OPENBLAS_CORETYPE": "Sandybridge"}
    both = subprocess.run([sys.executable, "-c", probe], env={**base, **numeric_env.NUMERIC_ENV},
                          capture_output=True, text=True)
    assert both.returncode != 0 and "NPY_ENABLE_CPU_FEATURES" in both.stderr      # NumPy refuses both lists
    env = numeric_env.environ(base)
    assert "NPY_ENABLE_CPU_FEATURES" not in env and env["OPENBLAS_CORETYPE"] == "Haswell"
    done = subprocess.run([sys.executable, "-c", probe], env={**env, "OPENBLAS_VERBOSE": "2"},
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip().endswith("[]"), done.stderr
    # on a CPU with AVX-512 the same probe without the reference lists those targets
    free = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "NPY_DISABLE_CPU_FEATURES": ""},
                          capture_output=True, text=True)
    assert free.returncode == 0
    x86_v4 = {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}      # the x86-64-v4 level's flags
    assert (free.stdout.strip() != "[]") == (x86_v4 <= set(Path("/proc/cpuinfo").read_text().split())), free.stdout
    # on a CPU without AVX-512 that list is empty anyway; what holds everywhere: the names disabled are
    # this NumPy's own (it accepts an unknown name silently, so a misspelling would disable nothing)
    from numpy._core import _multiarray_umath as umath

    disabled = env["NPY_DISABLE_CPU_FEATURES"].split()
    assert disabled and set(disabled) <= set(umath.__cpu_features__), disabled
    assert "Core: Haswell" in done.stdout + done.stderr      # OpenBLAS says which kernels it loaded
    # and a user's other choice of kernels is replaced, not kept: OpenBLAS would have loaded it
    kept = subprocess.run([sys.executable, "-c", "import numpy"], env={**base, "OPENBLAS_VERBOSE": "2"},
                          capture_output=True, text=True)
    assert "Core: Sandybridge" in kept.stdout + kept.stderr
