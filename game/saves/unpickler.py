"""Loading pickles that only admit the game's own classes: a save file is not trusted code.

A pickle can name any importable callable, so loading a crafted file with plain
`pickle.loads` runs whatever it asks for. `safe_loads` refuses every global except
an allow-list: the classes defined in ``game.engine`` (cards, rules, rounds, events,
actions, results…) and `random.Random` (the match's generator). No function and no
builtin is on the list (lists, dicts, sets and tuples come from pickle's own
opcodes; a callable ``list`` or ``bytearray`` would let a few bytes ask for
gigabytes), so nothing can be called but constructors of those classes, and
attribute paths (``module.a.b``) are refused outright.
"""

from __future__ import annotations

import importlib
import io
import pickle
import pkgutil
import random
from typing import Any

import game.engine


class UnsafePickle(pickle.UnpicklingError):
    """A pickle named something outside the allow-list (the file is refused, nothing ran)."""


def _engine_classes() -> dict[tuple[str, str], type]:
    allowed: dict[tuple[str, str], type] = {}
    for info in pkgutil.iter_modules(game.engine.__path__, "game.engine."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == info.name:
                allowed[(info.name, name)] = value
    return allowed


def allowed_globals() -> dict[tuple[str, str], type]:
    """Every (module, name) a save may refer to, and the class it stands for."""
    allowed = _engine_classes()
    allowed[("random", "Random")] = random.Random
    return allowed


_ALLOWED: dict[tuple[str, str], type] | None = None


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler whose `find_class` only returns allow-listed classes."""

    def find_class(self, module: str, name: str) -> Any:
        """Look ``module.name`` up in the allow-list.

        Raises:
            UnsafePickle: anything else (a function, another module, a dotted path).
        """
        global _ALLOWED
        if _ALLOWED is None:
            _ALLOWED = allowed_globals()
        found = _ALLOWED.get((module, name))
        if found is None:
            raise UnsafePickle(f"the file refers to {module}.{name}, which is not part of a saved game")
        return found

    def persistent_load(self, pid: Any) -> Any:
        """Saves hold no persistent ids.

        Raises:
            UnsafePickle: always.
        """
        raise UnsafePickle("the file uses persistent ids, which saves never do")


def safe_loads(data: bytes) -> Any:
    """Unpickle ``data`` through `RestrictedUnpickler`.

    Raises:
        UnsafePickle: the data refers to something outside the allow-list.
        pickle.UnpicklingError, EOFError, ValueError, TypeError...: damaged data.
    """
    return RestrictedUnpickler(io.BytesIO(data)).load()
