"""Code that measures and looks, never shipped with the game: benchmarks, studies, screenshots.

Every module here is a command run from the root of a checkout (``python -m tools.NAME``);
CONTRIBUTING.md lists them with their flags. The game (`game`) never imports this
package, and tests/test_layering.py keeps it so.
"""
