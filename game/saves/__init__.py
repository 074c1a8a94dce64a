"""Saves, settings, statistics, online seat keys and the player key on this device (no pygame here).

Files are written atomically with a backup (`safefile`), wrapped in a versioned
envelope (`document`). Games are plain data (`games`), read only after a scan of the
pickle and with an unpickler that admits no class (`unpickler`); older format-1 games
are upgraded (`format1`). `DataStore` is the one entry point for the client.
"""

from .errors import REASONS, SaveError, WriteProblem
from .games import FORMAT, GameSlots, SavedSeat, SavedTable, decode_game, encode_game
from .paths import ENV_VAR, MODES, data_dir
from .player import Player, PlayerFile, Standing
from .seatkeys import SeatKey, SeatKeys
from .stats import Record, Statistics
from .store import DataStore
from .unpickler import MalformedPickle, UnsafePickle, plain_dumps, plain_loads
from .writer import SaveWriter

__all__ = [
    "ENV_VAR", "FORMAT", "MODES", "REASONS", "DataStore", "GameSlots", "MalformedPickle", "Player",
    "PlayerFile", "Record", "SaveError", "SaveWriter", "SavedSeat", "SavedTable", "SeatKey", "SeatKeys",
    "Standing", "Statistics", "UnsafePickle", "WriteProblem", "data_dir", "decode_game", "encode_game",
    "plain_dumps", "plain_loads",
]
