"""The generated sound effects are sound, and the SoundBoard plays them or stays quietly silent."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import wave
from array import array
from pathlib import Path

os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.client import assets  # noqa: E402
from game.client.sound import (  # noqa: E402
    MAX_SECONDS,
    SOUND_NAMES,
    SOUNDS_FOLDER,
    SoundBoard,
)
from tools.sounds import SOURCE_SOUNDS, generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _read(path: Path) -> tuple[int, int, int, array[int]]:
    """Channels, bytes per sample, sample rate and samples of a WAV file."""
    with wave.open(str(path), "rb") as wav:
        shape = (wav.getnchannels(), wav.getsampwidth(), wav.getframerate())
        frames = array("h", wav.readframes(wav.getnframes()))
    if sys.byteorder == "big":
        frames.byteswap()
    return (*shape, frames)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return generate(tmp_path_factory.mktemp("sounds"))


def test_generate_writes_all_nine_effects(generated: list[Path]) -> None:
    assert len(SOUND_NAMES) == 9
    assert sorted(p.name for p in generated) == sorted(f"{n}.wav" for n in SOUND_NAMES)
    assert all(p.is_file() for p in generated)


def test_every_effect_is_a_mono_16_bit_44100_hz_wav(generated: list[Path]) -> None:
    for path in generated:
        channels, width, rate, _ = _read(path)
        assert (channels, width, rate) == (1, 2, 44100), path.name


def test_every_effect_is_short_enough(generated: list[Path]) -> None:
    for path in generated:
        _, _, rate, frames = _read(path)
        seconds = len(frames) / rate
        assert 0.02 < seconds <= MAX_SECONDS[path.stem], (path.name, seconds)
    assert max(MAX_SECONDS.values()) == 1.2 and MAX_SECONDS["win"] == 1.2 and MAX_SECONDS["deal"] == 0.8


def test_every_effect_is_audible_without_clipping(generated: list[Path]) -> None:
    for path in generated:
        *_, frames = _read(path)
        peak_db = 20 * math.log10(max(abs(x) for x in frames) / 32768)
        assert -6.0 <= peak_db <= -1.0, (path.name, peak_db)


def test_every_effect_starts_and_ends_at_silence(generated: list[Path]) -> None:
    for path in generated:
        *_, frames = _read(path)
        assert abs(frames[0]) < 50 and abs(frames[-1]) < 50, path.name


def test_generation_is_deterministic(generated: list[Path], tmp_path: Path) -> None:
    again = generate(tmp_path)
    for first, second in zip(generated, again, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name


def test_committed_sounds_equal_a_fresh_generation(generated: list[Path]) -> None:
    for path in generated:
        committed = SOURCE_SOUNDS / path.name
        assert committed.is_file(), f"{committed} is missing: run python -m tools.sounds --generate"
        assert assets.path(SOUNDS_FOLDER, path.name).resolve() == committed  # the game plays these
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} differs from the generator: run python -m tools.sounds --generate"
        )


def test_the_command_line_regenerates_into_a_directory(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tools.sounds", "--generate", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(p.stem for p in tmp_path.glob("*.wav")) == sorted(SOUND_NAMES)
    assert "dBFS" in done.stdout


def test_generating_needs_no_pygame() -> None:
    code = "import sys, tools.sounds; sys.exit(1 if 'pygame' in sys.modules else 0)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_soundboard_plays_every_effect_with_the_dummy_driver(generated: list[Path]) -> None:
    board = SoundBoard(generated[0].parent)
    assert board.available, board.problem
    assert board.problem is None
    for name in SOUND_NAMES:
        board.play(name)
        assert board.last_played == name
    assert board.plays == len(SOUND_NAMES)


def test_soundboard_uses_the_committed_sounds_by_default() -> None:
    board = SoundBoard()
    assert board.available, board.problem
    board.play("deal")
    assert board.last_played == "deal"


def test_soundboard_without_its_directory_stays_silent(tmp_path: Path) -> None:
    board = SoundBoard(tmp_path / "nowhere")
    assert not board.available
    assert board.problem is not None and "nowhere" in board.problem
    for name in SOUND_NAMES:
        board.play(name)
    assert board.last_played is None and board.plays == 0


def test_soundboard_with_a_corrupt_wav_stays_silent_for_it(generated: list[Path], tmp_path: Path) -> None:
    for path in generated:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "play.wav").write_bytes(b"RIFF\x00\x00\x00\x00WAVEnot really a sound")
    board = SoundBoard(tmp_path)
    assert board.problem is not None and "play.wav" in board.problem
    board.play("play")
    assert board.last_played is None and board.plays == 0
    board.play("deal")  # the others still work
    assert board.last_played == "deal"


def test_soundboard_with_only_corrupt_files_is_unavailable(tmp_path: Path) -> None:
    for name in SOUND_NAMES:
        (tmp_path / f"{name}.wav").write_bytes(b"\x00garbage" * 10)
    board = SoundBoard(tmp_path)
    assert not board.available
    assert board.problem is not None
    board.play("win")
    assert board.plays == 0


def test_soundboard_with_a_missing_file_names_it(generated: list[Path], tmp_path: Path) -> None:
    for path in generated:
        if path.stem != "shuffle":
            (tmp_path / path.name).write_bytes(path.read_bytes())
    board = SoundBoard(tmp_path)
    assert board.available
    assert board.problem is not None and "shuffle.wav" in board.problem
    board.play("shuffle")
    assert board.plays == 0


def test_soundboard_without_an_audio_device_stays_silent(
    generated: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    pygame.mixer.quit()
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    board = SoundBoard(generated[0].parent)
    assert not board.available
    assert board.problem is not None and "No available audio device" in board.problem
    board.play("win")
    board.set_volume(0.3)
    board.set_muted(True)
    board.set_muted(False)
    assert board.last_played is None and board.plays == 0


def test_unknown_name_is_ignored_but_recorded(generated: list[Path]) -> None:
    board = SoundBoard(generated[0].parent)
    board.play("trumpet")
    assert board.last_played is None and board.plays == 0
    assert "trumpet" in board.unknown_names
    assert board.problem is not None and "trumpet" in board.problem


def test_volume_clamps_to_zero_and_one(generated: list[Path]) -> None:
    board = SoundBoard(generated[0].parent, volume=3.0)
    assert board.volume == 1.0
    board.set_volume(-0.5)
    assert board.volume == 0.0
    board.set_volume(0.25)
    assert board.volume == 0.25
    board.set_volume(float("nan"))
    assert board.volume == 0.0


def test_volume_applies_to_every_sound(generated: list[Path]) -> None:
    board = SoundBoard(generated[0].parent)
    board.set_volume(0.5)
    volumes = [sound.get_volume() for sound in board._sounds.values()]
    assert len(volumes) == len(SOUND_NAMES)
    assert all(abs(v - 0.5) < 0.01 for v in volumes)


def test_muted_board_plays_nothing(generated: list[Path]) -> None:
    board = SoundBoard(generated[0].parent, muted=True)
    assert board.muted
    board.play("deal")
    assert board.last_played is None and board.plays == 0
    board.set_muted(False)
    assert not board.muted
    board.play("deal")
    assert board.last_played == "deal" and board.plays == 1
    board.set_muted(True)
    board.play("win")
    assert board.last_played == "deal" and board.plays == 1
