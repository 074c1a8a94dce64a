import random, time, statistics, sys
from game.engine import PRESETS, Match
from tools.pimc import Pimc
name = sys.argv[1] if len(sys.argv) > 1 else "duel"; players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
rules = PRESETS[name]
counts = []; times = []
for seed in range(8):
    m = Match(rules, players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 10)):
        if m.status != "playing": break
        m.apply(rng.choice(m.legal_actions()))
    while m.status == "playing" and len(m.view(m.to_act).legal) < 2:
        m.apply(rng.choice(m.legal_actions()))
    if m.status != "playing": continue
    p = Pimc(0.5)
    t = time.perf_counter(); p.choose(m.view(m.to_act), random.Random(1)); times.append(time.perf_counter() - t)
    counts.append(p.last_playouts)
print(name, players, "playouts", counts, "median", statistics.median(counts), "time max", max(times))
