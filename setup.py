"""The one part of the build pyproject.toml cannot say: durable-rules' C core, compiled into the package.

The project carries durable-rules 2.0.28's source in vendor/durable-rules (see
vendor/durable-rules/VENDORED.md): its Python half is the package
``rulings._durable`` (pyproject.toml, package-dir) and its C half the extension
``rulings._durable.durable_rules_engine``, built here by the ordinary
``pip install``. Everything else about the build is in pyproject.toml.
"""
from setuptools import Extension, setup

CORE = "vendor/durable-rules/src/rules"

setup(ext_modules=[Extension(
    "rulings._durable.durable_rules_engine",
    sources=[f"{CORE}/{name}.c" for name in ("json", "rete", "state", "events", "regex")]
    + ["vendor/durable-rules/src/rulespy/rules.c"],
    include_dirs=[CORE],
    depends=[f"{CORE}/{name}.h" for name in ("json", "rete", "state", "rules", "regex")],
    extra_compile_args=["-std=c99", "-D_GNU_SOURCE"],   # as durable-rules' own setup.py sets them
)])
