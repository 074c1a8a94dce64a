"""Saves, settings, statistics and online seat keys on this device (no pygame here).

Files are written atomically with a backup (`safefile`), wrapped in a versioned
envelope (`document`), and games are read back only through an allow-list
unpickler (`unpickler`). `DataStore` is the one entry point for the client.
"""

from .errors import REASONS, SaveError
from .games import FORMAT, GameSlots, decode_game, encode_game
from .paths import ENV_VAR, MODES, data_dir
from .seatkeys import SeatKey, SeatKeys
from .stats import Record, Statistics
from .store import DataStore
from .unpickler import UnsafePickle, safe_loads
from .writer import SaveWriter

__all__ = [
    "ENV_VAR", "FORMAT", "MODES", "REASONS", "DataStore", "GameSlots", "Record", "SaveError", "SaveWriter",
    "SeatKey", "SeatKeys", "Statistics", "UnsafePickle", "data_dir", "decode_game", "encode_game",
    "safe_loads",
]
