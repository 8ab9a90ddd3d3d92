//! A Slurm wave: the ready jobs one `sbatch --array` runs, and the file its tasks read.
//! [`Wave::split`] deals the jobs round-robin over the tasks (a wave with more jobs than free
//! Slurm tasks runs several jobs a task, one after another); the file is plain text, one
//! `task<TAB>job<TAB>key` line a job, which `briscola job run --wave FILE` reads on the node
//! (task index from `SLURM_ARRAY_TASK_ID`).
//!
//! Invariant: every job of a wave belongs to exactly one task below [`Wave::tasks`], each task
//! has at least one job, and [`Wave::parse`] of [`Wave::to_text`] gives the same wave back.

/// The first line of a wave file (its format and version).
const HEADER: &str = "# briscola slurm wave v1: task<TAB>job<TAB>key";

/// One job of a wave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveEntry {
    /// The array task that runs it (0-based, `SLURM_ARRAY_TASK_ID`).
    pub task: usize,
    /// The job's id in the plan.
    pub job: String,
    /// The cache key the submitting run computed (`job run --expect-key`).
    pub key: String,
}

/// The jobs of one job array, by task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wave {
    entries: Vec<WaveEntry>,
    tasks: usize,
}

impl Wave {
    /// `jobs` (id, key) dealt round-robin over `min(jobs, max_tasks)` tasks (at least one), in
    /// their order: job `i` runs in task `i % tasks`.
    pub fn split(jobs: Vec<(String, String)>, max_tasks: usize) -> Wave {
        let tasks = jobs.len().min(max_tasks).max(1);
        let entries = jobs
            .into_iter()
            .enumerate()
            .map(|(i, (job, key))| WaveEntry {
                task: i % tasks,
                job,
                key,
            })
            .collect();
        Wave { entries, tasks }
    }

    /// How many array tasks the wave has.
    pub fn tasks(&self) -> usize {
        self.tasks
    }

    /// Every job, in wave order.
    pub fn entries(&self) -> &[WaveEntry] {
        &self.entries
    }

    /// The jobs task `task` runs, in order.
    pub fn of_task(&self, task: usize) -> impl Iterator<Item = &WaveEntry> {
        self.entries.iter().filter(move |e| e.task == task)
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\n");
        for e in &self.entries {
            s.push_str(&format!("{}\t{}\t{}\n", e.task, e.job, e.key));
        }
        s
    }

    /// Read a wave file's text; the error says which line is wrong and how.
    pub fn parse(text: &str) -> Result<Wave, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, h)) if h == HEADER => {}
            _ => return Err(format!("its first line is not `{HEADER}`")),
        }
        let mut entries = Vec::new();
        for (n, line) in lines {
            if line.is_empty() {
                continue;
            }
            let bad = |what: &str| format!("line {}: {what} (`{line}`)", n + 1);
            let mut parts = line.split('\t');
            let (Some(task), Some(job), Some(key), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(bad("expected task<TAB>job<TAB>key"));
            };
            let task = task
                .parse::<usize>()
                .map_err(|_| bad("the task is not a number"))?;
            if job.is_empty() || key.is_empty() {
                return Err(bad("the job or the key is empty"));
            }
            entries.push(WaveEntry {
                task,
                job: job.to_string(),
                key: key.to_string(),
            });
        }
        let tasks = entries.iter().map(|e| e.task + 1).max().unwrap_or(0);
        if let Some(t) = (0..tasks).find(|t| !entries.iter().any(|e| e.task == *t)) {
            return Err(format!("task {t} has no job"));
        }
        if tasks == 0 {
            return Err("it lists no job".into());
        }
        Ok(Wave { entries, tasks })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(n: usize) -> Vec<(String, String)> {
        (0..n)
            .map(|i| (format!("simulate/paper/j{i}"), format!("{i:064x}")))
            .collect()
    }

    #[test]
    fn jobs_are_dealt_round_robin_and_the_text_reads_back() {
        let w = Wave::split(jobs(7), 3);
        assert_eq!(w.tasks(), 3);
        let t0: Vec<&str> = w.of_task(0).map(|e| e.job.as_str()).collect();
        assert_eq!(
            t0,
            [
                "simulate/paper/j0",
                "simulate/paper/j3",
                "simulate/paper/j6"
            ]
        );
        assert_eq!(w.of_task(2).count(), 2);
        assert_eq!(Wave::parse(&w.to_text()), Ok(w));
        // Fewer jobs than tasks: a task a job.
        let w = Wave::split(jobs(2), 100);
        assert_eq!(w.tasks(), 2);
        assert_eq!(Wave::parse(&w.to_text()), Ok(w));
    }

    #[test]
    fn a_damaged_file_says_what_is_wrong() {
        let text = Wave::split(jobs(3), 3).to_text();
        assert!(Wave::parse("garbage\n").unwrap_err().contains("first line"));
        assert!(
            Wave::parse(&format!("{HEADER}\n"))
                .unwrap_err()
                .contains("no job")
        );
        let e = Wave::parse(&text.replace("\t0000", " 0000")).unwrap_err();
        assert!(
            e.contains("line 2") && e.contains("task<TAB>job<TAB>key"),
            "{e}"
        );
        let e = Wave::parse(&text.replace("1\tsimulate", "x\tsimulate")).unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = Wave::parse(&text.replace("1\tsimulate", "5\tsimulate")).unwrap_err();
        assert!(e.contains("task 1 has no job"), "{e}");
    }
}
