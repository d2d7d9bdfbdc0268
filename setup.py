"""Build hook for the optional C accelerators; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "majiang.hand._speedups",
            ["majiang/hand/_speedups.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "majiang.engine._speedups",
            ["majiang/engine/_speedups.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "majiang.rl._encode",
            ["majiang/rl/_encode.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
    ]
)
