//! `briscola run --jobs N` (issue 28): several local jobs at once give the same published
//! bytes and the same lock as one at a time, and a second run finds everything cached.

use crate::common::*;

#[test]
fn the_lock_and_every_output_are_the_same_for_one_job_and_many() {
    let cfg = format!(
        "{BASE_CONFIG}\n[variants.four]\nlabel = \"four players\"\nrules = {{ players = 4 }}\n\
         games_per_matchup = 50\n\n[leagues.l]\nlabel = \"a league\"\n\
         policies = [\"greedy\", \"hoarder\", \"counter\"]\ngames_per_pair = 40\nseed = 3\n\
         reference = \"greedy\"\n"
    );
    let one = study(&cfg);
    let many = study(&cfg);
    let o = briscola(&["run", "--jobs", "1"], one.path());
    assert_exit(&o, 0);
    let o = briscola(&["run", "--jobs", "6"], many.path());
    assert_exit(&o, 0);
    assert_eq!(lock_text(one.path()), lock_text(many.path()));
    let (a, b) = (
        file_hashes(&one.path().join("outputs")),
        file_hashes(&many.path().join("outputs")),
    );
    let published = |m: &std::collections::BTreeMap<String, String>| {
        m.iter()
            .filter(|(k, _)| !k.starts_with(".cache") && !k.ends_with("run-provenance.json"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(published(&a), published(&b));
    assert!(published(&a).len() > 50, "{} files", published(&a).len());
    let o = briscola(&["run", "--jobs", "6"], many.path());
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("lock unchanged"), "{}", stdout(&o));
    let o = briscola(&["run", "--jobs", "0"], many.path());
    assert_exit(&o, 2);
}
