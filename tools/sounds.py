"""The sound effects' synthesizer: ``python -m tools.sounds --generate [OUTDIR]``.

The effects are not recordings: :func:`generate` builds each one from sine waves and
seeded noise (standard library only) and writes it as a 16-bit mono 44.1 kHz WAV, so
this script is the source of truth for ``assets/sounds`` (shipped in the wheel as ``game/assets``).
The game itself only plays the files (`game.client.sound.SoundBoard`); it never imports
this module.
"""

from __future__ import annotations

import argparse
import math
import sys
import wave
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random

from game.client.sound import RATE, SOUND_NAMES, SOUNDS_FOLDER

SOURCE_SOUNDS = Path(__file__).resolve().parents[1] / "assets" / SOUNDS_FOLDER
"""Where the committed effects live in a checkout (tools run only from one): what the wheel ships."""

PEAK_DBFS = -3.0
"""Where every effect's loudest sample sits, in dB below full scale."""

SEED = 8
"""Seed of the noise; each effect draws from its own ``Random(f"{SEED}:{name}")``."""

Signal = list[float]

# ---------------------------------------------------------------------------------------
# Building blocks. A signal is a list of floats around 0; loudness is fixed at the end.


def _samples(seconds: float) -> int:
    return round(seconds * RATE)


def _silence(seconds: float) -> Signal:
    return [0.0] * _samples(seconds)


def _mix(into: Signal, sound: Signal, at: float = 0.0, gain: float = 1.0) -> None:
    """Add ``sound`` into ``into`` starting ``at`` seconds; what overruns the end is cut."""
    start = _samples(at)
    for i, x in enumerate(sound[: max(0, len(into) - start)]):
        into[start + i] += gain * x


def _noise(rng: Random, seconds: float) -> Signal:
    return [rng.uniform(-1.0, 1.0) for _ in range(_samples(seconds))]


def _lowpass(xs: Signal, cutoff: float) -> Signal:
    """One-pole low-pass: gentle, and cheap enough for pure Python."""
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff / RATE)
    out, y = [], 0.0
    for x in xs:
        y += a * (x - y)
        out.append(y)
    return out


def _highpass(xs: Signal, cutoff: float) -> Signal:
    low = _lowpass(xs, cutoff)
    return [x - lo for x, lo in zip(xs, low, strict=True)]


def _band(xs: Signal, low: float, high: float) -> Signal:
    return _lowpass(_lowpass(_highpass(xs, low), high), high)


def _shape(xs: Signal, attack: float, decay: float) -> Signal:
    """A raised-cosine attack of ``attack`` s, then exponential decay with time constant ``decay`` s."""
    n_attack = max(1, _samples(attack))
    out = []
    for i, x in enumerate(xs):
        if i < n_attack:
            g = 0.5 - 0.5 * math.cos(math.pi * i / n_attack)
        else:
            g = math.exp(-(i - n_attack) / (decay * RATE))
        out.append(x * g)
    return out


def _hump(xs: Signal) -> Signal:
    """Swell and fade over the whole signal (half a sine): a breath, not a hit."""
    n = len(xs)
    return [x * math.sin(math.pi * i / n) for i, x in enumerate(xs)]


def _glide(start_hz: float, end_hz: float, seconds: float, partials: Sequence[tuple[float, float]]) -> Signal:
    """A tone whose pitch slides exponentially; ``partials`` are (multiple, level) pairs."""
    n = _samples(seconds)
    out, phase = [], 0.0
    for i in range(n):
        freq = start_hz * (end_hz / start_hz) ** (i / n)
        phase += 2.0 * math.pi * freq / RATE
        out.append(sum(level * math.sin(k * phase) for k, level in partials))
    return out


def _note(freq: float, seconds: float, decay: float, partials: Sequence[tuple[float, float, float]],
          attack: float = 0.004) -> Signal:
    """A struck tone: each partial is (multiple, level, decay scale) so the highs die first."""
    n_attack = max(1, _samples(attack))
    out = []
    for i in range(_samples(seconds)):
        t = i / RATE
        rise = 0.5 - 0.5 * math.cos(math.pi * i / n_attack) if i < n_attack else 1.0
        x = sum(level * math.exp(-t / (decay * scale)) * math.sin(2.0 * math.pi * freq * k * t)
                for k, level, scale in partials)
        out.append(rise * x)
    return out


BELL = ((1.0, 1.0, 1.0), (2.0, 0.35, 0.5), (3.0, 0.12, 0.3), (4.2, 0.05, 0.2))
SOFT = ((1.0, 1.0, 1.0), (3.0, 0.11, 0.6), (5.0, 0.04, 0.4))  # triangle-like: warm, not bright


def _hz(midi: int) -> float:
    return float(440.0 * 2.0 ** ((midi - 69) / 12))


# ---------------------------------------------------------------------------------------
# The effects. Each takes its own seeded Random and returns an unscaled signal.


def _deal(rng: Random) -> Signal:
    out = _silence(0.2)
    _mix(out, _hump(_band(_noise(rng, 0.08), 700.0, 4000.0)), 0.0, 0.35)  # the card through the air
    _mix(out, _shape(_band(_noise(rng, 0.12), 1800.0, 7000.0), 0.0015, 0.018), 0.055)  # the flick
    return out


def _play(rng: Random) -> Signal:
    out = _silence(0.26)
    _mix(out, _shape(_lowpass(_noise(rng, 0.1), 6000.0), 0.001, 0.010))  # the snap
    _mix(out, _shape(_band(_noise(rng, 0.2), 150.0, 1100.0), 0.002, 0.035), 0.0, 1.6)  # the slap
    _mix(out, _shape(_glide(150.0, 85.0, 0.22, ((1.0, 1.0),)), 0.003, 0.045), 0.0, 0.45)  # the table
    return out


def _draw(rng: Random) -> Signal:
    seconds = 0.42
    swish = _band(_noise(rng, seconds), 900.0, 3500.0)
    rough = [0.8 + 0.2 * math.sin(2.0 * math.pi * 27.0 * i / RATE) for i in range(len(swish))]
    slide = [x * r for x, r in zip(_hump(_hump(swish)), rough, strict=True)]
    out = _silence(seconds)
    _mix(out, slide)
    return out


def _shuffle(rng: Random) -> Signal:
    out = _silence(0.6)
    _mix(out, _hump(_lowpass(_highpass(_noise(rng, 0.55), 300.0), 2000.0)), 0.0, 0.12)  # the bed
    at = 0.03
    for _ in range(12):  # the riffle: one tick per card edge, a little uneven like real hands
        tick = _shape(_band(_noise(rng, 0.02), 2000.0, 9000.0), 0.0005, 0.003)
        _mix(out, tick, at, rng.uniform(0.6, 1.0))
        at += rng.uniform(0.03, 0.045)
    return out


def _turn(rng: Random) -> Signal:
    out = _silence(0.75)
    _mix(out, _note(_hz(79), 0.7, 0.2, BELL, 0.006), 0.0, 0.8)  # G5
    _mix(out, _note(_hz(84), 0.61, 0.2, BELL, 0.006), 0.14)  # C6: up a fourth, a question
    return out


def _win(rng: Random) -> Signal:
    out = _silence(1.15)
    for step, midi in enumerate((72, 76, 79)):  # C5 E5 G5
        _mix(out, _note(_hz(midi), 0.6, 0.2, BELL), 0.09 * step, 0.75)
    _mix(out, _note(_hz(84), 0.88, 0.35, BELL), 0.27)  # C6, held
    _mix(out, _note(_hz(88), 0.88, 0.35, BELL), 0.27, 0.4)  # and E6 above it
    return out


def _lose(rng: Random) -> Signal:
    out = _silence(0.75)
    _mix(out, _note(_hz(67), 0.5, 0.16, SOFT, 0.01), 0.0)  # G4
    _mix(out, _note(_hz(63), 0.53, 0.2, SOFT, 0.01), 0.22, 0.85)  # E-flat 4: down a major third, deflated
    return out


def _error(rng: Random) -> Signal:
    out = _silence(0.24)
    _mix(out, _shape(_glide(190.0, 120.0, 0.24, ((1.0, 1.0), (2.0, 0.2))), 0.008, 0.05))
    return out


def _click(rng: Random) -> Signal:
    out = _silence(0.05)
    _mix(out, _shape(_glide(2100.0, 1700.0, 0.05, ((1.0, 1.0),)), 0.0008, 0.007))
    _mix(out, _shape(_highpass(_noise(rng, 0.02), 3000.0), 0.0005, 0.002), 0.0, 0.4)
    return out


EFFECTS: dict[str, Callable[[Random], Signal]] = {
    "deal": _deal,
    "play": _play,
    "draw": _draw,
    "shuffle": _shuffle,
    "turn": _turn,
    "win": _win,
    "lose": _lose,
    "error": _error,
    "click": _click,
}
"""Every effect by name, as the synthesizer that makes it."""

assert tuple(EFFECTS) == SOUND_NAMES, "every sound the board plays has one synthesizer"


def _finish(xs: Signal) -> bytes:
    """Centre, fade the edges (so nothing clicks), scale the peak to PEAK_DBFS, and pack as int16."""
    mean = sum(xs) / len(xs)
    xs = [x - mean for x in xs]
    n_in, n_out = _samples(0.001), min(_samples(0.12), len(xs) // 4)  # a bell's tail fades, not stops
    for i in range(n_in):
        xs[i] *= i / n_in
    for i in range(n_out):
        xs[-1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / n_out)
    peak = max(abs(x) for x in xs)
    scale = 10.0 ** (PEAK_DBFS / 20.0) * 32767.0 / peak
    pcm = array("h", (round(x * scale) for x in xs))
    if sys.byteorder == "big":  # WAV is little-endian
        pcm.byteswap()
    return pcm.tobytes()


def render(name: str) -> bytes:
    """The 16-bit little-endian PCM frames of effect ``name``.

    Raises:
        KeyError: if ``name`` is not one of :data:`SOUND_NAMES`.
    """
    return _finish(EFFECTS[name](Random(f"{SEED}:{name}")))


def generate(outdir: Path) -> list[Path]:
    """Write every effect into ``outdir`` (created if needed) as ``NAME.wav``; return the paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SOUND_NAMES:
        path = outdir / f"{name}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(render(name))
        written.append(path)
    return written


def measure(path: Path) -> tuple[float, float]:
    """The duration in seconds and the peak in dBFS of a 16-bit mono WAV file."""
    with wave.open(str(path), "rb") as wav:
        frames = array("h", wav.readframes(wav.getnframes()))
        rate = wav.getframerate()
    if sys.byteorder == "big":
        frames.byteswap()
    peak = max((abs(x) for x in frames), default=0)
    return len(frames) / rate, (20.0 * math.log10(peak / 32768.0) if peak else -math.inf)



def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``--generate [OUTDIR]`` writes the effects and prints each one's length and peak."""
    parser = argparse.ArgumentParser(prog="python -m tools.sounds", description=__doc__.splitlines()[0])
    parser.add_argument("--generate", action="store_true", help="write every effect as NAME.wav")
    parser.add_argument("outdir", nargs="?", type=Path, default=SOURCE_SOUNDS,
                        help=f"where to write them (default: {SOURCE_SOUNDS})")
    args = parser.parse_args(argv)
    if not args.generate:
        parser.print_help()
        return 2
    for path in generate(args.outdir):
        seconds, peak = measure(path)
        print(f"{path}  {seconds:.3f} s  peak {peak:.2f} dBFS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
