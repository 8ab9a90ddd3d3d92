//! The local executor with several jobs at once (`briscola run --jobs N`): each job submitted
//! runs on its own scoped thread of this process ([`execute_job`], exactly as one at a time),
//! at most `N` at a time; the runner decides, publishes and locks on its own thread as jobs
//! complete. The jobs' bodies share rayon's one pool, so `N` jobs never use more than the
//! machine's threads.
//!
//! Invariant: a job's outputs are a function of its inputs alone, and every finish step (publish,
//! record, lock entry) is the runner's, on one thread; so the published bytes and the lock are
//! those of a one-at-a-time run whatever `N` and whatever order jobs complete in (a test
//! compares them).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::thread::Scope;

use super::executor::{Completion, ExecEnv, Executor};
use super::job::{Job, JobInputs, StageName};
use super::local_executor::{execute_job, test_sleep_hook};
use super::run_error::RunError;
use crate::pipeline::store::content_store::ContentStore;
use crate::pipeline::store::layout::{Layout, job_file_stem};
use crate::pipeline::store::run_cache::RunCache;
use crate::pipeline::store::stat_cache::StatCache;

type Done = (usize, Result<BTreeMap<String, String>, String>);

/// Runs up to `capacity` jobs at once on threads of `scope`.
pub struct ParallelExecutor<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    plan: &'env [Job],
    layout: Layout,
    capacity: usize,
    in_flight: usize,
    tx: mpsc::Sender<Done>,
    rx: mpsc::Receiver<Done>,
    sleep_hook: Option<(u64, Option<StageName>)>,
}

impl<'scope, 'env> ParallelExecutor<'scope, 'env> {
    /// An executor of `plan`'s jobs, `capacity` (>= 1) at a time, publishing under `layout`.
    pub fn new(
        scope: &'scope Scope<'scope, 'env>,
        plan: &'env [Job],
        layout: Layout,
        capacity: usize,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        ParallelExecutor {
            scope,
            plan,
            layout,
            capacity: capacity.max(1),
            in_flight: 0,
            tx,
            rx,
            sleep_hook: test_sleep_hook(),
        }
    }

    fn completion(env: &mut ExecEnv<'_>, (index, result): Done) -> Completion {
        // The stat hints a one-at-a-time run records while storing, recorded here on the
        // runner's thread.
        if let Ok(outputs) = &result {
            for hash in outputs.values() {
                if let Ok(p) = env.store.path(hash) {
                    env.stat.record(&p, hash);
                }
            }
        }
        Completion {
            index,
            result,
            remote: None,
        }
    }
}

impl Executor for ParallelExecutor<'_, '_> {
    fn capacity(&self) -> usize {
        self.capacity
    }

    fn in_flight(&self) -> usize {
        self.in_flight
    }

    fn submit(
        &mut self,
        index: usize,
        _job: &Job,
        key: &str,
        inputs: &JobInputs,
        _env: &mut ExecEnv<'_>,
    ) -> Result<(), RunError> {
        let job = &self.plan[index];
        let scratch =
            self.layout
                .tmp()
                .join(format!("{}.{}", job_file_stem(&job.id), std::process::id()));
        let (inputs, key) = (inputs.clone(), key.to_string());
        let (tx, layout, hook) = (self.tx.clone(), self.layout.clone(), self.sleep_hook);
        self.scope.spawn(move || {
            let store = ContentStore::new(layout.objects());
            let runs = RunCache::new(&layout);
            // Hints are recorded by the runner's thread on completion; this one is discarded.
            let mut stat = StatCache::load(Path::new(""), layout.root());
            let mut env = ExecEnv {
                layout: &layout,
                store: &store,
                runs: &runs,
                stat: &mut stat,
            };
            let result = match execute_job(job, &key, &inputs, &scratch, &mut env, hook.as_ref()) {
                Ok(r) => r,
                Err(e) => Err(e.to_string()),
            };
            let _ = tx.send((index, result));
        });
        self.in_flight += 1;
        Ok(())
    }

    fn wait(&mut self, env: &mut ExecEnv<'_>) -> Result<Vec<Completion>, RunError> {
        if self.in_flight == 0 {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let first = self.rx.recv().map_err(|_| RunError::InvalidPlan {
            job: "(a job thread)".into(),
            message: "a job's thread ended without reporting".into(),
        })?;
        out.push(Self::completion(env, first));
        while let Ok(more) = self.rx.try_recv() {
            out.push(Self::completion(env, more));
        }
        self.in_flight -= out.len();
        Ok(out)
    }
}
