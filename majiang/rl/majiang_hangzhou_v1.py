"""The hangzhou environments, encoding v1, as a PettingZoo-style module: ``env()``,
``raw_env()``, ``parallel_env()`` take the keywords of ``majiang.rl.env`` but the variant."""

from majiang.rl.aec import variant_functions

__all__ = ["env", "parallel_env", "raw_env"]

# the variant is the module's name, majiang_<variant>_v1 (the PettingZoo env id)
env, raw_env, parallel_env = variant_functions(__name__.rsplit(".", 1)[-1].split("_")[1])
