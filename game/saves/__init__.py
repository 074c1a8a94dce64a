"""Saves, settings, statistics, online seat keys and the player key on this device (no pygame here).

Files are written atomically with a backup (`safefile`), wrapped in a versioned
envelope (`document`), and games are read back only through an allow-list
unpickler (`unpickler`). `DataStore` is the one entry point for the client.
"""

from .errors import REASONS, SaveError
from .games import FORMAT, GameSlots, decode_game, encode_game
from .paths import ENV_VAR, MODES, data_dir
from .player import AVATARS, Player, PlayerFile, Standing
from .seatkeys import SeatKey, SeatKeys
from .stats import Record, Statistics
from .store import DataStore
from .unpickler import UnsafePickle, safe_loads
from .writer import SaveWriter

__all__ = [
    "AVATARS", "ENV_VAR", "FORMAT", "MODES", "REASONS", "DataStore", "GameSlots", "Player", "PlayerFile",
    "Record", "SaveError", "SaveWriter", "SeatKey", "SeatKeys", "Standing", "Statistics", "UnsafePickle",
    "data_dir", "decode_game", "encode_game", "safe_loads",
]
