"""Train a Briscola policy in Python, export it to ONNX, and rate it in a league.

REINFORCE on a linear softmax policy over the `briscola-v1` observation (numpy only), against
the paper's greedy policy and a random player in turn, in the vector environment (games and opponents stepped in Rust).
The policy is written as an ONNX file that the pipeline's `onnx` kind plays, so a study file
can put it in a league beside greedy and BriscolaBot-v3 (`python/examples/league.toml`).

    python python/examples/train_reinforce.py --out models/reinforce-v1 --minutes 3
    target/release/briscola run --config python/examples/league.toml

It prints the learning curve (score against greedy), then the final score against greedy and
random over fresh deals.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from briscola import NUM_ACTIONS, OBS_LEN
from briscola.vector import VectorEnv


def policy_probs(obs, mask, W, b):
    z = obs @ W + b
    z = np.where(mask > 0, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z) * (mask > 0)
    return p / p.sum(axis=1, keepdims=True)


def evaluate(W, b, opponent: str, games: int, seed: int) -> float:
    """Score (wins + ties / 2) / games of the greedy reading of the policy (argmax)."""
    env = VectorEnv(games, opponents=opponent, seed=seed)
    obs, mask = env.reset()
    done_any = np.zeros(games, dtype=bool)
    score = np.zeros(games)
    while not done_any.all():
        a = policy_probs(obs, mask, W, b).argmax(axis=1)
        obs, mask, r, d = env.step(a)
        fresh = d & ~done_any
        score[fresh] = (r[fresh] + 1) / 2
        done_any |= d
    return float(score.mean())


class Adam:
    def __init__(self, shapes, lr):
        self.m = [np.zeros(s) for s in shapes]
        self.v = [np.zeros(s) for s in shapes]
        self.t = 0
        self.lr = lr

    def step(self, params, grads):
        self.t += 1
        for i, (p, g) in enumerate(zip(params, grads)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mh = self.m[i] / (1 - 0.9**self.t)
            vh = self.v[i] / (1 - 0.999**self.t)
            p += self.lr * mh / (np.sqrt(vh) + 1e-8)


def train(minutes: float, games: int, seed: int, lr: float, opponents: list, log_every: int = 250):
    rng = np.random.default_rng(seed)
    W = np.zeros((OBS_LEN, NUM_ACTIONS))
    b = np.zeros(NUM_ACTIONS)
    opt = Adam([W.shape, b.shape], lr)
    # One vector environment per opponent, taken in turn: the policy must beat each.
    envs = [VectorEnv(games, opponents=o, seed=seed + k, reward="win") for k, o in enumerate(opponents)]
    states = [e.reset() for e in envs]
    baselines = [0.0] * len(envs)
    start = time.time()
    it = 0
    while time.time() - start < minutes * 60:
        k = it % len(envs)
        env = envs[k]
        obs, mask = states[k]
        baseline = baselines[k]
        # One game per environment: 20 learner decisions in the two-player game.
        O, G, done_seen, R = [], [], np.zeros(games, dtype=bool), np.zeros(games)
        while not done_seen.all():
            p = policy_probs(obs, mask, W, b)
            u = rng.random((games, 1))
            a = (p.cumsum(axis=1) < u).sum(axis=1).clip(0, NUM_ACTIONS - 1)
            # Guard against rounding: an illegal pick becomes the most likely card.
            bad = mask[np.arange(games), a] == 0
            a[bad] = p[bad].argmax(axis=1)
            live = ~done_seen
            O.append(obs[live])
            onehot = np.zeros_like(p)
            onehot[np.arange(games), a] = 1.0
            G.append(((onehot - p)[live], np.flatnonzero(live)))
            obs, mask, r, d = env.step(a)
            R[d & live] = r[d & live]
            done_seen |= d
        states[k] = (obs, mask)
        adv = R - baseline
        baselines[k] = 0.95 * baseline + 0.05 * R.mean()
        gW = np.zeros_like(W)
        gb = np.zeros_like(b)
        for o, (g, idx) in zip(O, G):
            w = g * adv[idx, None]
            gW += o.T @ w
            gb += w.sum(axis=0)
        opt.step([W, b], [gW / games, gb / games])
        it += 1
        if it % log_every == 0:
            print(f"{time.time() - start:6.0f} s  iteration {it:5d}  mean reward vs {opponents[k]} {R.mean():+.3f}")
    return W, b, it


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="models/reinforce-v1", help="output path without extension")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--games", type=int, default=512, help="games per iteration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--opponents", default="greedy,random", help="comma-separated policy names, trained against in turn")
    args = ap.parse_args()
    W, b, iters = train(args.minutes, args.games, args.seed, args.lr, args.opponents.split(","))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out.with_suffix(".npz"), W=W.astype(np.float32), b=b.astype(np.float32))
    from briscola.onnx_export import linear_policy

    linear_policy(W, b, out.with_suffix(".onnx"))
    vs_greedy = evaluate(W, b, "greedy", 4000, seed=12345)
    vs_random = evaluate(W, b, "random", 4000, seed=12345)
    print(f"{iters} iterations; score against greedy {vs_greedy:.3f}, against random {vs_random:.3f}")
    print(f"wrote {out.with_suffix('.onnx')} and {out.with_suffix('.npz')}")


if __name__ == "__main__":
    main()
