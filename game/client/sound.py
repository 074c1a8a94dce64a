"""Sound effects for the table: a board that plays them by name.

The effects are files shipped with the game, ``assets/sounds`` (found by `game.client.assets`),
made by a small synthesizer (``python -m tools.sounds --generate``; the game never imports it).
:class:`SoundBoard` loads those files into ``pygame.mixer`` and plays them by name.
Sound is a nicety, never a requirement: without an audio device, with a broken mixer
or with a missing or corrupt file the board stays silent, never raises, and says why
in :attr:`SoundBoard.problem`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pygame is loaded only when a board is built
    import pygame

RATE = 44100
"""Samples per second of every effect."""

SOUNDS_FOLDER = "sounds"
"""The shipped effects' folder among the game's assets: ``assets/sounds``."""

SOUND_NAMES: tuple[str, ...] = ("deal", "play", "draw", "shuffle", "turn", "win", "lose", "error", "click")
"""The names :meth:`SoundBoard.play` knows; each is a file ``NAME.wav``."""

MAX_SECONDS: dict[str, float] = {name: (1.2 if name == "win" else 0.8) for name in SOUND_NAMES}
"""The longest each effect may last."""


class SoundBoard:
    """Plays the effects by name through ``pygame.mixer``, or stays silent when it cannot.

    Nothing here raises: a missing audio device, a mixer that will not start, or a
    missing or corrupt file leaves that sound (or all of them) silent and the reason in
    :attr:`problem`. :attr:`last_played` and :attr:`plays` tell what actually reached the
    mixer, which is how tests (and a curious settings screen) can see mute at work.
    """

    def __init__(self, sounds_dir: Path | None = None, *, volume: float = 0.8, muted: bool = False) -> None:
        """Start the mixer if it is not running and load every ``NAME.wav`` from ``sounds_dir``.

        ``sounds_dir`` defaults to the shipped effects (`SOUNDS_FOLDER` among the game's assets).
        """
        self.problem: str | None = None
        """Why some or all sounds are silent (the latest reason), or None when all is well."""
        self.last_played: str | None = None
        """The name of the last sound handed to the mixer, or None."""
        self.plays = 0
        """How many sounds have been handed to the mixer."""
        self.unknown_names: set[str] = set()
        """Names :meth:`play` was asked for but does not know."""
        self._volume = _clamp(volume)
        self._muted = bool(muted)
        self._mixer_ok = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._start_mixer()
        if self._mixer_ok:
            self._load(Path(sounds_dir) if sounds_dir is not None else None)

    def _start_mixer(self) -> None:
        try:
            import pygame

            if pygame.mixer.get_init() is None:
                pygame.mixer.pre_init(RATE, -16, 2, 512)  # a small buffer: the snap lands with the card
                pygame.mixer.init()
            self._mixer_ok = pygame.mixer.get_init() is not None
            if not self._mixer_ok:
                self.problem = "the audio mixer did not start"
        except Exception as exc:  # no device, no driver, no pygame: play on in silence
            self.problem = f"no audio: {exc or type(exc).__name__}"

    def _load(self, sounds_dir: Path | None) -> None:
        """Load each effect from ``sounds_dir``, or (None) from the shipped ones."""
        import pygame

        from . import assets

        if sounds_dir is not None and not sounds_dir.is_dir():
            self.problem = f"no sounds: {sounds_dir} is not a directory"
            return
        missing = []
        for name in SOUND_NAMES:
            try:
                path = (sounds_dir / f"{name}.wav" if sounds_dir is not None
                        else assets.path(SOUNDS_FOLDER, f"{name}.wav"))
            except assets.MissingAsset:
                path = None
            if path is None or not path.is_file():
                missing.append(name)
                continue
            try:
                sound = pygame.mixer.Sound(str(path))
                sound.set_volume(self._volume)
            except Exception as exc:  # corrupt or unreadable: that one sound is silent
                self.problem = f"cannot load {path}: {exc or type(exc).__name__}"
                continue
            self._sounds[name] = sound
        if missing:
            where = sounds_dir if sounds_dir is not None else f"the game's {SOUNDS_FOLDER} folder"
            self.problem = f"missing in {where}: {', '.join(f'{m}.wav' for m in missing)}"

    @property
    def available(self) -> bool:
        """Whether audio works: the mixer runs and at least one sound loaded."""
        return self._mixer_ok and bool(self._sounds)

    @property
    def volume(self) -> float:
        """The volume of every sound, from 0 (silent) to 1 (full)."""
        return self._volume

    @property
    def muted(self) -> bool:
        """Whether :meth:`play` is switched off."""
        return self._muted

    def set_volume(self, volume: float) -> None:
        """Set the volume of every sound; values outside 0..1 are clamped."""
        self._volume = _clamp(volume)
        for sound in self._sounds.values():
            try:
                sound.set_volume(self._volume)
            except Exception as exc:  # a mixer that died under us
                self.problem = f"cannot set volume: {exc or type(exc).__name__}"

    def set_muted(self, muted: bool) -> None:
        """Switch sound off (stopping what is playing) or back on."""
        self._muted = bool(muted)
        if self._muted:
            for sound in self._sounds.values():
                try:
                    sound.stop()
                except Exception as exc:
                    self.problem = f"cannot stop a sound: {exc or type(exc).__name__}"

    def play(self, name: str) -> None:
        """Play effect ``name`` once; silent when muted or unavailable, and for unknown names.

        An unknown name is recorded in :attr:`unknown_names` and :attr:`problem`.
        """
        if name not in SOUND_NAMES:
            self.unknown_names.add(name)
            self.problem = f"unknown sound {name!r}; expected one of {', '.join(SOUND_NAMES)}"
            return
        sound = self._sounds.get(name)
        if self._muted or sound is None:
            return
        try:
            sound.play()
        except Exception as exc:
            self.problem = f"cannot play {name!r}: {exc or type(exc).__name__}"
            return
        self.last_played = name
        self.plays += 1


def _clamp(volume: float) -> float:
    try:
        v = float(volume)
    except (TypeError, ValueError):
        return 0.0
    return 0.0 if math.isnan(v) else min(1.0, max(0.0, v))
