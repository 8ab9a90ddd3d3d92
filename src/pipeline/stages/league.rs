//! League stage: a league's seatings are simulated like any shard (one simulate job per ordered
//! pair, on paired deals unless `paired = false`), then one job per unordered pair reads its two
//! seatings deal by deal, and one job per league fits the ratings from every pair. A league
//! with `rules` plays its seatings as seat-table shards (`tournament::TableShardSpec`) under
//! those rules; with three players each deal is played in the six seatings of the three
//! policies (always paired), and there are no pair jobs: the league's one job reads the six
//! seatings directly (standings, the pairwise comparisons it fits, and each policy's score
//! against the others, all with intervals over deals).
//!
//! Invariant: in a two-player league a seating's shard and a pair's job depend only on their
//! own two policies, the seed, the deal count, the pairing and the rules, so adding a policy
//! runs only its own seatings and pairs (and the league's fit); a three-player league's six
//! seatings and its job depend on all three of its policies.

use crate::analysis::league_fit::league_results;
use crate::analysis::league_pair::{deal_outcomes, pair_result, point_columns, seat_points};
use crate::analysis::league_table::{
    Seating, deal_clusters, pairs as table_pairs, permutations, scores as table_scores, standings,
};
use crate::pipeline::config::league_config::League;
use crate::pipeline::execution::job::{Job, StageName};
use crate::pipeline::store::layout::Layout;
use crate::results::league::{LeagueResults, LeagueSettings, PairResult};
use crate::tournament::{DealSourceKind, GAMES_FILE, Matchup, ShardSpec, TableShardSpec};

use super::{num, read_json, write_csv, write_json};

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_LEAGUE");
/// Output of a pair job.
pub const PAIR_FILE: &str = "pair.json";
/// Output of a league's fit job.
pub const LEAGUE_FILE: &str = "league.json";
/// The rating table as CSV.
pub const RATINGS_CSV: &str = "ratings.csv";
/// A three-player league's standings as CSV.
pub const STANDINGS_CSV: &str = "standings.csv";
/// Output of a league's reduced-game job.
pub const REDUCED_FILE: &str = "reduced.json";

/// The id of a league's reduced-game job.
pub fn reduced_job_id(league: &str) -> String {
    format!("league/{league}/reduced")
}
/// CFR+ iterations of the reduced game a league of exploit agents is set beside (the 8-card
/// game's exploitability is then about 0.14 points; see BENCHMARKS.md).
pub const REDUCED_ITERATIONS: u64 = 64;
/// Worlds per decision of the exploit agent in the reduced game: the full game's default.
pub const REDUCED_WORLDS: usize = crate::policy::DEFAULT_EXPLOIT_WORLDS as usize;

/// The targets of a two-player standard league's exploit agents, once each in league order
/// (empty for any other league). A network target is left out: its observation describes the
/// 40-card game, so it has no meaning in the reduced deck.
fn exploit_targets(league: &League) -> Vec<crate::policy::PolicySpec> {
    let mut out: Vec<crate::policy::PolicySpec> = Vec::new();
    if league.has_rules() {
        return out;
    }
    for p in &league.policies {
        if let Some(crate::policy::PolicyDef::Exploit { target, .. }) = &p.def
            && target.kind != crate::policy::PolicyKind::Onnx
            && !out.contains(target)
        {
            out.push((**target).clone());
        }
    }
    out
}

/// The reduced game solved with `targets` measured in it.
fn reduced_results(
    targets: &[crate::policy::PolicySpec],
) -> Result<crate::results::reduced::ReducedResults, Box<dyn std::error::Error + Send + Sync>> {
    let built: Vec<(String, crate::policy::AnyPolicy)> = targets
        .iter()
        .map(|t| Ok((t.name.clone(), t.try_build()?)))
        .collect::<Result<_, crate::policy::PolicyBuildError>>()?;
    let policies: Vec<(String, &dyn crate::game::Policy)> = built
        .iter()
        .map(|(n, p)| (n.clone(), p as &dyn crate::game::Policy))
        .collect();
    Ok(crate::analysis::reduced_game::solve_reduced(
        crate::analysis::reduced_game::ReducedSpec::default(),
        REDUCED_ITERATIONS,
        Some(REDUCED_WORLDS),
        &policies,
        |_, _| {},
    )?)
}

/// A fit that has no estimate (too few games, or one side winning every decisive game) as a
/// sentence naming the league and the remedy; other errors as they are.
fn unfitted(league: &str, e: crate::stats::StatsError) -> Box<dyn std::error::Error + Send + Sync> {
    use crate::stats::StatsError as S;
    match e {
        S::Singular { .. } | S::Separation { .. } | S::OneClass { .. } | S::NotConverged { .. } => {
            format!(
                "league {league}: the ratings cannot be estimated from these games ({e}): with few games a policy can win or lose every decisive game against the others, and its rating is then unbounded; raise leagues.{league}.games_per_pair"
            )
            .into()
        }
        e => e.into(),
    }
}

/// The id of a league's fit job.
pub fn job_id(league: &str) -> String {
    format!("league/{league}")
}

/// The id of a pair's job.
pub fn pair_job_id(league: &str, a: &str, b: &str) -> String {
    format!("league/{league}/{a}-vs-{b}")
}

/// The seatings of a league: every ordered pair of distinct policies, row-major.
pub fn seatings(league: &League) -> Vec<Matchup> {
    let k = league.policies.len();
    Matchup::all(&league.policies)
        .into_iter()
        .filter(|m| league.plays(m.index / k, m.index % k))
        .collect()
}

/// The shard spec of one seating.
pub fn shard_spec(league: &League, m: &Matchup) -> ShardSpec {
    let mut spec = ShardSpec::for_matchup(
        DealSourceKind::Chacha,
        league.seed as i64,
        crate::game::RulesSpec::default(),
        league.games_per_pair,
        m,
    );
    spec.paired = league.paired;
    spec
}

fn slug(a: &str, b: &str) -> String {
    format!("{a}-vs-{b}")
}

/// The seat-table shards of a league with `rules`: every ordered pair (two players) or every
/// ordering of the policies (three players), in row-major / lexicographic order.
pub fn table_specs(league: &League) -> Vec<TableShardSpec> {
    let p = &league.policies;
    let orders: Vec<Vec<usize>> = if league.players() == 2 {
        seatings(league)
            .iter()
            .map(|m| vec![m.index / p.len(), m.index % p.len()])
            .collect()
    } else {
        permutations(p.len())
    };
    orders
        .into_iter()
        .map(|o| TableShardSpec {
            seed: league.seed,
            rules: league.rules,
            games: league.games_per_pair,
            seats: o.iter().map(|&i| p[i].clone()).collect(),
            paired: league.paired,
        })
        .collect()
}

/// The simulate jobs of a league's seatings (simulate-stage code: the body plays the shard).
pub fn simulate_jobs(league: &League) -> Vec<Job> {
    if league.has_rules() {
        return table_specs(league)
            .into_iter()
            .map(|spec| table_simulate_job(league, spec))
            .collect();
    }
    seatings(league)
        .into_iter()
        .map(|m| {
            let spec = shard_spec(league, &m);
            Job {
                id: super::simulate::job_id(&league.name, &m),
                stage: StageName::Simulate,
                deps: vec![],
                params: serde_json::to_value(&spec).expect("shard spec serialises"),
                code: super::simulate::CODE.to_string(),
                publish: Some(Layout::shard_publish(&league.name, &m.slug())),
                // One text for every seating of every league, so `status` prints it once.
                note: league.paired.then(|| {
                    "paired deals: a league's seating plays the same deals as its twin with the seats swapped".to_string()
                }),
                body: Box::new(move |_inputs, out| {
                    spec.run(out, &|_| {})?;
                    Ok(())
                }),
            }
        })
        .collect()
}

fn table_simulate_job(league: &League, spec: TableShardSpec) -> Job {
    let slug = spec.slug();
    Job {
        id: format!("simulate/{}/{slug}", league.name),
        stage: StageName::Simulate,
        deps: vec![],
        params: serde_json::to_value(&spec).expect("table shard spec serialises"),
        code: super::simulate::CODE.to_string(),
        publish: Some(Layout::shard_publish(&league.name, &slug)),
        note: league
            .paired
            .then(|| "paired deals: every seating of these policies plays the same deals".into()),
        body: Box::new(move |_inputs, out| {
            spec.run(out, &|_| {})?;
            Ok(())
        }),
    }
}

/// One job per unordered pair, then the fit.
pub fn jobs(league: &League) -> Vec<Job> {
    if league.players() > 2 {
        return vec![table_fit_job(league)];
    }
    let mut jobs = Vec::new();
    // A rules league's seat tables name their point columns by seat.
    let columns = if league.has_rules() {
        ["points_s1", "points_s2"]
    } else {
        ["points_g1", "points_g2"]
    };
    let sim_id = |g1: &crate::policy::PolicySpec, g2: &crate::policy::PolicySpec| {
        format!("simulate/{}/{}", league.name, slug(&g1.name, &g2.name))
    };
    let mut pair_ids = Vec::new();
    for (a, b) in league.pairs() {
        let (ab, ba) = (sim_id(a, b), sim_id(b, a));
        let id = pair_job_id(&league.name, &a.name, &b.name);
        pair_ids.push(id.clone());
        let (an, bn, conf) = (a.name.clone(), b.name.clone(), league.confidence);
        let (dep_ab, dep_ba) = (ab.clone(), ba.clone());
        let mut params = serde_json::json!({ "a": an, "b": bn, "confidence": conf });
        if league.has_rules() {
            params["columns"] = serde_json::json!(columns);
        }
        let paired = league.paired;
        if paired {
            params["paired"] = serde_json::json!(true);
        }
        jobs.push(Job {
            id,
            stage: StageName::League,
            deps: vec![ab, ba],
            params,
            code: CODE.to_string(),
            publish: Some(format!("{}/league/{}", league.name, slug(&an, &bn))),
            note: None,
            body: Box::new(move |inputs, out| {
                let path = |dep: &str| {
                    inputs
                        .get(dep, GAMES_FILE)
                        .ok_or_else(|| format!("games table of {dep} missing"))
                };
                let x = seat_points(path(&dep_ab)?, columns)?;
                let y = seat_points(path(&dep_ba)?, columns)?;
                let mut r = pair_result(&an, &bn, &x, &y, conf)?;
                // On paired deals a deal's two games are correlated: the fit clusters them.
                r.deal_outcomes = paired.then(|| deal_outcomes(&x, &y));
                write_json(&out.join(PAIR_FILE), &r)
            }),
        });
    }
    let settings = settings(league);
    let (name, label) = (league.name.clone(), league.label.clone());
    let order = pair_ids.clone();
    let targets = exploit_targets(league);
    let params = serde_json::json!({ "name": name, "label": label, "settings": settings });
    // A league of exploit agents: the reduced game is its own job, with no dependency, so it
    // runs beside the league's seatings rather than after them.
    let reduced_id = (!targets.is_empty()).then(|| reduced_job_id(&league.name));
    let mut deps = pair_ids;
    if let Some(id) = &reduced_id {
        let targets = targets.clone();
        jobs.push(Job {
            id: id.clone(),
            stage: StageName::League,
            deps: Vec::new(),
            params: serde_json::json!({
                "spec": crate::analysis::reduced_game::ReducedSpec::default(),
                "iterations": REDUCED_ITERATIONS,
                "worlds": REDUCED_WORLDS,
                "targets": targets,
            }),
            code: CODE.to_string(),
            publish: Some(format!("{}/league/reduced", league.name)),
            note: None,
            body: Box::new(move |_, out| {
                write_json(&out.join(REDUCED_FILE), &reduced_results(&targets)?)
            }),
        });
        deps.push(id.clone());
    }
    jobs.push(Job {
        id: job_id(&league.name),
        stage: StageName::League,
        deps,
        params,
        code: CODE.to_string(),
        publish: Some(Layout::tables_publish(&league.name)),
        note: None,
        body: Box::new(move |inputs, out| {
            let pairs: Vec<PairResult> = order
                .iter()
                .map(|d| read_json(inputs, d, PAIR_FILE))
                .collect::<Result<_, _>>()?;
            let mut r = league_results(&name, &label, &settings, pairs, None)
                .map_err(|e| unfitted(&name, e))?;
            if let Some(id) = &reduced_id {
                r.reduced = Some(read_json(inputs, id, REDUCED_FILE)?);
            }
            write_json(&out.join(LEAGUE_FILE), &r)?;
            write_ratings_csv(&r, out)
        }),
    });
    jobs
}

/// What the fit and the report know about a league's design.
pub fn settings(league: &League) -> LeagueSettings {
    LeagueSettings {
        seed: league.seed,
        games_per_pair: league.games_per_pair,
        paired: league.paired,
        policies: league.policies.clone(),
        reference: league.reference.clone(),
        confidence: league.confidence,
        anchors: league.anchors.clone(),
        agents: league.agents.clone(),
        rules: league.rules,
    }
}

/// A three-player league's one job: its six seatings read into the standings and the pairwise
/// comparisons, then the fit.
fn table_fit_job(league: &League) -> Job {
    let specs = table_specs(league);
    let names: Vec<String> = league.policies.iter().map(|p| p.name.clone()).collect();
    let index = |n: &str| names.iter().position(|x| x == n).unwrap_or(0);
    let seats: Vec<(String, Vec<usize>)> = specs
        .iter()
        .map(|s| {
            let id = format!("simulate/{}/{}", league.name, s.slug());
            (id, s.seats.iter().map(|p| index(&p.name)).collect())
        })
        .collect();
    let settings = settings(league);
    let (name, label, conf) = (league.name.clone(), league.label.clone(), league.confidence);
    let players = league.players();
    Job {
        id: job_id(&league.name),
        stage: StageName::League,
        deps: seats.iter().map(|(id, _)| id.clone()).collect(),
        params: serde_json::json!({ "name": name, "label": label, "settings": settings }),
        code: CODE.to_string(),
        publish: Some(Layout::tables_publish(&league.name)),
        note: None,
        body: Box::new(move |inputs, out| {
            let cols: Vec<String> = (1..=players).map(|s| format!("points_s{s}")).collect();
            let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
            let mut seatings = Vec::new();
            for (dep, order) in &seats {
                let path = inputs
                    .get(dep, GAMES_FILE)
                    .ok_or_else(|| format!("games table of {dep} missing"))?;
                seatings.push(Seating {
                    seats: order.clone(),
                    points: point_columns(path, &cols)?,
                });
            }
            let z = crate::stats::z_critical(1.0 - conf)?;
            let table = standings(&names, &seatings, z)?;
            let pairs = table_pairs(&names, &seatings, conf)?;
            // A deal's comparisons are correlated: the fit's errors are clustered by deal.
            let deals = deal_clusters(&names, &seatings)?;
            let mut r = league_results(&name, &label, &settings, pairs, Some(&deals))
                .map_err(|e| unfitted(&name, e))?;
            r.standings = table;
            // The three pairs share their deals: each policy's score against the others is
            // averaged per deal (not combined from the pairs as if independent).
            for (rating, score) in r
                .ratings
                .iter_mut()
                .zip(table_scores(&names, &seatings, z)?)
            {
                rating.score = score;
            }
            // The pairing summary compares two seatings of one deal; a table of three has six.
            r.pairing = None;
            write_json(&out.join(LEAGUE_FILE), &r)?;
            write_ratings_csv(&r, out)?;
            write_standings_csv(&r, out)
        }),
    }
}

fn write_standings_csv(
    r: &LeagueResults,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rows: Vec<Vec<String>> = r
        .standings
        .iter()
        .map(|x| {
            vec![
                x.policy.clone(),
                x.rank.to_string(),
                num(x.win_share.value),
                num(x.win_share.lo),
                num(x.win_share.hi),
                x.outright_wins.to_string(),
                x.tied_first.to_string(),
                num(x.points.value),
                num(x.points.lo),
                num(x.points.hi),
            ]
        })
        .collect();
    write_csv(
        &out.join(STANDINGS_CSV),
        &[
            "policy",
            "rank",
            "win_share",
            "win_share_lo",
            "win_share_hi",
            "outright_wins",
            "tied_first",
            "points",
            "points_lo",
            "points_hi",
        ],
        &rows,
    )
}

/// Read every league's results, in `leagues` order.
pub fn load(
    inputs: &crate::pipeline::execution::job::JobInputs,
    leagues: &[String],
) -> Result<Vec<LeagueResults>, Box<dyn std::error::Error + Send + Sync>> {
    leagues
        .iter()
        .map(|l| read_json(inputs, &job_id(l), LEAGUE_FILE))
        .collect()
}

fn write_ratings_csv(
    r: &LeagueResults,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rows: Vec<Vec<String>> = r
        .ratings
        .iter()
        .map(|x| {
            vec![
                x.policy.clone(),
                x.rank.to_string(),
                num(x.rating.value),
                num(x.rating.std_error),
                num(x.rating.lo),
                num(x.rating.hi),
                num(x.elo.value),
                num(x.score.value),
                num(x.score.lo),
                num(x.score.hi),
            ]
        })
        .collect();
    write_csv(
        &out.join(RATINGS_CSV),
        &[
            "policy",
            "rank",
            "rating",
            "std_error",
            "lo",
            "hi",
            "elo",
            "score",
            "score_lo",
            "score_hi",
        ],
        &rows,
    )
}
