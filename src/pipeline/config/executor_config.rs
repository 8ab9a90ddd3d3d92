//! The `[executor]` section of `pipeline.toml`: [`ExecutorSection`] says where a run's jobs
//! execute (`local`, the default, or `slurm`) and with which Slurm options.
//!
//! Invariant: nothing in this section reaches any job's cache key or any hashed output: the
//! section is kept out of the config text that the report's provenance prints
//! ([`without_executor_section`]), so the same study gives the same lock whichever executor
//! ran it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Where jobs execute.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExecutorKind {
    /// In this process, one job at a time (each job uses every core).
    #[default]
    Local,
    /// As Slurm jobs (`sbatch`), one per ready job.
    Slurm,
}

impl ExecutorKind {
    /// The name used in pipeline.toml and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            ExecutorKind::Local => "local",
            ExecutorKind::Slurm => "slurm",
        }
    }
}

/// `[executor]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecutorSection {
    /// `local` (default) or `slurm`.
    #[serde(default)]
    pub kind: ExecutorKind,
    /// Slurm partition (`sbatch --partition`); the cluster's default if absent.
    pub partition: Option<String>,
    /// Slurm account to charge (`sbatch --account`).
    pub account: Option<String>,
    /// Time limit per job (`sbatch --time`), e.g. `"01:00:00"` or `"30"` (minutes).
    pub time: Option<String>,
    /// Memory per job (`sbatch --mem`), e.g. `"4G"`.
    pub memory: Option<String>,
    /// CPUs per job (`sbatch --cpus-per-task`); a job's body uses all it is given.
    pub cpus: Option<u32>,
    /// Further `sbatch` arguments, one per element, e.g. `["--qos=short"]`.
    #[serde(default)]
    pub sbatch_args: Vec<String>,
    /// At most this many Slurm jobs submitted and not yet finished at once.
    #[serde(default = "default_max_jobs")]
    pub max_jobs: usize,
    /// Seconds between two status queries (`squeue`); at least 0.2.
    #[serde(default = "default_poll_seconds")]
    pub poll_seconds: f64,
    /// The `briscola` binary the nodes run (default: this binary's path; it must be on a file
    /// system the nodes share).
    pub binary: Option<PathBuf>,
}

fn default_max_jobs() -> usize {
    100
}

fn default_poll_seconds() -> f64 {
    5.0
}

impl Default for ExecutorSection {
    fn default() -> ExecutorSection {
        ExecutorSection {
            kind: ExecutorKind::Local,
            partition: None,
            account: None,
            time: None,
            memory: None,
            cpus: None,
            sbatch_args: Vec::new(),
            max_jobs: default_max_jobs(),
            poll_seconds: default_poll_seconds(),
            binary: None,
        }
    }
}

impl ExecutorSection {
    /// Every check; the error is (dotted field, what is wrong and what is valid).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let bad = |f: &str, m: &str| Err((format!("executor.{f}"), m.to_string()));
        for (field, value) in [
            ("partition", &self.partition),
            ("account", &self.account),
            ("time", &self.time),
            ("memory", &self.memory),
        ] {
            if let Some(v) = value
                && (v.is_empty() || v.chars().any(|c| c.is_whitespace() || c.is_control()))
            {
                return bad(
                    field,
                    "must be a non-empty value without spaces, as sbatch takes it (e.g. time = \"01:00:00\", memory = \"4G\")",
                );
            }
        }
        if let Some(t) = &self.time
            && !t
                .chars()
                .all(|c| c.is_ascii_digit() || c == ':' || c == '-')
        {
            return bad(
                "time",
                "is not a Slurm time limit; use minutes, MM:SS, HH:MM:SS or D-HH:MM:SS (e.g. \"01:00:00\")",
            );
        }
        if let Some(m) = &self.memory {
            let digits = m.trim_end_matches(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']);
            let unit_len = m.len() - digits.len();
            if digits.is_empty()
                || unit_len > 1
                || !digits.chars().all(|c| c.is_ascii_digit())
                || !digits.parse::<u64>().is_ok_and(|n| n > 0)
            {
                return bad(
                    "memory",
                    "is not an sbatch memory size; use a positive number of megabytes or a number with K, M, G or T (e.g. \"4G\", \"4000M\")",
                );
            }
        }
        if self.cpus == Some(0) {
            return bad("cpus", "must be at least 1");
        }
        if self.sbatch_args.iter().any(|a| !a.starts_with('-')) {
            return bad(
                "sbatch_args",
                "each element must be one sbatch option starting with `-`, e.g. [\"--qos=short\", \"--constraint=avx2\"]",
            );
        }
        if self.max_jobs == 0 {
            return bad("max_jobs", "must be at least 1 (jobs in flight at once)");
        }
        if !(self.poll_seconds >= 0.2 && self.poll_seconds <= 600.0) {
            return bad(
                "poll_seconds",
                "must be between 0.2 and 600 seconds (how often squeue is asked)",
            );
        }
        Ok(())
    }
}

/// The header name of a TOML table line (`[a.b]` or `[[a.b]]`), if `line` is one.
fn header_name(line: &str) -> Option<String> {
    let t = line.trim_start();
    let inner = t.strip_prefix("[[").or_else(|| t.strip_prefix('['))?;
    let end = inner.find(']')?;
    Some(inner[..end].trim().trim_matches('"').to_string())
}

/// `text` with runs of blank lines collapsed to one and no blank lines at its end, so that the
/// text with a section cut out equals the text that never had it, whatever blank lines
/// surrounded the section.
fn collapse_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = false;
    for line in text.split_inclusive('\n') {
        let blank = line.trim().is_empty();
        if !(blank && blank_run) {
            out.push_str(line);
        }
        blank_run = blank;
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// `text` without its `[executor]` table (header, keys and the comments inside it), so that
/// the report's provenance, which prints the config text, does not depend on where the jobs
/// ran. `None` if the section cannot be cut out cleanly (e.g. written inline as
/// `executor = {...}`): the caller reports that as an error.
pub fn without_executor_section(text: &str) -> Option<String> {
    if !text
        .lines()
        .any(|l| header_name(l).is_some_and(|n| n == "executor" || n.starts_with("executor.")))
        && !text.contains("executor")
    {
        return Some(collapse_blank_lines(text));
    }
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        if let Some(name) = header_name(line) {
            inside = name == "executor" || name.starts_with("executor.");
        }
        if !inside {
            out.push_str(line);
        }
    }
    let out = collapse_blank_lines(&out);
    // Check: the rest of the file must parse to exactly the file minus `executor`.
    let mut full: toml::Table = toml::from_str(text).ok()?;
    full.remove("executor");
    let rest: toml::Table = toml::from_str(&out).ok()?;
    (rest == full).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_is_cut_out_and_the_rest_kept_byte_for_byte() {
        let base = "[study]\ntitle = \"x\"\n\n[render]\nformats = [\"md\"]\n";
        assert_eq!(without_executor_section(base).as_deref(), Some(base));
        let with = "[study]\ntitle = \"x\"\n\n[executor]\nkind = \"slurm\"\n# a comment\npartition = \"p\"\n\n[render]\nformats = [\"md\"]\n";
        assert_eq!(
            without_executor_section(with).as_deref(),
            Some("[study]\ntitle = \"x\"\n\n[render]\nformats = [\"md\"]\n")
        );
        let at_end = format!("{base}\n[executor]\nkind = \"slurm\"\n");
        assert_eq!(without_executor_section(&at_end).as_deref(), Some(base));
        // Blank lines around the section do not survive it.
        let spaced = "[study]\ntitle = \"x\"\n\n\n[executor]\nkind = \"slurm\"\n\n[render]\nformats = [\"md\"]\n";
        assert_eq!(without_executor_section(spaced).as_deref(), Some(base));
        // Inline tables cannot be cut out line by line: refused, never silently kept.
        let inline = "executor = { kind = \"slurm\" }\n[study]\ntitle = \"x\"\n";
        assert_eq!(without_executor_section(inline), None);
    }

    #[test]
    fn bad_values_name_the_field() {
        let mut e = ExecutorSection {
            time: Some("one hour".into()),
            ..ExecutorSection::default()
        };
        assert_eq!(e.validate().unwrap_err().0, "executor.time");
        e.time = Some("1h".into());
        assert_eq!(e.validate().unwrap_err().0, "executor.time");
        e.time = Some("1-00:00:00".into());
        assert!(e.validate().is_ok());
        e.max_jobs = 0;
        assert_eq!(e.validate().unwrap_err().0, "executor.max_jobs");
        e.max_jobs = 1;
        e.sbatch_args = vec!["qos=short".into()];
        assert_eq!(e.validate().unwrap_err().0, "executor.sbatch_args");
        e.sbatch_args = Vec::new();
        // Issue 26: `memory = "lots"` was accepted and failed only at sbatch.
        for bad in ["lots", "4GB", "G", "0", "-4G", "4.5G"] {
            e.memory = Some(bad.into());
            assert_eq!(e.validate().unwrap_err().0, "executor.memory", "{bad}");
        }
        for good in ["4G", "4000", "512M", "1t"] {
            e.memory = Some(good.into());
            assert!(e.validate().is_ok(), "{good}");
        }
    }
}
