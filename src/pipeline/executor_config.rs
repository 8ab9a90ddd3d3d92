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
        return Some(text.to_string());
    }
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    // Blank lines at the end of the section stand for the separation before the next table;
    // blank lines before the section header are dropped, so adding or removing a section
    // with any blank lines around it gives the same text.
    let mut section_tail = String::new();
    for line in text.split_inclusive('\n') {
        if let Some(name) = header_name(line) {
            let entering = name == "executor" || name.starts_with("executor.");
            if entering && !inside {
                while out.ends_with("\n\n") || out.ends_with("\n \n") {
                    let cut = out[..out.len() - 1].rfind('\n').map_or(0, |i| i + 1);
                    if !out[cut..].trim().is_empty() {
                        break;
                    }
                    out.truncate(cut);
                }
            } else if !entering && inside {
                out.push_str(&section_tail);
            }
            inside = entering;
            section_tail.clear();
        }
        if !inside {
            out.push_str(line);
        } else if line.trim().is_empty() {
            section_tail.push_str(line);
        } else {
            section_tail.clear();
        }
    }
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
    }
}
