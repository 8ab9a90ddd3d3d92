"""Speed of the environments (see BENCHMARKS.md): the vector environment's learner decisions per
second with random legal actions against greedy, on one core, and the AEC environment's steps
per second. A benchmark, not a test: run it on an idle machine.

    .venv/bin/python python/examples/bench_envs.py
"""

import os
import time

import numpy as np

from briscola.pettingzoo_env import env as aec_env
from briscola.vector import VectorEnv


def bench_vector(n, opponent, seconds=5.0):
    env = VectorEnv(n, opponents=opponent, seed=1)
    obs, mask = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, mask, r, d = env.step(VectorEnv.random_actions(mask, rng))
        steps += 1
    dt = time.perf_counter() - start
    return steps * n / dt


def bench_aec(players, seconds=5.0):
    e = aec_env(players=players)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in e.agent_iter():
            obs, r, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        e.reset()
    return steps / (time.perf_counter() - start)


if __name__ == "__main__":
    print(f"cpu: {os.cpu_count()} logical; RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS')}")
    for n in (256, 1024, 4096):
        for opp in ("random", "greedy"):
            print(f"VectorEnv n={n:5d} vs {opp:7s}: {bench_vector(n, opp):12,.0f} learner decisions/s")
    for p in (2, 4):
        print(f"AEC {p} players: {bench_aec(p):10,.0f} steps/s")
