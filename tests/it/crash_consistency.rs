//! Crash consistency of `briscola run`: SIGKILL at seeded random moments, spread across the
//! stages (the test sleep hook holds a job of a chosen stage open while the kill lands), then
//! one uninterrupted run must end with the same lock as a run never interrupted, and `verify`
//! must pass. Not a timed test: the delays only choose where the kills land.

use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{BASE_CONFIG, assert_exit, briscola, command, lock_text, study};

const STAGES: [&str; 6] = ["simulate", "aggregate", "test", "regress", "plot", "render"];

#[test]
fn run_killed_at_random_moments_ends_with_the_uninterrupted_lock() {
    let reference = study(BASE_CONFIG);
    assert_exit(&briscola(&["run"], reference.path()), 0);
    let want = lock_text(reference.path());

    let dir = study(BASE_CONFIG);
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let kills = 12;
    for i in 0..kills {
        let stage = STAGES[i % STAGES.len()];
        let delay = rng.random_range(0..400u64);
        let mut child = command(&["run"], dir.path())
            .env("BRISCOLA_TEST_SLEEP_MS", "150")
            .env("BRISCOLA_TEST_SLEEP_STAGE", stage)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn briscola run");
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill(); // SIGKILL on Unix
        let _ = child.wait();
    }
    assert_exit(&briscola(&["run"], dir.path()), 0);
    assert_eq!(
        lock_text(dir.path()),
        want,
        "lock differs after {kills} kills"
    );
    assert_exit(&briscola(&["verify"], dir.path()), 0);
}
