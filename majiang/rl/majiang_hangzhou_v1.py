"""The hangzhou environments, encoding v1, as a PettingZoo-style module: ``env()``,
``raw_env()``, ``parallel_env()`` take the keywords of ``majiang.rl.env`` but the variant."""

from majiang.rl.aec import variant_functions

__all__ = ["env", "parallel_env", "raw_env"]

env, raw_env, parallel_env = variant_functions("hangzhou")
