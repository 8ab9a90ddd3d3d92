//! A three-player league's standings: the six seatings of its three policies read deal by
//! deal into each policy's share of games won and points per game, and into the pairwise
//! "who outscored whom" comparisons that feed the league's Bradley-Terry fit.
//!
//! Definitions. A game is won by the seat with the most points; a tie for first gives each
//! tied seat an equal share of the win (1/2, or 1/3 for a three-way tie), so the shares of a
//! game sum to 1. A policy's share and points are averaged over the six seatings of each deal
//! first, and their intervals are normal over deals (the deal is the independent unit). For
//! the pairwise comparisons, policy `a` "plays first" against `b` in the three seatings where
//! `a` sits in the lower-numbered seat (seat 1 leads the first trick); each such seating is
//! matched with its mirror (`a` and `b` swapped, the third policy in place) on the same deals,
//! so a pair reads as a two-player league pair (`a` beat `b` in a game when it took more
//! points) whose means and intervals are over deals: a deal's six games are averaged first
//! (`league_pair::pair_result_over_deals`). Each rank's lead over the next, and each policy's
//! score against the others, are likewise per-deal averages with intervals over deals.
//!
//! Invariant: everything is a function of the six seatings' point columns in game order,
//! summed sequentially in the seatings' fixed order, so it is the same on every thread count.

use super::league_pair::{PairError, estimate, pair_result_over_deals};
use crate::results::league::{Estimate, PairResult, Standing};
use crate::stats::Cluster;

/// One seating: `seats[s]` is the index (in league order) of the policy in seat `s`, and
/// `points[s][j]` that seat's points in game `j`.
#[derive(Clone, Debug, PartialEq)]
pub struct Seating {
    /// League index of each seat's policy.
    pub seats: Vec<usize>,
    /// Points per seat, per game.
    pub points: Vec<Vec<u64>>,
}

/// Every ordering of `0..n` (lexicographic): the seatings of a table of `n` policies.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for rest in permutations(n - 1) {
            let mut p = vec![first];
            p.extend(rest.into_iter().map(|x| if x >= first { x + 1 } else { x }));
            out.push(p);
        }
    }
    out
}

fn shape(message: String) -> PairError {
    PairError::Shape { message }
}

/// Check that `seatings` are all orderings of `names`, each with the same number of games.
fn check(names: &[String], seatings: &[Seating]) -> Result<usize, PairError> {
    let n = seatings.first().map_or(0, |s| s.points[0].len());
    let mut seen: Vec<&Vec<usize>> = seatings.iter().map(|s| &s.seats).collect();
    seen.sort();
    let want = permutations(names.len());
    if seen != want.iter().collect::<Vec<_>>() || n < 2 {
        return Err(shape(format!(
            "a table of {} policies needs its {} seatings with the same games (at least 2)",
            names.len(),
            want.len()
        )));
    }
    for s in seatings {
        if s.points.len() != names.len() || s.points.iter().any(|p| p.len() != n) {
            return Err(shape(format!(
                "every seating must hold {n} games for each of its {} seats",
                names.len()
            )));
        }
    }
    Ok(n)
}

/// Each policy's standing, in league order, ranked by share of games won.
pub fn standings(
    names: &[String],
    seatings: &[Seating],
    z: f64,
) -> Result<Vec<Standing>, PairError> {
    let n = check(names, seatings)?;
    let k = names.len();
    // Per policy and deal: summed share and points over the seatings.
    let mut share = vec![vec![0.0f64; n]; k];
    let mut points = vec![vec![0.0f64; n]; k];
    let (mut outright, mut tied) = (vec![0u64; k], vec![0u64; k]);
    for s in seatings {
        for j in 0..n {
            let best = (0..k).map(|seat| s.points[seat][j]).max().unwrap_or(0);
            let at_best = (0..k).filter(|&seat| s.points[seat][j] == best).count();
            for (seat, &pol) in s.seats.iter().enumerate() {
                let p = s.points[seat][j];
                points[pol][j] += p as f64;
                if p == best {
                    share[pol][j] += 1.0 / at_best as f64;
                    if at_best == 1 {
                        outright[pol] += 1;
                    } else {
                        tied[pol] += 1;
                    }
                }
            }
        }
    }
    let m = seatings.len() as f64;
    let mean = |v: &[f64]| -> Estimate { estimate(v.iter().map(|x| x / m), z) };
    let mut rows: Vec<Standing> = (0..k)
        .map(|i| Standing {
            policy: names[i].clone(),
            rank: 0,
            win_share: mean(&share[i]),
            outright_wins: outright[i],
            tied_first: tied[i],
            points: mean(&points[i]),
            ahead_of_next: None,
        })
        .collect();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| rows[b].win_share.value.total_cmp(&rows[a].win_share.value));
    for (r, &i) in order.iter().enumerate() {
        rows[i].rank = r + 1;
    }
    // Each rank against the next, deal by deal (the paired difference of the two shares).
    for w in order.windows(2) {
        let (i, next) = (w[0], w[1]);
        rows[i].ahead_of_next = Some(estimate(
            (0..n).map(|j| (share[i][j] - share[next][j]) / m),
            z,
        ));
    }
    Ok(rows)
}

/// Each policy's score per game against the others (win 1, equal points 1/2, in league
/// order), averaged per deal over every seating and every opponent before the interval, so
/// the deal is the independent unit (the pairs of one table share their deals: their
/// intervals cannot be combined as if independent).
pub fn scores(names: &[String], seatings: &[Seating], z: f64) -> Result<Vec<Estimate>, PairError> {
    let n = check(names, seatings)?;
    let k = names.len();
    let mut total = vec![vec![0.0f64; n]; k];
    // Per (policy, deal) the terms are added in seating order, then opponent seat order.
    for s in seatings {
        for (sa, &a) in s.seats.iter().enumerate() {
            for sb in (0..k).filter(|&sb| sb != sa) {
                let pairs = s.points[sa].iter().zip(&s.points[sb]);
                for (t, (p, q)) in total[a].iter_mut().zip(pairs) {
                    *t += match p.cmp(q) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Less => 0.0,
                        std::cmp::Ordering::Equal => 0.5,
                    };
                }
            }
        }
    }
    let per = (seatings.len() * (k - 1)) as f64;
    Ok(total
        .iter()
        .map(|t| estimate(t.iter().map(|x| x / per), z))
        .collect())
}

/// A pair's games as [`pair_games`] reads them: `a` first, `b` first, and the blocks.
type PairGames = (Vec<[u64; 2]>, Vec<[u64; 2]>, usize);

/// The games of pair `a`-`b` (league indices) read as a two-player pair: `[a's, b's]` points
/// in the seatings where `a` sits in the lower-numbered seat, and `[b's, a's]` in their
/// mirrors, seating by seating (each a block of the same deals), and the number of blocks.
fn pair_games(seatings: &[Seating], a: usize, b: usize) -> Result<PairGames, PairError> {
    let seat_of = |s: &Seating, pol: usize| s.seats.iter().position(|&p| p == pol);
    let (mut ab, mut ba, mut blocks) = (Vec::new(), Vec::new(), 0usize);
    for s in seatings {
        let (Some(sa), Some(sb)) = (seat_of(s, a), seat_of(s, b)) else {
            continue;
        };
        if sa > sb {
            continue;
        }
        let mut mirror_seats = s.seats.clone();
        mirror_seats.swap(sa, sb);
        let mirror = seatings
            .iter()
            .find(|m| m.seats == mirror_seats)
            .ok_or_else(|| shape("a seating's mirror is missing".into()))?;
        let games = s.points[sa].len();
        ab.extend((0..games).map(|j| [s.points[sa][j], s.points[sb][j]]));
        // In the mirror, b sits where a sat (the lower seat) and a where b sat.
        ba.extend((0..games).map(|j| [mirror.points[sa][j], mirror.points[sb][j]]));
        blocks += 1;
    }
    Ok((ab, ba, blocks))
}

/// The pairwise comparisons of every pair (i < j in league order), read as two-player pairs.
pub fn pairs(
    names: &[String],
    seatings: &[Seating],
    confidence: f64,
) -> Result<Vec<PairResult>, PairError> {
    check(names, seatings)?;
    let k = names.len();
    let mut out = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let (ab, ba, blocks) = pair_games(seatings, a, b)?;
            out.push(pair_result_over_deals(
                &names[a], &names[b], &ab, &ba, blocks, confidence,
            )?);
        }
    }
    Ok(out)
}

/// The comparisons of [`pairs`] split by deal, for the fit's cluster-robust errors:
/// `out[deal][row] = [G1's wins, decisive comparisons]`, with the rows of the Bradley-Terry
/// design in its order (per pair i < j: `i` in G1, then `j` in G1; see
/// [`super::league_fit::bradley_terry_data`]). Summed over deals they are the fit's counts.
pub fn deal_clusters(names: &[String], seatings: &[Seating]) -> Result<Vec<Cluster>, PairError> {
    let deals = check(names, seatings)?;
    let k = names.len();
    let mut out = vec![Vec::with_capacity(k * (k - 1)); deals];
    for a in 0..k {
        for b in a + 1..k {
            let (ab, ba, blocks) = pair_games(seatings, a, b)?;
            for games in [&ab, &ba] {
                for (j, deal) in out.iter_mut().enumerate() {
                    let mut c = [0u64; 2];
                    for [p, q] in (0..blocks).map(|g| games[g * deals + j]) {
                        c[0] += u64::from(p > q);
                        c[1] += u64::from(p != q);
                    }
                    deal.push(c);
                }
            }
        }
    }
    Ok(out
        .into_iter()
        .map(|counts| Cluster { counts, weight: 1 })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["a", "b", "c"].map(String::from).to_vec()
    }

    /// Six seatings of two deals where policy 0 always takes 60, 1 takes 40, 2 takes 20, except
    /// on deal 1 where 0 and 1 tie at 50 (2 takes 20).
    fn seatings() -> Vec<Seating> {
        permutations(3)
            .into_iter()
            .map(|seats| {
                let pts = |pol: usize| match pol {
                    0 => vec![60, 50],
                    1 => vec![40, 50],
                    _ => vec![20, 20],
                };
                let points = seats.iter().map(|&p| pts(p)).collect();
                Seating { seats, points }
            })
            .collect()
    }

    #[test]
    fn six_orderings_of_three() {
        let p = permutations(3);
        assert_eq!(p.len(), 6);
        assert_eq!(p[0], vec![0, 1, 2]);
        assert_eq!(p[5], vec![2, 1, 0]);
    }

    #[test]
    fn ties_for_first_split_the_win_and_shares_sum_to_one() {
        let s = standings(&names(), &seatings(), 1.96).unwrap();
        assert!((s[0].win_share.value - 0.75).abs() < 1e-12);
        assert!((s[1].win_share.value - 0.25).abs() < 1e-12);
        assert_eq!(s[2].win_share.value, 0.0);
        let total: f64 = s.iter().map(|x| x.win_share.value).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert_eq!((s[0].outright_wins, s[0].tied_first), (6, 6));
        assert_eq!((s[0].rank, s[1].rank, s[2].rank), (1, 2, 3));
        assert!((s[0].points.value - 55.0).abs() < 1e-12);
        // a's lead over b: 1 - 0 on deal 0, 1/2 - 1/2 on deal 1.
        let lead = s[0].ahead_of_next.unwrap();
        assert!((lead.value - 0.5).abs() < 1e-12);
        assert!((s[1].ahead_of_next.unwrap().value - 0.25).abs() < 1e-12);
        assert!(s[2].ahead_of_next.is_none());
    }

    #[test]
    fn scores_against_the_others_are_per_deal() {
        let sc = scores(&names(), &seatings(), 1.96).unwrap();
        // a: beats c always, beats b on deal 0 and ties on deal 1: (1 + 1)/2, (1/2 + 1)/2.
        assert!((sc[0].value - (1.0 + 0.75) / 2.0).abs() < 1e-12);
        assert!((sc[2].value - 0.0).abs() < 1e-12);
        let total: f64 = sc.iter().map(|e| e.value).sum();
        assert!((total - 1.5).abs() < 1e-12, "the three scores sum to k / 2");
        // The per-pair means agree with the pairs' own (the same games, grouped differently).
        let p = pairs(&names(), &seatings(), 0.95).unwrap();
        let a_vs = (p[0].a_score.value + p[1].a_score.value) / 2.0;
        assert!((sc[0].value - a_vs).abs() < 1e-12);
    }

    #[test]
    fn pairs_count_who_outscored_whom_in_both_orders() {
        let p = pairs(&names(), &seatings(), 0.95).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!((p[0].a.as_str(), p[0].b.as_str()), ("a", "b"));
        // a vs b: a wins deal 0 and draws deal 1, in each of 3 + 3 seatings.
        assert_eq!(
            (p[0].a_first.games, p[0].a_first.a_wins, p[0].a_first.draws),
            (6, 3, 3)
        );
        assert_eq!((p[0].b_first.a_wins, p[0].b_first.draws), (3, 3));
        assert!((p[0].b_points.unwrap().value - 45.0).abs() < 1e-12);
        assert!(pairs(&names(), &seatings()[..5], 0.95).is_err());
    }

    #[test]
    fn deal_clusters_split_the_fits_counts_by_deal_in_design_order() {
        let deals = deal_clusters(&names(), &seatings()).unwrap();
        assert_eq!(deals.len(), 2);
        // Rows: a-b (a in G1), b-a, a-c, c-a, b-c, c-b; three games per row and deal.
        // Deal 0: 0 > 1 > 2 strictly, so G1 wins exactly when it is the stronger policy.
        let g1_stronger = [true, false, true, false, true, false];
        for (row, &wins) in deals[0].counts.iter().zip(&g1_stronger) {
            assert_eq!(*row, [if wins { 3 } else { 0 }, 3]);
        }
        // Deal 1: a and b tie at 50, so the a-b rows have no decisive comparison.
        assert_eq!(deals[1].counts[0], [0, 0]);
        assert_eq!(deals[1].counts[1], [0, 0]);
        assert_eq!(deals[1].counts[2], [3, 3]);
        // Summed over deals they are the counts the Bradley-Terry fit reads.
        let p = pairs(&names(), &seatings(), 0.95).unwrap();
        let data = crate::analysis::league_fit::bradley_terry_data(&names(), "a", &p);
        for r in 0..6 {
            let sum = |i: usize| deals.iter().map(|d| d.counts[r][i]).sum::<u64>();
            assert_eq!(
                (sum(0), sum(1)),
                (data.g1_wins[r], data.decisive[r]),
                "row {r}"
            );
        }
    }
}
